import { citationTitle, citesByNumber, linkCitations, rateable, safeUrl } from '@parley/chat-client';
import type { MarkdownOptions } from '@parley/chat-client/markdown';
import { type BookingAction, type ChatMessage, fillText, type MessageSourceRef } from '@parley/contracts';
import { useEffect, useState } from 'preact/hooks';
import { syncedText, useTexts } from '../texts';
import { CalendarIcon, ThumbIcon } from './icons';
import { Markdown } from './Markdown';

function sourceKey(source: MessageSourceRef): string {
  return [source.source_type, source.page_url, source.page_title, source.page_number].join('|');
}

/**
 * Where an answer came from: page and section, linked when they have a web address, page numbers,
 * Q&A, and how fresh each source is; numbered when the answer cites them as [n].
 */
export function Sources({ sources, numbered }: { sources: readonly MessageSourceRef[]; numbered: boolean }) {
  const t = useTexts();
  const unique = new Map(sources.map((source) => [sourceKey(source), source]));
  if (unique.size === 0) return null;
  const List = numbered ? 'ol' : 'ul';
  return (
    <div class="sources" data-testid="message-sources">
      <span class="sources-title">{t.sources}</span>
      <List>
        {[...unique.entries()].map(([key, source]) => {
          const url = source.page_url ? safeUrl(source.page_url) : '';
          const title = citationTitle(source);
          const synced = syncedText(t, source.synced_at);
          return (
            <li key={key}>
              {url && !url.startsWith('mailto:') ? (
                <a href={url} target="_blank" rel="noopener noreferrer nofollow">
                  {title}
                </a>
              ) : (
                title
              )}
              {source.page_number !== null ? `, ${fillText(t.page, { n: source.page_number })}` : null}
              {synced ? <span class="synced"> · {synced}</span> : null}
              {source.source_type === 'qna' ? (
                <span class="tag" title={t.qnaTitle}>
                  {t.qna}
                </span>
              ) : null}
            </li>
          );
        })}
      </List>
    </div>
  );
}

/** A booking action as a button to the booking page (opens in a new tab). */
export function BookingButton({
  action,
  onClick,
}: {
  action: Pick<BookingAction, 'title' | 'url'>;
  /** Reports the click to the bot's analytics. */
  onClick?: () => void;
}) {
  const t = useTexts();
  const url = safeUrl(action.url);
  if (!url || url.startsWith('mailto:')) return null;
  return (
    <a class="btn" href={url} target="_blank" rel="noopener noreferrer nofollow" onClick={onClick}>
      <CalendarIcon />
      {action.title || t.bookTime}
    </a>
  );
}

export type Rate = (
  messageId: number,
  rating: 'up' | 'down' | null,
) => Promise<'up' | 'down' | null | undefined>;

/**
 * Thumbs up and down under a bot answer; the chosen one pressed again takes the rating back. It
 * starts from the rating the history brought (`saved`, the visitor's own), so a reload shows it.
 */
function RateAnswer({
  messageId,
  saved: savedRating,
  onRate,
  onRequestHuman,
}: {
  messageId: number;
  saved: ChatMessage['rating'];
  onRate: Rate;
  /** Offered once the answer is rated down (absent: a person cannot be asked for now). */
  onRequestHuman?: () => void;
}) {
  const t = useTexts();
  const [rating, setRating] = useState<'up' | 'down' | null>(savedRating ?? null);
  // The history's copy of the message can arrive after a live copy that knew no rating.
  useEffect(() => {
    if (savedRating !== undefined) setRating(savedRating);
  }, [savedRating]);
  const [busy, setBusy] = useState(false);
  const choose = async (next: 'up' | 'down') => {
    setBusy(true);
    const saved = await onRate(messageId, rating === next ? null : next);
    setBusy(false);
    if (saved !== undefined) setRating(saved);
  };
  return (
    <>
      <div class="rate" data-testid="rate-answer">
        <button
          type="button"
          class={`rate-btn${rating === 'up' ? ' on' : ''}`}
          aria-label={t.goodAnswer}
          aria-pressed={rating === 'up'}
          disabled={busy}
          onClick={() => choose('up')}
        >
          <ThumbIcon />
        </button>
        <button
          type="button"
          class={`rate-btn down${rating === 'down' ? ' on' : ''}`}
          aria-label={t.badAnswer}
          aria-pressed={rating === 'down'}
          disabled={busy}
          onClick={() => choose('down')}
        >
          <ThumbIcon />
        </button>
      </div>
      {rating === 'down' && onRequestHuman ? (
        <div class="rate-offer" data-testid="bad-answer-offer">
          <span>{t.badAnswerOffer}</span>
          <button class="btn" type="button" onClick={onRequestHuman}>
            {t.person}
          </button>
        </div>
      ) : null}
    </>
  );
}

/**
 * One stored message: the visitor's on the right, the bot's (Markdown, sources, booking, an offer of
 * a person) and agents' on the left, hand-off notices centred between them.
 */
export function Message({
  message,
  markdown,
  onRequestHuman,
  onRate,
  onBookingClick,
}: {
  message: ChatMessage;
  markdown: MarkdownOptions;
  /** Thumbs under the bot's answers (absent: not offered). */
  onRate?: Rate;
  onBookingClick?: () => void;
  /** Shown as "Talk to a person" under an answer that offers one; absent: not offered now. */
  onRequestHuman?: () => void;
}) {
  const t = useTexts();
  if (message.message_type === 'system') {
    return (
      <li class="frame notice" role="status" data-testid="system-message">
        {message.message}
      </li>
    );
  }
  if (message.message_type === 'user') {
    return (
      <li class="row mine" data-testid="user-message">
        <div class="bubble" dir="auto">
          {message.message}
        </div>
      </li>
    );
  }
  const agent = message.message_type === 'helpdesk';
  const bookings = message.actions.filter((action) => action.type === 'booking');
  const person = onRequestHuman ? message.actions.find((action) => action.type === 'human') : undefined;
  return (
    <li
      class="row"
      data-testid={agent ? 'agent-message' : 'bot-message'}
      data-answer-mode={message.answer_mode}
    >
      {agent ? <span class="label">{t.agent}</span> : null}
      <div class="bubble">
        <Markdown
          text={agent ? message.message : linkCitations(message.message, message.sources)}
          options={markdown}
        />
        {agent ? null : <Sources sources={message.sources} numbered={citesByNumber(message.message)} />}
        {bookings.length || person ? (
          <div class="actions">
            {bookings.map((action) => (
              <BookingButton key={action.url} action={action} onClick={onBookingClick} />
            ))}
            {person ? (
              <button class="btn" type="button" onClick={onRequestHuman}>
                {person.title}
              </button>
            ) : null}
          </div>
        ) : null}
        {!agent && onRate && rateable(message) ? (
          <RateAnswer
            messageId={message.id}
            saved={message.rating}
            onRate={onRate}
            // An answer that already offers a person keeps its own button.
            onRequestHuman={person ? undefined : onRequestHuman}
          />
        ) : null}
      </div>
    </li>
  );
}
