import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import {
  MESSAGES,
  NOTION_TEXTS,
  type NotionWorkspaceWithPages,
  SYNC_TEXTS,
  type SyncScheduleBody,
} from '@parley/contracts';
import { skipToken } from '@reduxjs/toolkit/query';
import { useEffect, useState } from 'react';
import { useDispatch } from 'react-redux';
import { ConfirmDialog } from '../../../shared/components/ConfirmDialog';
import { SyncScheduleControl, syncSummary } from '../../../shared/components/SyncSchedule';
import { useNotify } from '../../../shared/hooks/useNotify';
import { failureText } from '../../roles/failure';
import {
  notionApi,
  useDeleteNotionPageMutation,
  useDeleteNotionWorkspaceMutation,
  useNotionTaskProgressQuery,
  useSetNotionScheduleMutation,
  useSyncNotionMutation,
  useTrainNotionMutation,
} from '../api';

type Task = { kind: 'sync' | 'train'; taskId: string };
/** `bot`: the bot the page's picker chose; training goes into it. */
type Props = { workspace: NotionWorkspaceWithPages; bot: { bot_id: number; bot_name: string } | null };

/** One connected workspace: its pages, sync (now or on a schedule) and training with a progress bar, deletion. */
export function WorkspaceCard({ workspace, bot }: Props) {
  const notify = useNotify();
  const dispatch = useDispatch();
  const [task, setTask] = useState<Task | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [sync, syncState] = useSyncNotionMutation();
  const [train, trainState] = useTrainNotionMutation();
  const [deleteWorkspace, deleteState] = useDeleteNotionWorkspaceMutation();
  const [deletePage] = useDeleteNotionPageMutation();
  const [setSchedule, scheduling] = useSetNotionScheduleMutation();
  const progress = useNotionTaskProgressQuery(task?.taskId ?? skipToken, { pollingInterval: 1000 });

  useEffect(() => {
    if (!task) return;
    if (progress.isError) {
      notify.error(NOTION_TEXTS.progressFailed);
      setTask(null);
      return;
    }
    const status = progress.data?.status;
    if (status !== 'completed' && status !== 'failed') return;
    if (status === 'completed') {
      notify.success(task.kind === 'train' ? MESSAGES.notion.trainingCompleted : NOTION_TEXTS.syncCompleted);
    } else {
      const error = progress.data?.error ?? undefined;
      notify.error(
        task.kind === 'train'
          ? MESSAGES.notion.trainingFailed(error)
          : failureText(NOTION_TEXTS.syncFailed, error),
      );
    }
    setTask(null);
    dispatch(notionApi.util.invalidateTags(['Notion']));
  }, [task, progress.data, progress.isError, notify, dispatch]);

  const onSync = async () => {
    try {
      const { task_id } = await sync(workspace.id).unwrap();
      setTask({ kind: 'sync', taskId: task_id });
    } catch (error) {
      notify.error(failureText(NOTION_TEXTS.syncFailed, error));
    }
  };
  const onTrain = async () => {
    if (!bot) return;
    try {
      const { task_id } = await train({ botId: bot.bot_id, workspaceId: workspace.id }).unwrap();
      setTask({ kind: 'train', taskId: task_id });
    } catch (error) {
      notify.error(failureText(NOTION_TEXTS.trainFailed, error));
    }
  };
  const onDelete = async () => {
    try {
      await deleteWorkspace(workspace.id).unwrap();
      notify.success(NOTION_TEXTS.workspaceDeleted);
    } catch (error) {
      notify.error(failureText(NOTION_TEXTS.deleteWorkspaceFailed, error));
    }
    setConfirmDelete(false);
  };
  const onSchedule = async (body: SyncScheduleBody) => {
    try {
      await setSchedule({ workspaceId: workspace.id, body }).unwrap();
      notify.success(SYNC_TEXTS.scheduleSaved);
    } catch (error) {
      notify.error(failureText(SYNC_TEXTS.scheduleFailed, error));
    }
  };
  const onDeletePage = async (id: number) => {
    try {
      await deletePage(id).unwrap();
      notify.success(NOTION_TEXTS.pageDeleted);
    } catch (error) {
      notify.error(failureText(NOTION_TEXTS.deletePageFailed, error));
    }
  };

  const busy = Boolean(task) || syncState.isLoading || trainState.isLoading;
  const percentage = progress.data?.percentage ?? 0;
  return (
    <Card variant="outlined" component="section" aria-label={workspace.workspace_name}>
      <CardContent>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 1 }}>
          <Typography variant="h6" component="h2" sx={{ flex: '1 1 200px' }}>
            {workspace.workspace_name}
          </Typography>
          {task?.kind === 'train' ? (
            <Chip label="Training" color="info" size="small" />
          ) : workspace.trained ? (
            <Chip label="Trained" color="success" size="small" />
          ) : (
            <Chip label="Not trained" size="small" />
          )}
        </Box>
        <Typography variant="body2" color="text.secondary">
          {workspace.page_count} {workspace.page_count === 1 ? 'page' : 'pages'} ·{' '}
          {syncSummary(workspace.last_synced_at, workspace)}
        </Typography>
        {workspace.last_error && !task ? (
          <Alert severity="error" sx={{ mt: 1.5 }}>
            {NOTION_TEXTS.lastSyncFailed(workspace.last_error)}
            {workspace.last_error === NOTION_TEXTS.invalidToken ? ` ${NOTION_TEXTS.reconnectHint}` : ''}
          </Alert>
        ) : null}
        <Box sx={{ mt: 1.5 }}>
          <SyncScheduleControl state={workspace} disabled={scheduling.isLoading} onChange={onSchedule} />
        </Box>

        {task ? (
          <Box sx={{ my: 2 }}>
            <Typography variant="body2" sx={{ mb: 0.5 }}>
              {task.kind === 'train' ? 'Training' : 'Syncing'}: {progress.data?.current ?? 0} of{' '}
              {progress.data?.total ?? 0} pages ({Math.round(percentage)}%)
            </Typography>
            <LinearProgress
              variant="determinate"
              value={percentage}
              aria-label={task.kind === 'train' ? 'Training progress' : 'Sync progress'}
            />
          </Box>
        ) : null}

        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: 2 }}>
          <Button variant="outlined" onClick={onSync} disabled={busy}>
            Sync
          </Button>
          <Button variant="contained" onClick={onTrain} disabled={busy || !bot}>
            {bot ? `Train into ${bot.bot_name}` : 'Train'}
          </Button>
          <Button color="error" onClick={() => setConfirmDelete(true)} disabled={busy}>
            Delete workspace
          </Button>
        </Box>

        {workspace.pages.length > 0 ? (
          <List dense aria-label={`Pages of ${workspace.workspace_name}`} sx={{ mt: 2 }}>
            {workspace.pages.map((page) => (
              <ListItem
                key={page.id}
                divider
                secondaryAction={
                  <IconButton
                    edge="end"
                    aria-label={`Delete page ${page.title}`}
                    onClick={() => onDeletePage(page.id)}
                    disabled={busy}
                  >
                    <span aria-hidden>✕</span>
                  </IconButton>
                }
              >
                <ListItemText
                  primary={
                    page.url ? (
                      <a href={page.url} target="_blank" rel="noreferrer">
                        {page.title}
                      </a>
                    ) : (
                      page.title
                    )
                  }
                  secondary={`${page.character_count.toLocaleString()} characters${page.trained ? ' · trained' : ''}`}
                />
              </ListItem>
            ))}
          </List>
        ) : (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
            No pages yet. Sync to fetch the pages shared with the integration.
          </Typography>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirmDelete}
        title="Delete workspace"
        text={`Delete ${workspace.workspace_name}, its pages and what bots learnt from them?`}
        confirmLabel="Delete"
        busy={deleteState.isLoading}
        onConfirm={onDelete}
        onClose={() => setConfirmDelete(false)}
      />
    </Card>
  );
}
