// @vitest-environment jsdom
import type { ChatMessage } from '@parley/contracts';
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

const show = (props: { explainAnswers?: boolean; explainHeldBack?: boolean }) =>
  render(
    <MemoryRouter>
      <MessageList
        messages={[HELD_BACK]}
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
