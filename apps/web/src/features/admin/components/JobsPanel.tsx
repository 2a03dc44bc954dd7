import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ADMIN_JOB_STATES, ADMIN_PAGE_SIZES, type AdminJob } from '@parley/contracts';
import { useState } from 'react';
import { serverDetail } from '../../../shared/api/errors';
import { EmptyRow, TablePager, usePaging } from '../../../shared/components/TablePager';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useAdminJobsQuery, useRetryJobMutation } from '../api';
import { formatDate } from '../format';
import { JobCounts } from './JobCounts';

type State = (typeof ADMIN_JOB_STATES)[number];
const STATE_COLOR = { queued: 'info', active: 'warning', completed: 'success', failed: 'error' } as const;

/** The durable queue: counts by state, jobs by state and kind, and a retry for a failed one. */
export function JobsPanel({ canWrite }: { canWrite: boolean }) {
  const notify = useNotify();
  const [status, setStatus] = useState<State | ''>('');
  const [name, setName] = useState('');
  const paging = usePaging(ADMIN_PAGE_SIZES, 20);
  const jobs = useAdminJobsQuery(
    { page: paging.page + 1, page_size: paging.size, status: status || undefined, name: name || undefined },
    { pollingInterval: 5000 },
  );
  const [retry, retrying] = useRetryJobMutation();

  const retryJob = async (job: AdminJob) => {
    const result = await retry(job.id);
    if ('error' in result) notify.error(serverDetail(result.error) ?? 'The job could not be retried.');
    else notify.success(`${job.name} queued again.`);
  };

  return (
    <Stack spacing={2}>
      {jobs.data ? <JobCounts counts={jobs.data.counts} /> : null}
      <Stack direction="row" spacing={2}>
        <TextField
          select
          size="small"
          label="State"
          value={status}
          onChange={(event) => {
            setStatus(event.target.value as State | '');
            paging.reset();
          }}
          sx={{ minWidth: 160 }}
        >
          <MenuItem value="">All states</MenuItem>
          {ADMIN_JOB_STATES.map((s) => (
            <MenuItem key={s} value={s}>
              {s}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label="Kind"
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            paging.reset();
          }}
          sx={{ minWidth: 220 }}
        >
          <MenuItem value="">All kinds</MenuItem>
          {(jobs.data?.kinds ?? []).map((kind) => (
            <MenuItem key={kind} value={kind}>
              {kind}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      {jobs.isLoading ? <CircularProgress aria-label="Loading jobs" /> : null}
      {jobs.isError ? <Alert severity="error">The jobs could not be loaded.</Alert> : null}
      {jobs.data ? (
        <>
          <TableContainer>
            <Table size="small" aria-label="Jobs">
              <TableHead>
                <TableRow>
                  <TableCell>Kind</TableCell>
                  <TableCell>State</TableCell>
                  <TableCell>Workspace</TableCell>
                  <TableCell align="right">Attempts</TableCell>
                  <TableCell>Error</TableCell>
                  <TableCell>Created</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {jobs.data.items.map((job) => (
                  <TableRow key={job.id}>
                    <TableCell>{job.name}</TableCell>
                    <TableCell>
                      <Chip size="small" color={STATE_COLOR[job.status]} label={job.status} />
                    </TableCell>
                    <TableCell>{job.tenant_name ?? 'Platform'}</TableCell>
                    <TableCell align="right">
                      {job.attempts} / {job.max_attempts}
                    </TableCell>
                    <TableCell sx={{ maxWidth: 320 }}>
                      <Typography variant="body2" color="error" noWrap title={job.error ?? undefined}>
                        {job.error ?? ''}
                      </Typography>
                    </TableCell>
                    <TableCell>{formatDate(job.created_at)}</TableCell>
                    <TableCell align="right">
                      {canWrite && job.status === 'failed' ? (
                        <Button
                          size="small"
                          onClick={() => retryJob(job)}
                          disabled={retrying.isLoading}
                          aria-label={`Retry ${job.name}`}
                        >
                          Retry
                        </Button>
                      ) : null}
                    </TableCell>
                  </TableRow>
                ))}
                {jobs.data.items.length === 0 ? <EmptyRow columns={7}>No jobs.</EmptyRow> : null}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePager {...paging.pagerProps(jobs.data.total)} />
        </>
      ) : null}
    </Stack>
  );
}
