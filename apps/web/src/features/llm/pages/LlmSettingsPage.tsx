import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  BOTS_SUBJECT,
  LLM_MESSAGES,
  LLM_PROVIDER_LABELS,
  type LlmSetting,
  type LlmTestResult,
  MESSAGES,
} from '@parley/contracts';
import { useState } from 'react';
import { FRESH_ON_VISIT_S } from '../../../shared/api/base-api';
import { serverDetail } from '../../../shared/api/errors';
import { ConfirmDialog } from '../../../shared/components/ConfirmDialog';
import { PageHeader } from '../../../shared/components/PageHeader';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useAbility } from '../../permissions/hooks/useAbility';
import { useCompanyLlmsQuery, useDeleteLlmMutation, useTestLlmMutation, useToggleLlmMutation } from '../api';
import { LlmFormDialog } from '../components/LlmFormDialog';

type Tested = { setting: LlmSetting; result: LlmTestResult };

/** The model's last test (run on save, on activation, or by Test connection), in a chip and a line. */
function TestState({ setting }: { setting: LlmSetting }) {
  const test = setting.last_test;
  if (!test) return <Chip size="small" label="Not tested" variant="outlined" />;
  const when = new Date(test.tested_at).toLocaleString();
  return (
    <Stack spacing={0.5} alignItems="flex-start" data-testid={`llm-state-${setting.id}`}>
      <Chip
        size="small"
        color={test.ok ? 'success' : 'error'}
        label={test.ok ? `Working · ${test.latency_ms} ms` : 'Test failed'}
        title={`Tested ${when}`}
      />
      {test.ok ? null : (
        <Typography variant="caption" color="text.secondary">
          {test.detail}
        </Typography>
      )}
    </Stack>
  );
}
type Editing = { setting: LlmSetting | null; key: number };

/** "Shop", "Shop and Support", "Shop, Support and Sales". */
const namesText = (names: string[]): string =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

/** What deleting a model does to the bots that answer with it, by name. */
function deleteText(setting: LlmSetting | null): string {
  if (!setting) return '';
  const bots = setting.used_by;
  if (bots.length === 0) return `Delete "${setting.name}"? No bot answers with it.`;
  const who = bots.length === 1 ? `${bots[0]} answers` : `${namesText(bots)} answer`;
  return `Delete "${setting.name}"? ${who} with it, and will answer from ${bots.length === 1 ? 'its' : 'their'} knowledge alone until you choose another model.`;
}

/** /bot/llm-settings: the workspace's models, their masked keys, activation and a connection test. */
export function LlmSettingsPage() {
  const ability = useAbility();
  const canCreate = ability.can('create', BOTS_SUBJECT);
  const canWrite = ability.can('write', BOTS_SUBJECT);
  const notify = useNotify();
  // Fresh on every visit: which bots use each model changes on the bots' pages.
  const llms = useCompanyLlmsQuery(undefined, { refetchOnMountOrArgChange: FRESH_ON_VISIT_S });
  const [toggle] = useToggleLlmMutation();
  const [remove, removing] = useDeleteLlmMutation();
  const [runTest] = useTestLlmMutation();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<LlmSetting | null>(null);
  const [testing, setTesting] = useState<number | null>(null);
  const [tested, setTested] = useState<Tested | null>(null);

  const onToggle = async (setting: LlmSetting, active: boolean) => {
    const result = await toggle({ id: setting.id, active });
    if ('data' in result && result.data) notify.success(MESSAGES.llm.updated);
    // Switching on tests the model first: the server says why it stayed off.
    else notify.error(serverDetail(result.error) ?? MESSAGES.llm.activateFailed);
  };

  const onTest = async (setting: LlmSetting) => {
    setTesting(setting.id);
    setTested(null);
    const result = await runTest(setting.id);
    setTesting(null);
    if ('data' in result && result.data) setTested({ setting, result: result.data });
    else
      setTested({
        setting,
        result: {
          ok: false,
          detail: serverDetail(result.error) ?? 'The test could not be run',
          latency_ms: 0,
        },
      });
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    const result = await remove(deleting.id);
    if ('data' in result && result.data) {
      notify.success(LLM_MESSAGES.deleted);
      if (tested?.setting.id === deleting.id) setTested(null);
    } else {
      notify.error(serverDetail(result.error) ?? 'Failed to delete LLM');
    }
    setDeleting(null);
  };

  const rows = llms.data ?? [];
  return (
    <>
      <PageHeader
        title="LLM settings"
        subtitle="The language models your bots answer with. Keys are stored encrypted and only ever shown masked; a bot with no active model answers from its knowledge alone."
        actions={
          canCreate ? (
            <Button variant="contained" onClick={() => setEditing({ setting: null, key: Date.now() })}>
              Add model
            </Button>
          ) : null
        }
      />
      {llms.isLoading ? <CircularProgress aria-label="Loading models" /> : null}
      {llms.isError ? <Alert severity="error">The models could not be loaded.</Alert> : null}
      {tested ? (
        <Alert
          severity={tested.result.ok ? 'success' : 'error'}
          onClose={() => setTested(null)}
          sx={{ mb: 2 }}
          role="status"
          aria-label="Connection test result"
        >
          <strong>
            {tested.setting.name}: {tested.result.ok ? 'connection OK' : 'connection failed'}
          </strong>
          {tested.result.latency_ms > 0 ? ` (${tested.result.latency_ms} ms)` : null}
          {' — '}
          {tested.result.detail}
        </Alert>
      ) : null}
      {llms.data && rows.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 3 }}>
          <Typography color="text.secondary">
            No models yet. Add one from OpenAI, Anthropic, Google, Azure, or any OpenAI-compatible server
            (Ollama, vLLM, LM Studio, OpenRouter).
          </Typography>
        </Paper>
      ) : null}
      {rows.length > 0 ? (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label="Models">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Provider</TableCell>
                <TableCell>Model</TableCell>
                <TableCell>Used by</TableCell>
                <TableCell>API key</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Active</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((setting) => (
                <TableRow key={setting.id} data-testid={`llm-row-${setting.id}`}>
                  <TableCell>
                    <Typography variant="body2" fontWeight={600}>
                      {setting.name}
                    </Typography>
                    {setting.base_url ? (
                      <Typography variant="caption" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
                        {setting.base_url}
                      </Typography>
                    ) : null}
                  </TableCell>
                  <TableCell>{LLM_PROVIDER_LABELS[setting.provider].split(' (')[0]}</TableCell>
                  <TableCell>{setting.model}</TableCell>
                  <TableCell data-testid={`llm-used-by-${setting.id}`}>
                    {setting.used_by.length > 0 ? setting.used_by.join(', ') : 'No bot'}
                  </TableCell>
                  <TableCell sx={{ fontFamily: 'monospace' }}>{setting.api_key_masked ?? '—'}</TableCell>
                  <TableCell sx={{ maxWidth: 280 }}>
                    <TestState setting={setting} />
                  </TableCell>
                  <TableCell>
                    <Switch
                      checked={setting.is_active}
                      disabled={!canWrite}
                      onChange={(_, checked) => void onToggle(setting, checked)}
                      slotProps={{ input: { 'aria-label': `Active: ${setting.name}` } }}
                    />
                  </TableCell>
                  <TableCell align="right">
                    <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end', flexWrap: 'wrap' }}>
                      {canWrite ? (
                        <>
                          <Button
                            size="small"
                            onClick={() => void onTest(setting)}
                            disabled={testing !== null}
                            aria-label={`Test connection: ${setting.name}`}
                          >
                            {testing === setting.id ? 'Testing…' : 'Test connection'}
                          </Button>
                          <Button
                            size="small"
                            onClick={() => setEditing({ setting, key: Date.now() })}
                            aria-label={`Edit: ${setting.name}`}
                          >
                            Edit
                          </Button>
                          <Button
                            size="small"
                            color="error"
                            onClick={() => setDeleting(setting)}
                            aria-label={`Delete: ${setting.name}`}
                          >
                            Delete
                          </Button>
                        </>
                      ) : null}
                    </Box>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      ) : null}
      {editing ? (
        <LlmFormDialog key={editing.key} open setting={editing.setting} onClose={() => setEditing(null)} />
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete model"
        text={deleteText(deleting)}
        confirmLabel="Delete"
        busy={removing.isLoading}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
