import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import { useChatTexts } from '../texts';

type Props = { questions: readonly string[]; onPick: (question: string) => void; disabled?: boolean };

/** The bot's suggested questions as chips; picking one sends it. */
export function SuggestedQuestions({ questions, onPick, disabled = false }: Props) {
  const t = useChatTexts();
  if (questions.length === 0) return null;
  return (
    <Stack
      direction="row"
      useFlexGap
      flexWrap="wrap"
      spacing={1}
      role="group"
      aria-label={t.suggestedQuestions}
    >
      {questions.map((question) => (
        <Chip
          key={question}
          label={question}
          variant="outlined"
          clickable
          disabled={disabled}
          onClick={() => onPick(question)}
        />
      ))}
    </Stack>
  );
}
