import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { QnA } from '@parley/contracts';
import { truncate } from '../training';

type Props = {
  botName: string;
  pairs: QnA[];
  onEdit: (pair: QnA) => void;
  onDelete: (pair: QnA) => void;
};

/** A pair trains when saved: trained, training (queued or running), or not trained (its training failed). */
function PairState({ pair }: { pair: QnA }) {
  if (pair.trained) return <Chip size="small" color="success" label="Trained" />;
  if (pair.training)
    return (
      <Chip
        size="small"
        color="info"
        variant="outlined"
        icon={<CircularProgress size={12} aria-hidden />}
        label="Training…"
      />
    );
  return <Chip size="small" label="Not trained" />;
}

/** A bot's pairs: question and its other wordings, answer (shortened), training state, and the characters trained. */
export function QnaTable({ botName, pairs, onEdit, onDelete }: Props) {
  return (
    <TableContainer>
      <Table size="small" aria-label={`Q&A pairs of ${botName}`}>
        <TableHead>
          <TableRow>
            <TableCell>Question</TableCell>
            <TableCell>Answer</TableCell>
            <TableCell>Status</TableCell>
            <TableCell align="right">Characters</TableCell>
            <TableCell align="right">Actions</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {pairs.map((pair) => (
            <TableRow key={pair.id}>
              <TableCell sx={{ maxWidth: 280 }}>
                <Typography variant="body2" sx={{ fontWeight: 500 }}>
                  {pair.question}
                </Typography>
                {pair.alternate_questions.length > 0 ? (
                  <Typography
                    variant="caption"
                    color="text.secondary"
                    title={pair.alternate_questions.join('\n')}
                    data-testid="other-wordings"
                  >
                    Also asked as: {truncate(pair.alternate_questions.join(' · '))}
                  </Typography>
                ) : null}
              </TableCell>
              <TableCell sx={{ color: 'text.secondary' }} title={pair.answer}>
                {truncate(pair.answer)}
              </TableCell>
              <TableCell>
                <PairState pair={pair} />
              </TableCell>
              <TableCell align="right">{pair.character_count?.toLocaleString() ?? '—'}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                <IconButton size="small" aria-label={`Edit ${pair.question}`} onClick={() => onEdit(pair)}>
                  <EditOutlined fontSize="small" />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={`Delete ${pair.question}`}
                  onClick={() => onDelete(pair)}
                >
                  <DeleteOutline fontSize="small" />
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
