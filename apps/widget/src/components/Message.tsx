import { safeUrl } from '@parley/chat-client';
import type { MarkdownOptions } from '@parley/chat-client/markdown';
import type { BookingAction, ChatMessage, MessageSourceRef } from '@parley/contracts';
import { CalendarIcon } from './icons';
import { Markdown } from './Markdown';

function sourceKey(source: MessageSourceRef): string {
  return [source.source_type, source.page_url, source.page_title, source.page_number].join('|');
}

/** Where an answer came from: page titles linked when they have a web address, page numbers, Q&A. */
export function Sources({ sources }: { sources: readonly MessageSourceRef[] }) {
  const unique = new Map(sources.map((source) => [sourceKey(source), source]));
  if (unique.size === 0) return null;
  return (
    <div class="sources" data-testid="message-sources">
      <span class="sources-title">Sources</span>
      <ul>
        {[...unique.entries()].map(([key, source]) => {
          const url = source.page_url ? safeUrl(source.page_url) : '';
          const title = source.page_title || source.page_url || source.source_type;
          return (
            <li key={key}>
              {url && !url.startsWith('mailto:') ? (
                <a href={url} target="_blank" rel="noopener noreferrer nofollow">
                  {title}
                </a>
              ) : (
                title
              )}
              {source.page_number !== null ? `, p. ${source.page_number}` : null}
              {source.source_type === 'qna' ? (
                <span class="tag" title="Answered from Q&A">
                  Q&amp;A
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** A booking action as a button to the booking page (opens in a new tab). */
export function BookingButton({ action }: { action: Pick<BookingAction, 'title' | 'url'> }) {
  const url = safeUrl(action.url);
  if (!url || url.startsWith('mailto:')) return null;
  return (
    <a class="btn" href={url} target="_blank" rel="noopener noreferrer nofollow">
      <CalendarIcon />
      {action.title || 'Book a time'}
    </a>
  );
}

/** One stored message: the visitor's on the right, the bot's (Markdown, sources, booking) and agents' on the left. */
export function Message({ message, markdown }: { message: ChatMessage; markdown: MarkdownOptions }) {
  if (message.message_type === 'user') {
    return (
      <li class="row mine" data-testid="user-message">
        <div class="bubble">{message.message}</div>
      </li>
    );
  }
  const agent = message.message_type === 'helpdesk';
  const bookings = message.actions.filter((action) => action.type === 'booking');
  return (
    <li
      class="row"
      data-testid={agent ? 'agent-message' : 'bot-message'}
      data-answer-mode={message.answer_mode}
    >
      {agent ? <span class="label">Agent</span> : null}
      <div class="bubble">
        <Markdown text={message.message} options={markdown} />
        {agent ? null : <Sources sources={message.sources} />}
        {bookings.length ? (
          <div class="actions">
            {bookings.map((action) => (
              <BookingButton key={action.url} action={action} />
            ))}
          </div>
        ) : null}
      </div>
    </li>
  );
}
