import UploadFile from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ContactMapping, ImportPreview, ImportResult, WhatsAppAccount } from '@parley/contracts';
import { useState } from 'react';
import { useDispatch } from 'react-redux';
import { useAppSelector } from '../../../app/store';
import { errorText } from '../../../shared/api/errors';
import { useImportPreviewMutation, whatsappApi } from '../api';
import { importContacts } from '../transfer';

const FIELDS = [
  { key: 'phone', label: 'Phone column' },
  { key: 'name', label: 'Name column' },
  { key: 'email', label: 'Email column' },
  { key: 'tags', label: 'Tags column' },
] as const;

type Mapping = Record<(typeof FIELDS)[number]['key'], string>;

/**
 * CSV import: the file's columns and first rows with the guessed mapping (each field's column can
 * be changed), then the upload with its progress, then what was imported and which rows were refused.
 */
export function ImportDialog({ account, onClose }: { account: WhatsAppAccount; onClose: () => void }) {
  const me = useAppSelector((state) => state.session.user);
  const dispatch = useDispatch();
  const [preview, previewing] = useImportPreviewMutation();
  const [file, setFile] = useState<File | null>(null);
  const [columns, setColumns] = useState<ImportPreview | null>(null);
  const [mapping, setMapping] = useState<Mapping>({ phone: '', name: '', email: '', tags: '' });
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const onFile = async (chosen: File | undefined) => {
    if (!chosen) return;
    setFile(chosen);
    setResult(null);
    setProgress(null);
    setProblem(null);
    try {
      const found = await preview({ accountId: account.id, file: chosen }).unwrap();
      setColumns(found);
      setMapping({
        phone: found.mapping?.phone ?? '',
        name: found.mapping?.name ?? '',
        email: found.mapping?.email ?? '',
        tags: found.mapping?.tags ?? '',
      });
    } catch (error) {
      setColumns(null);
      setProblem(errorText(error as never, 'The file could not be read'));
    }
  };

  const onImport = async () => {
    if (!file || !me || !mapping.phone) return;
    const body: ContactMapping = {
      phone: mapping.phone,
      name: mapping.name || null,
      email: mapping.email || null,
      tags: mapping.tags || null,
    };
    setProblem(null);
    setProgress(0);
    const outcome = await importContacts(
      { accountId: account.id, tenantId: me.tenant_id, file, mapping: body },
      setProgress,
      dispatch,
    );
    if (outcome.ok) {
      setResult(outcome.body);
      dispatch(whatsappApi.util.invalidateTags([{ type: 'WhatsAppContacts', id: account.id }]));
    } else {
      setProgress(null);
      setProblem(outcome.detail ?? `The import failed${outcome.status ? ` (${outcome.status})` : ''}`);
    }
  };

  const uploading = progress !== null && result === null;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="wa-import-title">
      <DialogTitle id="wa-import-title">Import contacts from CSV</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <Box>
            <Button component="label" variant="outlined" startIcon={<UploadFile />} disabled={uploading}>
              Choose CSV file
              <input
                hidden
                type="file"
                accept=".csv,text/csv"
                aria-label="CSV file"
                onChange={(e) => void onFile(e.target.files?.[0])}
              />
            </Button>
            <Typography variant="body2" component="span" sx={{ ml: 2 }}>
              {file ? file.name : 'A header row, then one contact per row (up to 20 MB).'}
            </Typography>
          </Box>
          {previewing.isLoading ? <LinearProgress aria-label="Reading the file" /> : null}
          {columns ? (
            <>
              <Typography variant="subtitle2">
                Which column holds what (other columns become attributes)
              </Typography>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                {FIELDS.map((field) => (
                  <TextField
                    key={field.key}
                    select
                    size="small"
                    label={field.label}
                    value={mapping[field.key]}
                    onChange={(e) => setMapping((m) => ({ ...m, [field.key]: e.target.value }))}
                    sx={{ minWidth: 150 }}
                    required={field.key === 'phone'}
                  >
                    <MenuItem value="">
                      <em>None</em>
                    </MenuItem>
                    {columns.columns.map((c) => (
                      <MenuItem key={c} value={c}>
                        {c}
                      </MenuItem>
                    ))}
                  </TextField>
                ))}
              </Stack>
              <Box sx={{ overflowX: 'auto' }}>
                <Table size="small" aria-label="Sample rows">
                  <TableHead>
                    <TableRow>
                      {columns.columns.map((c) => (
                        <TableCell key={c}>{c}</TableCell>
                      ))}
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {columns.rows.map((row, r) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: sample rows have no id
                      <TableRow key={r}>
                        {columns.columns.map((c, i) => (
                          <TableCell key={c}>{row[i] ?? ''}</TableCell>
                        ))}
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </Box>
            </>
          ) : null}
          {progress !== null ? (
            <Box>
              <Typography variant="body2">Uploading… {progress}%</Typography>
              <LinearProgress variant="determinate" value={progress} aria-label="Upload progress" />
            </Box>
          ) : null}
          {problem ? <Alert severity="error">{problem}</Alert> : null}
          {result ? <ImportSummary result={result} /> : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{result ? 'Done' : 'Cancel'}</Button>
        {result ? null : (
          <Button variant="contained" onClick={onImport} disabled={!columns || !mapping.phone || uploading}>
            Import
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}

function ImportSummary({ result }: { result: ImportResult }) {
  return (
    <Box data-testid="import-result">
      <Alert severity={result.rejected_count > 0 ? 'warning' : 'success'}>
        {result.message} {result.imported_contacts} imported ({result.created} new, {result.updated} updated)
        of {result.rows} rows; {result.rejected_count} rejected.
      </Alert>
      {result.rejected.length > 0 ? (
        <List dense aria-label="Rejected rows">
          {result.rejected.map((row) => (
            <ListItem key={row.line} disableGutters>
              <ListItemText primary={`Line ${row.line}: ${row.reason}`} />
            </ListItem>
          ))}
        </List>
      ) : null}
    </Box>
  );
}
