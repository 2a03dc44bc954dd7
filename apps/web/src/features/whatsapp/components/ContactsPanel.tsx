import DeleteOutline from '@mui/icons-material/DeleteOutline';
import Download from '@mui/icons-material/Download';
import Upload from '@mui/icons-material/Upload';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { WHATSAPP_TEXTS, type WhatsAppAccount, type WhatsAppContact } from '@parley/contracts';
import { useEffect, useState } from 'react';
import { useDispatch } from 'react-redux';
import { errorText } from '../../../shared/api/errors';
import { ConfirmDialog } from '../../../shared/components/ConfirmDialog';
import { useNotify } from '../../../shared/hooks/useNotify';
import { saveBlob } from '../../leads/download';
import { useAbility } from '../../permissions/hooks/useAbility';
import { useContactsQuery, useDeleteContactMutation, useUpdateContactMutation } from '../api';
import { exportContacts } from '../transfer';
import { ContactDialog } from './ContactDialog';
import { ImportDialog } from './ImportDialog';

/** The number's contacts: search, tag filter, paging, create, opt-out, delete, CSV import and export. */
export function ContactsPanel({ account }: { account: WhatsAppAccount }) {
  const ability = useAbility();
  const notify = useNotify();
  const dispatch = useDispatch();
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [tag, setTag] = useState('');
  const [page, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPage] = useState(25);
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);
  const contacts = useContactsQuery({
    accountId: account.id,
    search,
    tag,
    skip: page * rowsPerPage,
    limit: rowsPerPage,
  });
  const mayCreate = ability.can('create', 'Create Bot');

  // The search is sent once typing pauses.
  useEffect(() => {
    const timer = window.setTimeout(() => {
      setSearch(typed);
      setPage(0);
    }, 300);
    return () => window.clearTimeout(timer);
  }, [typed]);

  const onExport = async () => {
    setExporting(true);
    const outcome = await exportContacts(account.id, dispatch);
    setExporting(false);
    if (outcome.ok) saveBlob(outcome.blob, outcome.fileName);
    else if (outcome.reason === 'http') notify.error(outcome.detail ?? `Export failed (${outcome.status})`);
    else
      notify.error(
        outcome.reason === 'timeout' ? 'The export took too long. Please try again.' : 'The export failed.',
      );
  };

  const list = contacts.data;
  return (
    <>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1} sx={{ mb: 2 }} alignItems={{ md: 'center' }}>
        <TextField
          size="small"
          label="Search contacts"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          sx={{ minWidth: 240 }}
        />
        <TextField
          select
          size="small"
          label="Tag"
          value={tag}
          onChange={(e) => {
            setTag(e.target.value);
            setPage(0);
          }}
          sx={{ minWidth: 160 }}
        >
          <MenuItem value="">All tags</MenuItem>
          {(list?.tags ?? []).map((t) => (
            <MenuItem key={t} value={t}>
              {t}
            </MenuItem>
          ))}
        </TextField>
        <span style={{ flex: 1 }} />
        {mayCreate ? (
          <>
            <Button variant="contained" onClick={() => setCreating(true)}>
              Add contact
            </Button>
            <Button startIcon={<Upload />} onClick={() => setImporting(true)}>
              Import CSV
            </Button>
          </>
        ) : null}
        <Button startIcon={<Download />} onClick={onExport} disabled={exporting}>
          {exporting ? 'Exporting…' : 'Export CSV'}
        </Button>
      </Stack>
      {contacts.isLoading ? <CircularProgress aria-label="Loading contacts" /> : null}
      {contacts.isError ? <Alert severity="error">The contacts could not be loaded.</Alert> : null}
      {list ? (
        <Paper variant="outlined">
          <TableContainer>
            <Table size="small" aria-label="Contacts">
              <TableHead>
                <TableRow>
                  <TableCell>Phone</TableCell>
                  <TableCell>Name</TableCell>
                  <TableCell>Email</TableCell>
                  <TableCell>Tags</TableCell>
                  <TableCell>Opted out</TableCell>
                  <TableCell align="right">Actions</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {list.contacts.length === 0 ? (
                  <TableRow>
                    <TableCell colSpan={6}>
                      <Typography color="text.secondary">No contact matches.</Typography>
                    </TableCell>
                  </TableRow>
                ) : null}
                {list.contacts.map((contact) => (
                  <ContactRow key={contact.id} contact={contact} />
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePagination
            component="div"
            count={list.total}
            page={page}
            rowsPerPage={rowsPerPage}
            rowsPerPageOptions={[10, 25, 50, 100]}
            onPageChange={(_e, next) => setPage(next)}
            onRowsPerPageChange={(e) => {
              setRowsPerPage(Number(e.target.value));
              setPage(0);
            }}
          />
        </Paper>
      ) : null}
      <ContactDialog account={account} open={creating} onClose={() => setCreating(false)} />
      {importing ? <ImportDialog account={account} onClose={() => setImporting(false)} /> : null}
    </>
  );
}

function ContactRow({ contact }: { contact: WhatsAppContact }) {
  const ability = useAbility();
  const notify = useNotify();
  const [update, updating] = useUpdateContactMutation();
  const [remove, removing] = useDeleteContactMutation();
  const [confirming, setConfirming] = useState(false);
  const mayWrite = ability.can('write', 'Create Bot');

  const onOptOut = async (optedOut: boolean) => {
    try {
      const { message } = await update({
        id: contact.id,
        accountId: contact.account_id,
        body: { opted_out: optedOut },
      }).unwrap();
      notify.success(message);
    } catch (error) {
      notify.error(errorText(error as never, 'The contact could not be updated'));
    }
  };
  const onDelete = async () => {
    try {
      await remove({ id: contact.id, accountId: contact.account_id }).unwrap();
      notify.success(WHATSAPP_TEXTS.contactDeleted);
    } catch (error) {
      notify.error(errorText(error as never, 'The contact could not be deleted'));
    } finally {
      setConfirming(false);
    }
  };

  return (
    <TableRow aria-label={contact.phone}>
      <TableCell>{contact.phone}</TableCell>
      <TableCell>{contact.name ?? ''}</TableCell>
      <TableCell>{contact.email ?? ''}</TableCell>
      <TableCell>
        <Stack direction="row" spacing={0.5} flexWrap="wrap">
          {contact.tags.map((t) => (
            <Chip key={t} size="small" label={t} />
          ))}
        </Stack>
      </TableCell>
      <TableCell>
        <Switch
          checked={contact.opted_out}
          disabled={!mayWrite || updating.isLoading}
          onChange={(e) => onOptOut(e.target.checked)}
          slotProps={{ input: { 'aria-label': `Opted out: ${contact.phone}` } }}
        />
      </TableCell>
      <TableCell align="right">
        {mayWrite ? (
          <IconButton aria-label={`Delete ${contact.phone}`} onClick={() => setConfirming(true)}>
            <DeleteOutline fontSize="small" />
          </IconButton>
        ) : null}
        <ConfirmDialog
          open={confirming}
          title={`Delete ${contact.phone}?`}
          text="The contact is removed from this number's list; campaign logs keep their rows."
          confirmLabel="Delete"
          busy={removing.isLoading}
          onConfirm={onDelete}
          onClose={() => setConfirming(false)}
        />
      </TableCell>
    </TableRow>
  );
}
