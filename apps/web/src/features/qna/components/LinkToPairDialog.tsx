import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { MESSAGES, type QnA, type UnansweredGroup } from '@parley/contracts';
import { useState } from 'react';
import { serverDetail } from '../../../shared/api/errors';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useLinkUnansweredMutation } from '../api';
import { truncate } from '../training';

type Props = { botId: number; group: UnansweredGroup; pairs: QnA[]; onClose: () => void };

/**
 * "Same as an existing answer": the visitor asked, in their own words, what a pair already answers.
 * Their wordings join the pair's other wordings, and the bot answers them with it from now on.
 */
export function LinkToPairDialog({ botId, group, pairs, onClose }: Props) {
  const notify = useNotify();
  // The pair the group's words come nearest, when the server found one, is offered first.
  const [chosen, setChosen] = useState<QnA | null>(
    pairs.find((pair) => pair.id === group.likely_pair?.id) ?? null,
  );
  const [link, linkState] = useLinkUnansweredMutation();

  const onAdd = async () => {
    if (!chosen) return;
    try {
      await link({ id: group.id, botId, body: { qna_id: chosen.id } }).unwrap();
      notify.success(`The bot now answers “${group.question}” with “${chosen.question}”`);
      onClose();
    } catch (error) {
      notify.error(serverDetail(error) ?? MESSAGES.qna.linkFailed);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="link-pair-title">
      <DialogTitle id="link-pair-title">Same as an existing answer</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          “{group.question}”{group.examples.length > 0 ? ` and ${group.examples.length} other wordings` : ''}{' '}
          will be answered with the pair you choose.
        </Typography>
        <Autocomplete
          options={pairs}
          value={chosen}
          onChange={(_event, pair) => setChosen(pair)}
          getOptionLabel={(pair) => pair.question}
          isOptionEqualToValue={(option, value) => option.id === value.id}
          renderInput={(params) => <TextField {...params} label="Q&A pair" autoFocus />}
        />
        {chosen ? (
          <Typography variant="body2" sx={{ mt: 2 }} data-testid="chosen-answer">
            <strong>Its answer:</strong> {truncate(chosen.answer)}
          </Typography>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" disabled={!chosen || linkState.isLoading} onClick={onAdd}>
          Add to this answer
        </Button>
      </DialogActions>
    </Dialog>
  );
}
