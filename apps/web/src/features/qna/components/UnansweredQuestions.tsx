import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import type { UnansweredGroup } from '@parley/contracts';
import { useState } from 'react';
import { serverDetail } from '../../../shared/api/errors';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useDismissUnansweredMutation, useQnasQuery, useUnansweredQuery } from '../api';
import { LinkToPairDialog } from './LinkToPairDialog';

type Props = { botId: number; botName: string; onAnswer: (group: UnansweredGroup) => void };

/**
 * What visitors asked and the bot could not answer (or was not sure of), most asked first; rewordings of one question are
 * grouped. Answering a group once adds it as a Q&A pair, trained at once; what an agent replied to it in
 * a conversation they took over is offered as the answer to review. A question a pair already answers,
 * in other words, is added to that pair instead ("Same as an existing answer").
 */
export function UnansweredQuestions({ botId, botName, onAnswer }: Props) {
  const notify = useNotify();
  const groups = useUnansweredQuery(botId, { pollingInterval: 30_000 });
  const [dismiss, dismissState] = useDismissUnansweredMutation();
  const pairs = useQnasQuery(botId).data ?? [];
  const [linking, setLinking] = useState<UnansweredGroup | null>(null);
  const list = groups.data ?? [];

  const onDismiss = async (group: UnansweredGroup) => {
    try {
      await dismiss({ id: group.id, botId }).unwrap();
      notify.success('Question dismissed');
    } catch (error) {
      notify.error(serverDetail(error) ?? 'Failed to dismiss the question');
    }
  };

  return (
    <Box component="section" aria-label={`Unanswered questions of ${botName}`} sx={{ mb: 3 }}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        Unanswered questions
      </Typography>
      {groups.isError ? (
        <Typography color="error">
          {serverDetail(groups.error) ?? 'Failed to fetch unanswered questions'}
        </Typography>
      ) : null}
      {groups.isSuccess && list.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No unanswered questions. What visitors ask and the bot cannot answer, is not sure of, or answers in
          a way they rate down, appears here.
        </Typography>
      ) : null}
      <List dense disablePadding>
        {list.map((group) => (
          <ListItem
            key={group.id}
            divider
            data-testid="unanswered-question"
            sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', px: 0 }}
          >
            <Box sx={{ flex: '1 1 260px', minWidth: 0 }}>
              <Typography sx={{ fontWeight: 500 }}>{group.question}</Typography>
              <Typography variant="body2" color="text.secondary">
                Last asked {new Date(group.last_asked_at).toLocaleString()}
                {group.examples.length > 0 ? ` · also asked as: ${group.examples.join(' · ')}` : ''}
              </Typography>
              {/* A rated-down answer may have been that very pair's: it is no hint then. */}
              {group.likely_pair && !group.suggestion && !group.rated_unhelpful ? (
                <Typography variant="body2" sx={{ mt: 0.5 }} data-testid="likely-pair">
                  Looks like “{group.likely_pair.question}”
                </Typography>
              ) : null}
              {group.bot_answer && !group.suggestion ? (
                <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }} data-testid="bot-answer">
                  <strong>
                    {group.unverified ? 'The model answered, not given:' : 'The bot quoted, not sure:'}
                  </strong>{' '}
                  “{group.bot_answer}”
                </Typography>
              ) : null}
              {group.suggestion ? (
                <Typography variant="body2" sx={{ mt: 0.5 }} data-testid="suggested-answer">
                  <strong>{group.suggestion.agent ?? 'An agent'} answered:</strong> {group.suggestion.answer}
                </Typography>
              ) : null}
            </Box>
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
            <Chip
              size="small"
              label={group.asked_count === 1 ? 'asked once' : `asked ${group.asked_count} times`}
            />
            <Button size="small" variant="outlined" onClick={() => onAnswer(group)}>
              {group.suggestion ? 'Review the answer' : 'Answer'}
            </Button>
            {pairs.length > 0 ? (
              <Button
                size="small"
                onClick={() => setLinking(group)}
                aria-label={`${group.question}: same as an existing answer`}
              >
                Same as an existing answer
              </Button>
            ) : null}
            <Button
              size="small"
              color="inherit"
              disabled={dismissState.isLoading}
              onClick={() => onDismiss(group)}
              aria-label={`Dismiss ${group.question}`}
            >
              Dismiss
            </Button>
          </ListItem>
        ))}
      </List>
      {linking ? (
        <LinkToPairDialog botId={botId} group={linking} pairs={pairs} onClose={() => setLinking(null)} />
      ) : null}
    </Box>
  );
}
