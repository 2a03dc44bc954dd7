import Box from '@mui/material/Box';
import type { ReactNode } from 'react';
import { Composer } from './Composer';
import { MessageList, type MessageListProps } from './MessageList';

type Props = MessageListProps & {
  onSend: (text: string) => void;
  /** No sending: the bot is thinking or the connection is down. */
  sendDisabled: boolean;
  /** Between the messages and the composer (a connection line, say). */
  footer?: ReactNode;
};

/** Messages above, the composer below; fills its parent's height. */
export function ChatPanel({ onSend, sendDisabled, footer, ...list }: Props) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 }}>
      <MessageList {...list} />
      {footer}
      <Composer onSend={onSend} disabled={sendDisabled} />
    </Box>
  );
}
