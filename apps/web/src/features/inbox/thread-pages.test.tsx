// @vitest-environment jsdom
import type { ChatMessage, HelpdeskConversation } from '@parley/contracts';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ThreadPane } from './components/ThreadPane';
import { refreshedThread, withEarlier } from './thread-pages';

/** A long WhatsApp thread: message `seq` says "message seq"; the welcome is seq 1. */
const message = (seq: number): ChatMessage => ({
  id: 1000 + seq,
  chat_id: 1000 + seq,
  conversation_id: 7,
  bot_id: 1,
  seq,
  message: seq === 1 ? 'Welcome to Boots' : `message ${seq}`,
  message_type: seq === 1 || seq % 2 ? 'bot' : 'user',
  message_source: 'whatsapp',
  sender_id: '1',
  recipient_id: '447700900000',
  user_id: null,
  timestamp: '2026-12-03T10:00:00.000Z',
  sources: [],
  qna_id: null,
  attachments: [],
  answer_mode: null,
  actions: [],
  handoff: null,
  usage: null,
});
const seqs = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const thread = (from: number, to: number, hasEarlier: boolean): HelpdeskConversation => ({
  id: 7,
  bot_id: 1,
  name: 'Ada',
  channel: 'whatsapp',
  user_id: null,
  visitor_id: null,
  is_helpdesk_in_control: false,
  admin_id: null,
  admin_name: null,
  handoff_state: 'bot',
  unread_count: 0,
  last_seq: to,
  last_message_at: '2026-12-03T10:00:00.000Z',
  created_at: '2026-01-03T10:00:00.000Z',
  messages: seqs(from, to).map(message),
  has_earlier: hasEarlier,
});

describe('thread pages', () => {
  it('puts an older page above the thread, once each, and takes its has_earlier', () => {
    const joined = withEarlier(thread(81, 130, true), {
      messages: thread(31, 81, true).messages,
      has_earlier: false,
    });
    expect(joined.messages.map((m) => m.seq)).toEqual(seqs(31, 130));
    expect(joined.has_earlier).toBe(false);
  });

  it('keeps the older messages on a refresh that meets them, and drops them across a gap', () => {
    const scrolled = thread(31, 130, true);
    const kept = refreshedThread(scrolled, thread(82, 131, true));
    expect(kept.messages.map((m) => m.seq)).toEqual(seqs(31, 131));
    expect(kept.has_earlier).toBe(true);
    // 80 messages arrived while away: 131..180 would not meet 31..130.
    const fresh = refreshedThread(scrolled, thread(181, 230, true));
    expect(fresh.messages.map((m) => m.seq)).toEqual(seqs(181, 230));
  });
});

describe('ThreadPane, paged', () => {
  let height = 0;
  let clientHeight = 0;
  const scrollIntoView = vi.fn();
  beforeEach(() => {
    height = 5000;
    clientHeight = 600;
    scrollIntoView.mockClear();
    Object.defineProperty(HTMLElement.prototype, 'scrollHeight', { configurable: true, get: () => height });
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
      configurable: true,
      get: () => clientHeight,
    });
    Element.prototype.scrollIntoView = scrollIntoView;
  });
  afterEach(() => {
    cleanup();
    Reflect.deleteProperty(HTMLElement.prototype, 'scrollHeight');
    Reflect.deleteProperty(HTMLElement.prototype, 'clientHeight');
    Reflect.deleteProperty(Element.prototype, 'scrollIntoView');
  });

  const show = (
    conversation: HelpdeskConversation,
    props: { loading?: boolean; onLoad?: () => void } = {},
  ) => (
    <MemoryRouter>
      <ThreadPane
        title="Ada"
        channel="whatsapp"
        conversation={conversation}
        loading={false}
        userId={5}
        brandColor="#1d4ed8"
        welcome="Hello!"
        frames={[]}
        conflict={null}
        controlBusy={false}
        replyBusy={false}
        onTakeOver={() => undefined}
        onHandBack={() => undefined}
        onReply={async () => true}
        onDelete={() => undefined}
        onLoadEarlier={props.onLoad}
        loadingEarlier={props.loading}
      />
    </MemoryRouter>
  );
  const scroller = () => screen.getByTestId('thread-scroll').firstElementChild as HTMLElement;

  it('opens on the newest page without the welcome on top, and loads older ones near the top only', () => {
    const onLoad = vi.fn();
    render(show(thread(81, 130, true), { onLoad }));
    expect(screen.queryByTestId('welcome-message')).toBeNull();
    expect(screen.getByRole('button', { name: 'Load earlier messages' })).toBeTruthy();
    expect(screen.getByText('message 130')).toBeTruthy();
    expect(screen.queryByText('message 80')).toBeNull();
    expect(onLoad).not.toHaveBeenCalled();

    scroller().scrollTop = 2000;
    fireEvent.scroll(scroller());
    expect(onLoad).not.toHaveBeenCalled();
    scroller().scrollTop = 40;
    fireEvent.scroll(scroller());
    expect(onLoad).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Load earlier messages' }));
    expect(onLoad).toHaveBeenCalledTimes(2);
  });

  it('says it is loading, asks nothing more meanwhile, and keeps the reader’s place when the page arrives', () => {
    const onLoad = vi.fn();
    const view = render(show(thread(81, 130, true), { onLoad, loading: true }));
    expect(screen.getByRole('status').textContent).toBe('Loading earlier messages…');
    scroller().scrollTop = 40;
    fireEvent.scroll(scroller());
    expect(onLoad).not.toHaveBeenCalled();
    scrollIntoView.mockClear();

    // 50 older messages make the list 3000 px taller: the same messages stay in view.
    height = 8000;
    view.rerender(show(thread(31, 130, true), { onLoad }));
    expect(scroller().scrollTop).toBe(3040);
    expect(scrollIntoView).not.toHaveBeenCalled();
    expect(screen.getByText('message 31')).toBeTruthy();

    // A live message at the bottom still brings the end into view.
    act(() => view.rerender(show(thread(31, 131, true), { onLoad })));
    expect(scrollIntoView).toHaveBeenCalled();
  });

  it('shows the welcome again once the start is loaded, and asks at once when the thread is too short to scroll', () => {
    const onLoad = vi.fn();
    const view = render(show(thread(1, 30, false), { onLoad }));
    expect(screen.getByTestId('welcome-message').textContent).toContain('Welcome to Boots');
    expect(screen.queryByTestId('thread-earlier')).toBeNull();
    expect(onLoad).not.toHaveBeenCalled();
    height = 500;
    view.rerender(show(thread(90, 95, true), { onLoad }));
    expect(onLoad).toHaveBeenCalled();
  });
});
