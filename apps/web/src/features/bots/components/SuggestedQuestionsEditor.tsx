import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { TextInput } from '../../../shared/components/TextInput';

export const MAX_SUGGESTED_QUESTIONS = 10;

type Props = { value: string[]; onChange: (next: string[]) => void; error?: string };

/** The questions offered as buttons when a chat opens (at most 10). */
export function SuggestedQuestionsEditor({ value, onChange, error }: Props) {
  const set = (index: number, text: string) => onChange(value.map((q, i) => (i === index ? text : q)));
  const remove = (index: number) => onChange(value.filter((_q, i) => i !== index));
  return (
    <Stack spacing={1.5} component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
      <Typography component="legend" variant="subtitle1" fontWeight={600} sx={{ mb: 1 }}>
        Suggested questions
      </Typography>
      {value.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No suggested questions.
        </Typography>
      ) : null}
      {value.map((question, index) => (
        // Questions have no id of their own; their place in the list is their identity while editing.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above.
        <Stack key={index} direction="row" spacing={1} alignItems="center">
          <TextInput
            id={`suggested-question-${index}`}
            label={`Suggested question ${index + 1}`}
            value={question}
            onChange={(event) => set(index, event.target.value)}
          />
          <IconButton aria-label={`Remove suggested question ${index + 1}`} onClick={() => remove(index)}>
            ×
          </IconButton>
        </Stack>
      ))}
      {error ? (
        <Typography variant="caption" color="error" role="alert">
          {error}
        </Typography>
      ) : null}
      <div>
        <Button
          size="small"
          onClick={() => onChange([...value, ''])}
          disabled={value.length >= MAX_SUGGESTED_QUESTIONS}
        >
          Add question
        </Button>
        <Typography variant="caption" color="text.secondary" sx={{ ml: 1 }}>
          {value.length}/{MAX_SUGGESTED_QUESTIONS}
        </Typography>
      </div>
    </Stack>
  );
}
