import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { mayAskForPerson } from '@parley/chat-client';
import type { HumanButtonMode } from '@parley/contracts';
import type { ReactNode } from 'react';
import { useChatTexts } from '../texts';
import { Composer } from './Composer';
import { MessageList, type MessageListProps } from './MessageList';

type Props = MessageListProps & {
  onSend: (text: string) => void;
  /** When "Talk to a person" shows: always (under the messages too), after a miss, or never. */
  humanButton?: HumanButtonMode;
  /** No sending: the bot is thinking or the connection is down. */
  sendDisabled: boolean;
  /** Between the messages and the composer (a connection line, say). */
  footer?: ReactNode;
  /** The composer's hint (the console's "Ask a question…" unless given). */
  placeholder?: string;
};

/** Messages above, the composer below; fills its parent's height. */
export function ChatPanel({
  onSend,
  sendDisabled,
  footer,
  placeholder,
  humanButton = 'never',
  onRequestHuman,
  ...list
}: Props) {
  const t = useChatTexts();
  const ask = onRequestHuman && mayAskForPerson(humanButton, list.messages) ? onRequestHuman : undefined;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 }}>
      <MessageList {...list} onRequestHuman={ask} />
      {ask && humanButton === 'always' ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', pt: 1 }}>
          <Button size="small" variant="outlined" onClick={ask}>
            {t.person}
          </Button>
        </Box>
      ) : null}
      {footer}
      <Composer onSend={onSend} disabled={sendDisabled} placeholder={placeholder} />
    </Box>
  );
}
