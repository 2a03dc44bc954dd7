import type { Ref } from 'preact';
import { useState } from 'preact/hooks';
import { useTexts } from '../texts';
import { SendIcon } from './icons';

type Props = {
  onSend: (text: string) => boolean;
  disabled: boolean;
  inputRef: Ref<HTMLTextAreaElement>;
};

/** The visitor's message box: Enter sends, Shift+Enter adds a line. */
export function Composer({ onSend, disabled, inputRef }: Props) {
  const t = useTexts();
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
        dir="auto"
        maxLength={4000}
        placeholder={t.placeholder}
        aria-label={t.messageLabel}
        value={text}
        onInput={(event) => setText((event.currentTarget as HTMLTextAreaElement).value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
            event.preventDefault();
            send();
          }
        }}
      />
      <button class="send" type="submit" aria-label={t.sendMessage} disabled={disabled || !text.trim()}>
        <SendIcon />
      </button>
    </form>
  );
}
