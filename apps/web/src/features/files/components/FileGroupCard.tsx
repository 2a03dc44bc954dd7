import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { FileGroup, FileItem } from '@parley/contracts';
import { formatBytes } from '../format';
import { replacing } from '../names';

type Props = {
  group: FileGroup;
  onAddFiles: () => void;
  onEdit: () => void;
  onDelete: () => void;
  onDeleteFile: (file: FileItem) => void;
  /** Reads a failed file again. */
  onRetry?: (file: FileItem) => void;
  /** Moves a file to another group; absent when there is no other group. */
  onMove?: (file: FileItem) => void;
};

function StatusChip({ file }: { file: FileItem }) {
  if (file.status === 'trained') return <Chip size="small" color="success" label="Trained" />;
  if (file.status === 'failed') return <Chip size="small" color="error" label="Failed" />;
  return <Chip size="small" color="warning" label="Training" />;
}

/** Under a file in training that takes the place of an older one of its name. */
function ReplacesNote({ file, group }: { file: FileItem; group: FileGroup }) {
  const older = replacing(file, group);
  if (!older) return null;
  return (
    <Typography variant="caption" color="text.secondary" component="p">
      Replaces the {older.filename} above once trained
    </Typography>
  );
}

/** One group: its files with size, characters and trained state, and its actions. */
export function FileGroupCard({ group, onAddFiles, onEdit, onDelete, onDeleteFile, onRetry, onMove }: Props) {
  return (
    <Card variant="outlined" component="section" aria-label={`File group ${group.group_name}`}>
      <CardContent>
        <Typography variant="h6" component="h2">
          {group.group_name}
        </Typography>
        {group.description ? (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {group.description}
          </Typography>
        ) : null}
        <Table size="small" aria-label={`Files of ${group.group_name}`}>
          <TableHead>
            <TableRow>
              <TableCell>File</TableCell>
              <TableCell align="right">Size</TableCell>
              <TableCell align="right">Characters</TableCell>
              <TableCell>Status</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {group.files.map((file) => (
              <TableRow key={file.id}>
                <TableCell>
                  {file.filename}
                  {/* Why it failed, where the owner looks: what to do is in the reason ("save a copy without the password"). */}
                  {file.status === 'failed' && file.error ? (
                    <Typography variant="caption" color="error" component="p" data-testid="file-error">
                      {file.error}
                    </Typography>
                  ) : null}
                  <ReplacesNote file={file} group={group} />
                </TableCell>
                <TableCell align="right">{formatBytes(file.size)}</TableCell>
                <TableCell align="right">{file.character_count?.toLocaleString() ?? '—'}</TableCell>
                <TableCell>
                  <StatusChip file={file} />
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {file.status === 'failed' && onRetry ? (
                    <Button size="small" onClick={() => onRetry(file)} aria-label={`Retry ${file.filename}`}>
                      Retry
                    </Button>
                  ) : null}
                  {file.status !== 'pending' && onMove ? (
                    <Button size="small" onClick={() => onMove(file)} aria-label={`Move ${file.filename}`}>
                      Move
                    </Button>
                  ) : null}
                  <IconButton
                    size="small"
                    aria-label={`Delete ${file.filename}`}
                    onClick={() => onDeleteFile(file)}
                  >
                    ×
                  </IconButton>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </CardContent>
      <CardActions>
        <Button size="small" onClick={onAddFiles}>
          Add files
        </Button>
        <Button size="small" onClick={onEdit}>
          Edit
        </Button>
        <Button size="small" color="error" onClick={onDelete}>
          Delete
        </Button>
      </CardActions>
    </Card>
  );
}
