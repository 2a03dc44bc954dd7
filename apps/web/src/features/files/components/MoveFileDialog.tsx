import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { FileGroup, FileItem } from '@parley/contracts';
import { type FormEvent, useState } from 'react';
import { errorText } from '../../../shared/api/errors';
import { useNotify } from '../../../shared/hooks/useNotify';
import { FormDialog } from '../../roles/components/FormDialog';
import { useMoveFileMutation } from '../api';

type Props = { file: FileItem; from: FileGroup; groups: FileGroup[]; onClose: () => void };

/** Moves a file to another group: the bots of that group learn it, those of this one stop using it. */
export function MoveFileDialog({ file, from, groups, onClose }: Props) {
  const notify = useNotify();
  const [move, { isLoading }] = useMoveFileMutation();
  const others = groups.filter((group) => group.id !== from.id);
  const [target, setTarget] = useState<number | ''>(others[0]?.id ?? '');
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (target === '') return;
    const result = await move({ fileId: file.id, body: { group_id: target } });
    if ('error' in result) {
      setError(errorText(result.error, `${file.filename} could not be moved`));
      return;
    }
    notify.success(result.data.message);
    onClose();
  };

  return (
    <FormDialog
      open
      id="move-file"
      title={`Move ${file.filename}`}
      error={error}
      busy={isLoading}
      submitLabel="Move"
      onSubmit={submit}
      onClose={onClose}
    >
      <TextField
        select
        label="To the group"
        value={target}
        onChange={(e) => {
          setTarget(Number(e.target.value));
          setError(null);
        }}
      >
        {others.map((group) => (
          <MenuItem key={group.id} value={group.id}>
            {group.group_name}
          </MenuItem>
        ))}
      </TextField>
      <Typography variant="body2" color="text.secondary">
        It is read again in its new group: the bots of {from.group_name} answer from it until the bots of the
        new group do.
      </Typography>
    </FormDialog>
  );
}
