import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { FileGroup } from '@parley/contracts';
import { type FormEvent, useState } from 'react';
import { useAppSelector } from '../../../app/store';
import { errorText } from '../../../shared/api/errors';
import { useNotify } from '../../../shared/hooks/useNotify';
import { FormDialog } from '../../roles/components/FormDialog';
import { useEditFileGroupMutation } from '../api';

type Props = { group: FileGroup; onClose: () => void };

/** Edit a group's description and tick files to remove. */
export function EditGroupDialog({ group, onClose }: Props) {
  const me = useAppSelector((state) => state.session.user);
  const notify = useNotify();
  const [edit, { isLoading }] = useEditFileGroupMutation();
  const [description, setDescription] = useState(group.description ?? '');
  const [removed, setRemoved] = useState<number[]>([]);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!me) return;
    const result = await edit({
      groupId: group.id,
      userId: me.id,
      body: { description, deleted_files: removed },
    });
    if ('error' in result) {
      setError(errorText(result.error, 'Failed to update the file group'));
      return;
    }
    notify.success('File group updated successfully');
    onClose();
  };

  return (
    <FormDialog
      open
      id="edit-group"
      title={`Edit ${group.group_name}`}
      error={error}
      busy={isLoading}
      submitLabel="Save"
      onSubmit={submit}
      onClose={onClose}
    >
      <TextField
        label="Description"
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        multiline
        minRows={2}
      />
      {group.files.length > 0 ? (
        <FormGroup aria-label="Files to remove">
          <Typography variant="subtitle2">Remove files</Typography>
          {group.files.map((file) => (
            <FormControlLabel
              key={file.id}
              label={file.filename}
              control={
                <Checkbox
                  checked={removed.includes(file.id)}
                  onChange={(e) =>
                    setRemoved((current) =>
                      e.target.checked ? [...current, file.id] : current.filter((id) => id !== file.id),
                    )
                  }
                />
              }
            />
          ))}
        </FormGroup>
      ) : null}
    </FormDialog>
  );
}
