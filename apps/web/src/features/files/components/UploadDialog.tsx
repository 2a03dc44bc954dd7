import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { FILE_ACCEPT, type FileGroup, GroupName, MESSAGES, NAME_RULES, withRule } from '@parley/contracts';
import { type ChangeEvent, type FormEvent, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/store';
import { useNotify } from '../../../shared/hooks/useNotify';
import { invalidateFileGroups, useCheckGroupNameMutation } from '../api';
import { fileKey } from '../format';
import { chosenNotes, fileNamedIn } from '../names';
import { sendUpload, type UploadProgress } from '../upload';
import { FileProgressList } from './FileProgressList';

type Props = {
  open: boolean;
  /** Given: add files to this group (and edit its description); absent: a new group. */
  group?: FileGroup;
  onClose: () => void;
};

/**
 * Upload of several files with a bar per file and one for the total. A new group's name is checked
 * first (spec section 5); the server's message is shown on success or failure.
 */
export function UploadDialog({ open, group, onClose }: Props) {
  const me = useAppSelector((state) => state.session.user);
  const dispatch = useAppDispatch();
  const notify = useNotify();
  const [checkName] = useCheckGroupNameMutation();
  const [groupName, setGroupName] = useState('');
  const [description, setDescription] = useState(group?.description ?? '');
  const [files, setFiles] = useState<File[]>([]);
  const [nameError, setNameError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  /** The file a refusal of the server named, with its reason, shown under that file. */
  const [refused, setRefused] = useState<{ file: File; text: string } | null>(null);
  const busy = progress !== null;
  const notes = chosenNotes(files, group).map((note, i) =>
    refused && refused.file === files[i] ? { text: refused.text, problem: true } : note,
  );
  const problem = notes.find((note) => note?.problem);

  const reset = () => {
    setGroupName('');
    setDescription(group?.description ?? '');
    setFiles([]);
    setNameError(null);
    setError(null);
    setProgress(null);
    setRefused(null);
  };
  const close = () => {
    if (busy) return;
    reset();
    onClose();
  };

  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = Array.from(event.target.files ?? []);
    setFiles((current) => {
      const known = new Set(current.map(fileKey));
      return [...current, ...chosen.filter((file) => !known.has(fileKey(file)))];
    });
    event.target.value = '';
    setError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!me || busy) return;
    setError(null);
    if (problem) {
      setError(`${problem.text}. Remove the file marked in red to upload the others.`);
      return;
    }
    if (!group) {
      const parsed = GroupName.safeParse(groupName);
      if (!parsed.success) {
        setNameError(parsed.error.issues[0]?.message ?? MESSAGES.files.groupNameRequired);
        return;
      }
      setNameError(null);
      if (files.length === 0) {
        setError(MESSAGES.files.atLeastOneFile);
        return;
      }
      const check = await checkName({ group_name: parsed.data, tenant_id: me.tenant_id });
      if ('error' in check) return;
      if (!check.data.isUnique) {
        setNameError(MESSAGES.files.groupNameTaken);
        return;
      }
    } else if (files.length === 0 && description === (group.description ?? '')) {
      setError(MESSAGES.files.atLeastOneFile);
      return;
    }
    setProgress({ perFile: files.map(() => 0), total: 0 });
    const outcome = group
      ? await sendUpload(
          'PUT',
          '/file/update-file-group',
          { group_id: String(group.id), description },
          files,
          setProgress,
          dispatch,
        )
      : await sendUpload(
          'POST',
          '/file/upload-multiple',
          { group_name: groupName.trim(), description, user_id: String(me.id) },
          files,
          setProgress,
          dispatch,
        );
    dispatch(invalidateFileGroups());
    if (outcome.ok) {
      notify.success(outcome.body.message);
      reset();
      onClose();
      return;
    }
    setProgress(null);
    const text = outcome.detail ?? MESSAGES.files.uploadFailed;
    // A refusal about one file (too large, a type not read) marks it, so the owner sees which to remove.
    const named = fileNamedIn(text, files);
    setRefused(named >= 0 ? { file: files[named]!, text } : null);
    setError(text);
    notify.error(text);
  };

  const title = group ? `Add files to ${group.group_name}` : 'Upload files';
  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="upload-title">
      <DialogTitle id="upload-title">{title}</DialogTitle>
      <Stack component="form" onSubmit={submit} noValidate aria-label={title}>
        <DialogContent sx={{ pt: 1 }}>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            {error ? <Alert severity="error">{error}</Alert> : null}
            {group ? null : (
              <TextField
                label="Group name"
                value={groupName}
                onChange={(e) => {
                  setGroupName(e.target.value);
                  setNameError(null);
                }}
                error={Boolean(nameError)}
                helperText={withRule(nameError, NAME_RULES.fileGroup)}
                disabled={busy}
                required
                autoFocus
              />
            )}
            <TextField
              label="Description"
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              disabled={busy}
              multiline
              minRows={2}
            />
            <Button variant="outlined" component="label" disabled={busy}>
              Choose files
              <input hidden type="file" multiple accept={FILE_ACCEPT} onChange={pick} aria-label="Files" />
            </Button>
            <FileProgressList
              files={files}
              notes={notes}
              progress={progress}
              onRemove={(i) => {
                setFiles((current) => current.filter((_, j) => j !== i));
                setError(null);
              }}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {busy ? 'Uploading…' : group ? 'Save' : 'Upload'}
          </Button>
        </DialogActions>
      </Stack>
    </Dialog>
  );
}
