// @vitest-environment jsdom
import { createMongoAbility } from '@casl/ability';
import type { AppAbility, UnansweredGroup } from '@parley/contracts';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../../app/store';
import { BrowserRequest, json } from '../../../test/api-stubs';
import { AbilityContext } from '../../permissions/ability';
import { UnansweredQuestions } from './UnansweredQuestions';

const group = (id: number, question: string, asked: number): UnansweredGroup => ({
  id,
  bot_id: 4,
  question,
  asked_count: asked,
  first_asked_at: '2026-11-01T10:00:00.000Z',
  last_asked_at: '2026-11-02T10:00:00.000Z',
  examples: [],
  suggestion: null,
  likely_pair: null,
  rated_unhelpful: false,
  answered_unsure: false,
  bot_answer: null,
  unverified: null,
  rated_helpful: 0,
  conversation_id: 30 + id,
});
const HOVE = group(1, 'Do you deliver to Hove?', 3);
const SPAM = group(2, 'asdf qwer', 1);

/** The API as the queue reads it; each write is recorded as "METHOD path body". */
function serve(groups: UnansweredGroup[], total = groups.length) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      const url = new URL(request.url);
      if (request.method !== 'GET') calls.push(`${request.method} ${url.pathname} ${await request.text()}`);
      if (url.pathname === '/api/unanswered/bot/4') {
        const reply = json(groups);
        reply.headers.set('x-total-count', String(total));
        return reply;
      }
      if (url.pathname === '/api/qna/') return json([]);
      if (url.pathname.endsWith('/restore')) return json({ message: 'Question restored' });
      return json({ message: 'Question dismissed' });
    }),
  );
  return calls;
}

function show(grants: Array<{ action: string; subject: string }>) {
  render(
    <Provider store={makeStore()}>
      <MemoryRouter>
        <AbilityContext.Provider value={createMongoAbility<AppAbility>(grants as never)}>
          <UnansweredQuestions botId={4} botName="Bakery" onAnswer={() => {}} />
        </AbilityContext.Provider>
      </MemoryRouter>
    </Provider>,
  );
}
const OWNER = [
  { action: 'read', subject: 'Create Bot' },
  { action: 'create', subject: 'Create Bot' },
  { action: 'write', subject: 'Create Bot' },
  { action: 'read', subject: 'Inbox' },
];

beforeEach(() => vi.stubGlobal('Request', BrowserRequest));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the unanswered queue', () => {
  it('undoes a dismissal the owner regrets', async () => {
    const calls = serve([HOVE, SPAM]);
    show(OWNER);
    fireEvent.click(await screen.findByRole('button', { name: 'Dismiss Do you deliver to Hove?' }));
    const undo = await screen.findByRole('alert');
    expect(undo.textContent).toContain('Dismissed “Do you deliver to Hove?”.');
    fireEvent.click(within(undo).getByRole('button', { name: 'Undo' }));
    await waitFor(() =>
      expect(calls).toEqual(['DELETE /api/unanswered/1 ', 'POST /api/unanswered/restore {"ids":[1]}']),
    );
    await waitFor(() => expect(screen.queryByText('Dismissed “Do you deliver to Hove?”.')).toBeNull());
  });

  it('dismisses the questions selected at once, and can bring them all back', async () => {
    const calls = serve([HOVE, SPAM]);
    show(OWNER);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select all on this page' }));
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss selected (2)' }));
    const undo = await screen.findByRole('alert');
    expect(undo.textContent).toContain('2 questions dismissed.');
    fireEvent.click(within(undo).getByRole('button', { name: 'Undo' }));
    await waitFor(() =>
      expect(calls).toEqual([
        'POST /api/unanswered/dismiss {"ids":[1,2]}',
        'POST /api/unanswered/restore {"ids":[1,2]}',
      ]),
    );
  });

  it('says how many wait when more are open than listed, and opens the conversation a question was asked in', async () => {
    serve([HOVE, SPAM], 250);
    show(OWNER);
    await screen.findByRole('heading', { name: 'Unanswered questions (250)' });
    screen.getByText('The 2 most asked of 250 are listed; answer or dismiss some to see the others.');
    const open = screen.getByRole('link', { name: 'Do you deliver to Hove?: open the conversation' });
    expect(open.getAttribute('href')).toBe('/inbox?conversation=31&bot=4');
  });

  it('offers a reader only what their role allows', async () => {
    serve([HOVE, SPAM]);
    show([{ action: 'read', subject: 'Create Bot' }]);
    await screen.findByText('Do you deliver to Hove?');
    expect(screen.queryByRole('button', { name: 'Answer' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Dismiss/ })).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('link', { name: /open the conversation/ })).toBeNull();
  });
});
