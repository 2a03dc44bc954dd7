import HelpOutline from '@mui/icons-material/HelpOutline';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import type { HomeSummary } from '@parley/contracts';
import { Link } from 'react-router';
import { EmptyState } from './EmptyState';

type Questions = NonNullable<HomeSummary['questions']>;

const askedText = (count: number) => (count === 1 ? 'asked once' : `asked ${count} times`);

/**
 * What visitors keep asking that the bots did not know or were not sure of, most asked first: each
 * opens its bot's Q&A screen, where one answer teaches the bot (sent only to those who manage bots).
 */
export function HomeQuestions({ questions }: { questions: Questions }) {
  if (questions.total === 0) {
    return (
      <EmptyState
        icon={<HelpOutline />}
        title="No questions waiting"
        text="What visitors ask and your bots cannot answer shows up here, for you to answer once."
      />
    );
  }
  const more = questions.total - questions.items.length;
  return (
    <>
      <List dense aria-label="Questions to answer">
        {questions.items.map((item) => (
          <ListItemButton key={item.id} component={Link} to={`/bot/knowledge/qna?bot=${item.bot_id}`}>
            <ListItemText
              primary={item.question}
              secondary={`${item.bot_name} · ${askedText(item.asked_count)}`}
            />
          </ListItemButton>
        ))}
      </List>
      {more > 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ px: 2 }}>
          {more === 1 ? 'One more question waits' : `${more} more questions wait`} in the bots' Q&A screens.
        </Typography>
      ) : null}
    </>
  );
}
