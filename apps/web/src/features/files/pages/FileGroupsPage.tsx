import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { FileGroup, FileItem } from '@parley/contracts';
import { useState } from 'react';
import { useAppSelector } from '../../../app/store';
import { errorText } from '../../../shared/api/errors';
import { ConfirmDialog } from '../../../shared/components/ConfirmDialog';
import { PageHeader } from '../../../shared/components/PageHeader';
import { useNotify } from '../../../shared/hooks/useNotify';
import { KnowledgeTabs } from '../../knowledge/components/KnowledgeTabs';
import {
  useDeleteFileGroupMutation,
  useDeleteFileMutation,
  useFileGroupsQuery,
  useRetrainFileMutation,
} from '../api';
import { EditGroupDialog } from '../components/EditGroupDialog';
import { FileGroupCard } from '../components/FileGroupCard';
import { MoveFileDialog } from '../components/MoveFileDialog';
import { UploadDialog } from '../components/UploadDialog';
import { deleteGroupFailure } from '../failure';

const POLL_MS = 2000;

/** Knowledge: file groups. Polls while any file is still being trained. */
export function FileGroupsPage() {
  const me = useAppSelector((state) => state.session.user);
  const notify = useNotify();
  const [pending, setPending] = useState(false);
  const groups = useFileGroupsQuery(me?.id ?? 0, {
    skip: !me,
    pollingInterval: pending ? POLL_MS : 0,
  });
  const anyPending = (groups.data ?? []).some((g) => g.files.some((f) => f.status === 'pending'));
  if (anyPending !== pending) setPending(anyPending);

  const [uploading, setUploading] = useState<{ group?: FileGroup } | null>(null);
  const [editing, setEditing] = useState<FileGroup | null>(null);
  const [deleting, setDeleting] = useState<FileGroup | null>(null);
  const [deletingFile, setDeletingFile] = useState<FileItem | null>(null);
  const [moving, setMoving] = useState<{ file: FileItem; from: FileGroup } | null>(null);
  const [deleteGroup, deleteGroupState] = useDeleteFileGroupMutation();
  const [deleteFile, deleteFileState] = useDeleteFileMutation();
  const [retrainFile] = useRetrainFileMutation();

  const confirmDeleteGroup = async () => {
    if (!me || !deleting) return;
    const result = await deleteGroup({ groupId: deleting.id, userId: me.id });
    setDeleting(null);
    if ('error' in result) notify.error(deleteGroupFailure(result.error));
    else notify.success(result.data.message);
  };
  const confirmDeleteFile = async () => {
    if (!deletingFile) return;
    const result = await deleteFile(deletingFile.id);
    setDeletingFile(null);
    if ('data' in result && result.data) notify.success(result.data.message);
  };

  const retry = async (file: FileItem) => {
    const result = await retrainFile(file.id);
    if ('error' in result) notify.error(errorText(result.error, `${file.filename} could not be read again`));
    else notify.success(result.data.message);
  };
  const manyGroups = (groups.data?.length ?? 0) > 1;

  return (
    <>
      <KnowledgeTabs />
      <PageHeader
        title="Files"
        subtitle="Upload PDF, Word, Excel, text, Markdown, CSV and HTML files, and photos or scans of text (PNG, JPEG, WebP), for your bots to learn from."
        actions={
          <Button variant="contained" onClick={() => setUploading({})}>
            Upload files
          </Button>
        }
      />
      {groups.isLoading ? <CircularProgress aria-label="Loading file groups" /> : null}
      {groups.data && groups.data.length === 0 ? (
        <Alert severity="info">No files yet. Upload a group of files to train your bots.</Alert>
      ) : null}
      <Stack spacing={2}>
        {groups.data?.map((group) => (
          <FileGroupCard
            key={group.id}
            group={group}
            onAddFiles={() => setUploading({ group })}
            onEdit={() => setEditing(group)}
            onDelete={() => setDeleting(group)}
            onDeleteFile={setDeletingFile}
            onRetry={(file) => void retry(file)}
            onMove={manyGroups ? (file) => setMoving({ file, from: group }) : undefined}
          />
        ))}
      </Stack>
      {anyPending ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }} role="status">
          Training files…
        </Typography>
      ) : null}
      {uploading ? (
        <UploadDialog
          key={uploading.group?.id ?? 'new'}
          open
          group={uploading.group}
          onClose={() => setUploading(null)}
        />
      ) : null}
      {editing ? <EditGroupDialog group={editing} onClose={() => setEditing(null)} /> : null}
      {moving ? (
        <MoveFileDialog
          file={moving.file}
          from={moving.from}
          groups={groups.data ?? []}
          onClose={() => setMoving(null)}
        />
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete file group"
        text={`Delete ${deleting?.group_name ?? ''} and all its files? Bots will no longer answer from them.`}
        confirmLabel="Delete"
        busy={deleteGroupState.isLoading}
        onConfirm={confirmDeleteGroup}
        onClose={() => setDeleting(null)}
      />
      <ConfirmDialog
        open={deletingFile !== null}
        title="Delete file"
        text={`Delete ${deletingFile?.filename ?? ''}? Bots will no longer answer from it.`}
        confirmLabel="Delete"
        busy={deleteFileState.isLoading}
        onConfirm={confirmDeleteFile}
        onClose={() => setDeletingFile(null)}
      />
    </>
  );
}
