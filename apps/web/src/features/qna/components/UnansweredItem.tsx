import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import type { UnansweredGroup } from '@parley/contracts';
import { Link } from 'react-router';

/** What the person reading the queue may do with a question (their role's grants). */
export type QueueRights = { answer: boolean; change: boolean; readInbox: boolean };

type Props = {
  group: UnansweredGroup;
  rights: QueueRights;
  /** The bot has pairs: "Same as an existing answer" has something to offer. */
  hasPairs: boolean;
  /** Several questions wait: each can be selected for "Dismiss selected". */
  selectable: boolean;
  selected: boolean;
  busy: boolean;
  onSelect: (selected: boolean) => void;
  onAnswer: () => void;
  onLink: () => void;
  onDismiss: () => void;
};

/**
 * One question of the queue, in its visitors' wordings: how often it was asked, what the bot said
 * or an agent answered, and what the owner can do with it. The conversation it was last asked in
 * opens in the inbox, to read what the visitor wanted.
 */
export function UnansweredItem({ group, rights, hasPairs, selectable, selected, busy, ...on }: Props) {
  return (
    <ListItem
      divider
      data-testid="unanswered-question"
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', px: 0 }}
    >
      {selectable ? (
        <Checkbox
          size="small"
          checked={selected}
          onChange={(event) => on.onSelect(event.target.checked)}
          inputProps={{ 'aria-label': `Select ${group.question}` }}
          sx={{ p: 0.5 }}
        />
      ) : null}
      <Box sx={{ flex: '1 1 260px', minWidth: 0 }}>
        <Typography sx={{ fontWeight: 500 }}>{group.question}</Typography>
        <Typography variant="body2" color="text.secondary">
          Last asked {new Date(group.last_asked_at).toLocaleString()}
          {group.examples.length > 0 ? ` · also asked as: ${group.examples.join(' · ')}` : ''}
        </Typography>
        <Hints group={group} />
      </Box>
      <Chips group={group} />
      <Chip
        size="small"
        label={group.asked_count === 1 ? 'asked once' : `asked ${group.asked_count} times`}
      />
      {rights.readInbox && group.conversation_id !== null ? (
        <Button
          size="small"
          component={Link}
          to={`/inbox?conversation=${group.conversation_id}&bot=${group.bot_id}`}
          aria-label={`${group.question}: open the conversation`}
        >
          See conversation
        </Button>
      ) : null}
      {rights.answer ? (
        <Button size="small" variant="outlined" onClick={on.onAnswer}>
          {group.suggestion ? 'Review the answer' : 'Answer'}
        </Button>
      ) : null}
      {rights.change && hasPairs ? (
        <Button size="small" onClick={on.onLink} aria-label={`${group.question}: same as an existing answer`}>
          Same as an existing answer
        </Button>
      ) : null}
      {rights.change ? (
        <Button
          size="small"
          color="inherit"
          disabled={busy}
          onClick={on.onDismiss}
          aria-label={`Dismiss ${group.question}`}
        >
          Dismiss
        </Button>
      ) : null}
    </ListItem>
  );
}

/** What helps answer it: the pair it looks like, what the bot said, what an agent replied. */
function Hints({ group }: { group: UnansweredGroup }) {
  return (
    <>
      {/* A rated-down answer may have been that very pair's: it is no hint then. */}
      {group.likely_pair && !group.suggestion && !group.rated_unhelpful ? (
        <Typography variant="body2" sx={{ mt: 0.5 }} data-testid="likely-pair">
          Looks like “{group.likely_pair.question}”
        </Typography>
      ) : null}
      {group.bot_answer && !group.suggestion ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }} data-testid="bot-answer">
          <strong>{group.unverified ? 'The model answered, not given:' : 'The bot quoted, not sure:'}</strong>{' '}
          “{group.bot_answer}”
        </Typography>
      ) : null}
      {group.suggestion ? (
        <Typography variant="body2" sx={{ mt: 0.5 }} data-testid="suggested-answer">
          <strong>{group.suggestion.agent ?? 'An agent'} answered:</strong> {group.suggestion.answer}
        </Typography>
      ) : null}
    </>
  );
}

/** Why it is queued, beyond "the bot did not know". */
function Chips({ group }: { group: UnansweredGroup }) {
  return (
    <>
      {group.answered_unsure && !group.rated_unhelpful ? (
        <Chip
          size="small"
          color="info"
          variant="outlined"
          label="answered, not sure"
          title="The bot quoted sentences that hold only part of this question and said it was not sure: an answer of your own makes it sure."
        />
      ) : null}
      {group.answered_unsure && group.rated_helpful > 0 ? (
        <Chip
          size="small"
          color="success"
          variant="outlined"
          label={
            group.rated_helpful === 1
              ? 'a visitor found the quote helpful'
              : `${group.rated_helpful} visitors found the quote helpful`
          }
          title="Visitors rated the bot's not-sure quote up: it may be the answer. Start from the bot's quote to keep it as yours."
        />
      ) : null}
      {group.unverified ? (
        <Chip
          size="small"
          color="warning"
          variant="outlined"
          label={`not backed by the sources: ${group.unverified.join(', ')}`}
          title="The bot's language model answered with figures the sources do not hold, or give for something else, so its answer was not given. If they are right, start from the model's answer; an answer of your own gives the right figures."
        />
      ) : null}
      {group.rated_unhelpful ? (
        <Chip
          size="small"
          color="warning"
          variant="outlined"
          label="answer rated unhelpful"
          title="The bot answered, and the visitor rated the answer down: an answer of your own fixes it."
        />
      ) : null}
    </>
  );
}
