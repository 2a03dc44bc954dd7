import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { ChatMessage } from '@parley/contracts';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';

/**
 * For the owner only (the playground): why an answer is what it is, when that is not the model's
 * own answer. Null when there is nothing to explain.
 */
export function AnswerNote({ message }: { message: Pick<ChatMessage, 'answer_mode' | 'unverified'> }) {
  if (message.unverified?.length) return <UnverifiedNote message={message} figures={message.unverified} />;
  if (message.answer_mode === 'extractive' || message.answer_mode === 'unsure')
    return (
      <Note testId="answer-mode-note">
        Extractive answer: sentences from the sources, because this bot has no language model (or it did not
        answer in time).{' '}
        <Link component={RouterLink} to="/bot/llm-settings">
          LLM settings
        </Link>
      </Note>
    );
  return null;
}

/** The model stated figures the sources do not hold, or give for something else: its answer was not given, and the owner sees which. */
function UnverifiedNote({
  message,
  figures,
}: {
  message: Pick<ChatMessage, 'answer_mode'>;
  figures: readonly string[];
}) {
  const said = figures.map((figure) => `“${figure}”`).join(', ');
  const instead =
    message.answer_mode === 'not_found'
      ? 'so the bot said it does not know instead'
      : "so the bot answered with the sources' own sentences instead";
  const one = figures.length === 1;
  return (
    <Note testId="unverified-note">
      The model's answer was not given: it said {said}, which the sources do not back (they do not hold{' '}
      {one ? 'it' : 'them'}, or give {one ? 'it' : 'them'} for something else), {instead}. If{' '}
      {one ? 'the figure is' : 'these figures are'} right, add {one ? 'it' : 'them'} to the sources or as a
      Q&A answer.
    </Note>
  );
}

function Note({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.75 }} data-testid={testId}>
      {children}
    </Typography>
  );
}
