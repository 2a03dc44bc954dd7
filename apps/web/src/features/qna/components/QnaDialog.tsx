import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { CreateQnABody, MESSAGES, type QnA, type UnansweredGroup } from '@parley/contracts';
import { useState } from 'react';
import { serverDetail } from '../../../shared/api/errors';
import { TextInput } from '../../../shared/components/TextInput';
import { useNotify } from '../../../shared/hooks/useNotify';
import { fieldProps, useZodForm } from '../../../shared/lib/form';
import { useAnswerUnansweredMutation, useCreateQnaMutation, useUpdateQnaMutation } from '../api';
import { OtherWordings } from './OtherWordings';

/** The fields a person types: the rules of CreateQnABody (section 5 QnA), the bot comes from the page. */
const QnaFields = CreateQnABody.pick({ question: true, answer: true });

type Props = {
  botId: number;
  /** The pair being edited; absent when adding one. */
  pair?: QnA;
  /** A visitor's question the bot could not answer: answering it adds the pair and empties its group. */
  unanswered?: UnansweredGroup;
  /** A question to start a new pair from (one the bot could not answer in the playground). */
  question?: string;
  onClose: () => void;
};

/** Adds a Q&A pair to the bot, edits one, or answers a visitor's question; the pair trains on save. */
export function QnaDialog({ botId, pair, unanswered, question, onClose }: Props) {
  const notify = useNotify();
  const [create, createState] = useCreateQnaMutation();
  const [update, updateState] = useUpdateQnaMutation();
  const [answer, answerState] = useAnswerUnansweredMutation();
  const form = useZodForm(QnaFields, {
    defaultValues: {
      question: pair?.question ?? unanswered?.question ?? question ?? '',
      answer: pair?.answer ?? unanswered?.suggestion?.answer ?? '',
    },
  });
  const title = pair ? 'Edit Q&A' : unanswered ? "Answer a visitor's question" : 'Add Q&A';
  // What the bot quoted, not sure (often most of the answer, sometimes the wrong page), or the
  // model's answer not given (right, once the owner checks its figures, or not).
  const quote = unanswered?.bot_answer;
  const [wordings, setWordings] = useState(pair?.alternate_questions ?? []);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      if (unanswered) {
        await answer({ id: unanswered.id, botId, body: values }).unwrap();
        notify.success('Answer added as a Q&A pair');
      } else if (pair) {
        const changed = wordings.join('\n') !== pair.alternate_questions.join('\n');
        const body = changed ? { ...values, alternate_questions: wordings } : values;
        await update({ id: pair.id, botId, body }).unwrap();
        notify.success('Q&A updated');
      } else {
        await create({ bot_id: botId, ...values }).unwrap();
        notify.success('Q&A added');
      }
      onClose();
    } catch (error) {
      notify.error(serverDetail(error) ?? (pair ? MESSAGES.qna.updateFailed : MESSAGES.qna.createFailed));
    }
  });

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="qna-dialog-title">
      <DialogTitle id="qna-dialog-title">{title}</DialogTitle>
      <Stack component="form" onSubmit={onSubmit} noValidate aria-label={title}>
        <DialogContent sx={{ pt: 1 }}>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            <TextInput label="Question" autoFocus autoComplete="off" {...fieldProps(form, 'question')} />
            {unanswered && unanswered.examples.length > 0 ? (
              <Typography variant="body2" color="text.secondary" data-testid="answered-wordings">
                Visitors also asked it as: {unanswered.examples.map((text) => `“${text}”`).join(', ')}. The
                bot will answer their wordings with this answer too.
              </Typography>
            ) : null}
            <TextInput label="Answer" multiline minRows={4} {...fieldProps(form, 'answer')} />
            {quote ? (
              <Button
                size="small"
                sx={{ alignSelf: 'flex-start' }}
                onClick={() => form.setValue('answer', quote, { shouldDirty: true, shouldValidate: true })}
              >
                {unanswered?.unverified ? "Start from the model's answer" : "Start from the bot's quote"}
              </Button>
            ) : null}
            {pair ? <OtherWordings wordings={wordings} onChange={setWordings} /> : null}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            type="submit"
            variant="contained"
            disabled={createState.isLoading || updateState.isLoading || answerState.isLoading}
          >
            {pair ? 'Save' : 'Add'}
          </Button>
        </DialogActions>
      </Stack>
    </Dialog>
  );
}
