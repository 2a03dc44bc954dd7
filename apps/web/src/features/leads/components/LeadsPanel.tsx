import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import DownloadIcon from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { LEAD_LIMITS, LEAD_TEXTS, type Lead } from '@parley/contracts';
import { useState } from 'react';
import { useDispatch } from 'react-redux';
import { Link as RouterLink } from 'react-router';
import { ConfirmDialog } from '../../../shared/components/ConfirmDialog';
import { PanelHeader } from '../../../shared/components/PanelHeader';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useAbility } from '../../permissions/hooks/useAbility';
import { failureText } from '../../roles/failure';
import { useDeleteLeadMutation, useLeadsQuery } from '../api';
import { type DownloadOutcome, downloadWithSession, saveBlob } from '../download';

const PAGE_SIZES = [LEAD_LIMITS.pageDefault, 25, 50, LEAD_LIMITS.pageMax];

/** The fields other than name and email, one "field: value" per line. */
const otherDetails = (lead: Lead) =>
  Object.entries(lead.fields)
    .filter(([name]) => name !== 'name' && name !== 'email')
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');

/** What a failed download tells the user. */
function downloadFailure(outcome: Exclude<DownloadOutcome, { ok: true }>): string {
  if (outcome.reason === 'timeout') return LEAD_TEXTS.downloadTimedOut;
  if (outcome.reason === 'http' && outcome.detail) return `${LEAD_TEXTS.downloadFailed} ${outcome.detail}`;
  return LEAD_TEXTS.downloadFailed;
}

/** A bot's leads (what visitors left through its lead form), a page at a time, and a CSV export. */
export function LeadsPanel({ botId }: { botId: number }) {
  const notify = useNotify();
  const dispatch = useDispatch();
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState<number>(LEAD_LIMITS.pageDefault);
  const [downloading, setDownloading] = useState(false);
  const mayErase = useAbility().can('write', 'Leads');
  const [erasing, setErasing] = useState<Lead | null>(null);
  const [erase, erased] = useDeleteLeadMutation();
  // New leads arrive from visitors at any time: reload a page older than 30 s when it shows again.
  const leads = useLeadsQuery(
    { botId, skip: page * pageSize, limit: pageSize },
    { refetchOnMountOrArgChange: 30 },
  );
  const items = leads.data?.items ?? [];
  const total = leads.data?.total ?? 0;

  const download = async () => {
    setDownloading(true);
    try {
      const url = `/api/chat/bots/${botId}/leads.csv`;
      const fallbackName = `leads-${botId}.csv`;
      const outcome = await downloadWithSession(url, fallbackName, dispatch);
      if (outcome.ok) saveBlob(outcome.blob, outcome.fileName);
      else notify.error(downloadFailure(outcome));
    } finally {
      setDownloading(false);
    }
  };

  const onErase = async () => {
    if (!erasing) return;
    try {
      notify.success((await erase({ botId, leadId: erasing.id }).unwrap()).message);
    } catch (error) {
      notify.error(failureText(LEAD_TEXTS.deleteFailed, error));
    } finally {
      setErasing(null);
    }
  };

  return (
    <Card component="section" aria-label="Leads">
      <PanelHeader title="Leads">
        <Button
          variant="outlined"
          startIcon={downloading ? <CircularProgress size={16} aria-hidden /> : <DownloadIcon />}
          onClick={download}
          disabled={downloading || total === 0}
        >
          Download CSV
        </Button>
      </PanelHeader>
      {leads.isError ? (
        <Alert
          severity="error"
          sx={{ mx: 2, mb: 2 }}
          action={
            <Button color="inherit" size="small" onClick={() => leads.refetch()}>
              Retry
            </Button>
          }
        >
          {failureText(LEAD_TEXTS.loadFailed, leads.error)}
        </Alert>
      ) : null}
      {leads.isLoading ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
          <CircularProgress aria-label="Loading leads" />
        </Box>
      ) : null}
      {leads.isSuccess && total === 0 ? (
        <Typography color="text.secondary" sx={{ px: 2, pb: 2 }}>
          No leads yet. What visitors leave through the bot's lead form appears here.
        </Typography>
      ) : null}
      {total > 0 ? (
        <>
          <TableContainer>
            <Table size="small" aria-label="Leads" aria-busy={leads.isFetching}>
              <TableHead>
                <TableRow>
                  <TableCell>Submitted</TableCell>
                  <TableCell>Name</TableCell>
                  <TableCell>Email</TableCell>
                  <TableCell>Other details</TableCell>
                  <TableCell align="right">Conversation</TableCell>
                  {mayErase ? <TableCell align="right">Actions</TableCell> : null}
                </TableRow>
              </TableHead>
              <TableBody>
                {items.map((lead) => (
                  <TableRow key={lead.id}>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      <time dateTime={lead.created_at}>{new Date(lead.created_at).toLocaleString()}</time>
                    </TableCell>
                    <TableCell>{lead.name ?? '—'}</TableCell>
                    <TableCell>
                      {lead.email ? <a href={`mailto:${lead.email}`}>{lead.email}</a> : '—'}
                    </TableCell>
                    <TableCell sx={{ whiteSpace: 'pre-line', wordBreak: 'break-word' }}>
                      {otherDetails(lead) || '—'}
                    </TableCell>
                    <TableCell align="right">
                      {lead.conversation_id ? (
                        <Link
                          component={RouterLink}
                          to={`/inbox?conversation=${lead.conversation_id}&bot=${botId}`}
                        >
                          {lead.conversation_id}
                        </Link>
                      ) : (
                        '—'
                      )}
                    </TableCell>
                    {mayErase ? (
                      <TableCell align="right">
                        <IconButton
                          size="small"
                          aria-label={`Delete the lead of ${lead.name ?? lead.email ?? 'this visitor'}`}
                          onClick={() => setErasing(lead)}
                        >
                          <DeleteOutlineIcon fontSize="small" />
                        </IconButton>
                      </TableCell>
                    ) : null}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePagination
            component="div"
            count={total}
            page={page}
            onPageChange={(_event, next) => setPage(next)}
            rowsPerPage={pageSize}
            rowsPerPageOptions={PAGE_SIZES}
            onRowsPerPageChange={(event) => {
              setPageSize(Number(event.target.value));
              setPage(0);
            }}
          />
        </>
      ) : null}
      <ConfirmDialog
        open={erasing !== null}
        title="Delete this lead?"
        text={`The details ${erasing?.name ?? erasing?.email ?? 'this visitor'} left, and the notifications about them, are erased for good. The conversation stays in the inbox.`}
        confirmLabel="Delete"
        busy={erased.isLoading}
        onConfirm={onErase}
        onClose={() => setErasing(null)}
      />
    </Card>
  );
}
