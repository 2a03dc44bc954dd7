import SendRounded from '@mui/icons-material/SendRounded';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import { type KeyboardEvent, useState } from 'react';
import { useChatTexts } from '../texts';

type Props = {
  /** Sends the text; false (or a promise of false) says it did not go, and the text comes back to the box. */
  onSend: (text: string) => unknown;
  /** While the bot is thinking (spec section 4 Chat send) or the connection is down. */
  disabled: boolean;
  placeholder?: string;
  maxLength?: number;
};

/**
 * The message box: Enter sends, Shift+Enter starts a new line. The box empties at once; a send that
 * fails (an agent's reply the server did not take) gives the text back, so nothing typed is lost.
 */
export function Composer({ onSend, disabled, placeholder = 'Ask a question…', maxLength = 4000 }: Props) {
  const t = useChatTexts();
  const [text, setText] = useState('');
  const canSend = !disabled && text.trim().length > 0;

  const send = () => {
    if (!canSend) return;
    const sent = text.trim();
    setText('');
    void Promise.resolve(onSend(sent)).then((went) => {
      if (went === false) setText((typed) => (typed.trim() ? typed : sent));
    });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    send();
  };

  return (
    <Box
      component="form"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
      sx={{ display: 'flex', gap: 1, alignItems: 'flex-end', p: 1.5, borderTop: 1, borderColor: 'divider' }}
    >
      <TextField
        fullWidth
        multiline
        maxRows={6}
        size="small"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        placeholder={placeholder}
        slotProps={{ htmlInput: { 'aria-label': t.messageLabel, maxLength } }}
      />
      <IconButton type="submit" color="primary" aria-label={t.send} disabled={!canSend}>
        <SendRounded />
      </IconButton>
    </Box>
  );
}
