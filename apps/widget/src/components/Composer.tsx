import type { Ref } from 'preact';
import { useState } from 'preact/hooks';
import { SendIcon } from './icons';

type Props = {
  onSend: (text: string) => boolean;
  disabled: boolean;
  inputRef: Ref<HTMLTextAreaElement>;
};

/** The visitor's message box: Enter sends, Shift+Enter adds a line. */
export function Composer({ onSend, disabled, inputRef }: Props) {
  const [text, setText] = useState('');
  const send = () => {
    if (disabled || !text.trim()) return;
    if (onSend(text)) setText('');
  };
  return (
    <form
      class="composer"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <textarea
        ref={inputRef}
        rows={1}
        maxLength={4000}
        placeholder="Type your message…"
        aria-label="Message"
        value={text}
        onInput={(event) => setText((event.currentTarget as HTMLTextAreaElement).value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
            event.preventDefault();
            send();
          }
        }}
      />
      <button class="send" type="submit" aria-label="Send message" disabled={disabled || !text.trim()}>
        <SendIcon />
      </button>
    </form>
  );
}
