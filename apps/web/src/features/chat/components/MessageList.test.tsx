// @vitest-environment jsdom
import { type ChatMessage, HELPDESK_TEXTS } from '@parley/contracts';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { MessageList } from './MessageList';

/** An answer given instead of the model's, which stated a price no source holds. */
const HELD_BACK: ChatMessage = {
  id: 2,
  chat_id: 2,
  conversation_id: 1,
  bot_id: 1,
  seq: 2,
  message: 'Delivery costs $6, and is free on orders over $50.',
  message_type: 'bot',
  message_source: 'bot',
  sender_id: '1',
  recipient_id: 'visitor',
  user_id: null,
  timestamp: '2026-12-03T10:00:00.000Z',
  sources: [],
  qna_id: null,
  attachments: [],
  answer_mode: 'extractive',
  actions: [],
  handoff: null,
  unverified: ['$17'],
  usage: null,
};

const show = (props: { explainAnswers?: boolean; explainHeldBack?: boolean }, messages = [HELD_BACK]) =>
  render(
    <MemoryRouter>
      <MessageList
        messages={messages}
        welcome="Hello!"
        brandColor="#1d4ed8"
        draft={null}
        thinking={false}
        frames={[]}
        {...props}
      />
    </MemoryRouter>,
  );

afterEach(cleanup);

describe("the note on a model's answer held back", () => {
  it('tells the owner in the playground and an agent in the inbox which figure no source holds', () => {
    show({ explainAnswers: true });
    expect(screen.getByTestId('unverified-note').textContent).toContain(
      'it said “$17”, which the sources do not back (they do not hold it, or give it for something else)',
    );
    cleanup();
    show({ explainHeldBack: true });
    expect(screen.getByTestId('unverified-note').textContent).toContain('“$17”');
  });

  it('never shows the visitor', () => {
    show({});
    expect(screen.queryByTestId('unverified-note')).toBeNull();
    expect(screen.getByText('Delivery costs $6, and is free on orders over $50.')).toBeTruthy();
  });
});

describe("a channel user's edited and unsent messages", () => {
  const question = (extra: Partial<ChatMessage>): ChatMessage => ({
    ...HELD_BACK,
    id: 3,
    chat_id: 3,
    seq: 3,
    message_type: 'user',
    message_source: 'instagram',
    answer_mode: null,
    unverified: undefined,
    ...extra,
  });

  it('marks an edited message, and shows an unsent one as gone', () => {
    show({}, [
      question({ message: 'Express to Canada?', edited: { count: 1, at: '2026-12-04T10:00:00.000Z' } }),
      question({ id: 4, chat_id: 4, seq: 4, message: '', unsent_at: '2026-12-04T10:01:00.000Z' }),
      question({ id: 5, chat_id: 5, seq: 5, message: 'Thanks' }),
    ]);
    const [edited, unsent, plain] = screen.getAllByTestId('user-message');
    expect(edited!.textContent).toContain(`Express to Canada? (${HELPDESK_TEXTS.edited})`);
    expect(unsent!.textContent).toContain(HELPDESK_TEXTS.unsent);
    expect(plain!.textContent).not.toContain(HELPDESK_TEXTS.edited);
  });
});
