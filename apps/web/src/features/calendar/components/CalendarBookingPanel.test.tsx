// @vitest-environment jsdom
import { createMongoAbility } from '@casl/ability';
import { type AppAbility, BOTS_SUBJECT, MESSAGES } from '@parley/contracts';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../../app/store';
import { BrowserRequest, json } from '../../../test/api-stubs';
import { AbilityContext } from '../../permissions/ability';
import { CalendarBookingPanel } from './CalendarBookingPanel';

type Call = { method: string; path: string; body: unknown };

/** Answers each "METHOD path" from its queue and records what was sent. */
function fakeServer(routes: Record<string, Array<() => Response>>) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(String(input), init);
      const path = new URL(request.url).pathname;
      const text = await request.text();
      calls.push({ method: request.method, path, body: text ? JSON.parse(text) : undefined });
      const next = routes[`${request.method} ${path}`]?.shift();
      return next ? next() : json({ detail: 'unexpected call' }, 500);
    }),
  );
  return calls;
}

const writer = createMongoAbility<AppAbility>([
  { action: 'read', subject: BOTS_SUBJECT },
  { action: 'write', subject: BOTS_SUBJECT },
]);

function renderPanel(ability: AppAbility = writer) {
  return render(
    <Provider store={makeStore()}>
      <AbilityContext.Provider value={ability}>
        <CalendarBookingPanel botId={7} />
      </AbilityContext.Provider>
    </Provider>,
  );
}

const PATH = '/api/bots/7/calendar-booking';
const SAVED = {
  bot_id: 7,
  provider: 'google',
  title: 'Book a demo',
  url: 'https://calendar.google.com/acme',
  message: 'Pick a time',
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
};

describe('CalendarBookingPanel', () => {
  beforeEach(() => {
    vi.stubGlobal('Request', BrowserRequest);
    localStorage.clear();
    localStorage.setItem('accessToken', 'token');
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('treats a 404 as no configuration, checks the form, saves, then deletes after confirming', async () => {
    const calls = fakeServer({
      [`GET ${PATH}`]: [() => json({ detail: 'No calendar booking is configured for this bot' }, 404)],
      [`POST ${PATH}`]: [() => json(SAVED)],
      [`DELETE ${PATH}`]: [() => json({ message: MESSAGES.calendar.deleted })],
    });
    renderPanel();
    expect(await screen.findByText('No calendar booking is configured for this bot yet.')).toBeTruthy();
    expect(screen.queryByText(MESSAGES.calendar.loadFailed)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(MESSAGES.calendar.titleRequired)).toBeTruthy();
    expect(screen.getByText(MESSAGES.calendar.urlInvalid)).toBeTruthy();
    expect(screen.getByText(MESSAGES.calendar.messageRequired)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Title'), { target: { value: SAVED.title } });
    fireEvent.change(screen.getByLabelText('Booking URL'), { target: { value: SAVED.url } });
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: SAVED.message } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const del = await screen.findByRole('button', { name: 'Delete' });
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      provider: 'google',
      title: SAVED.title,
      url: SAVED.url,
      message: SAVED.message,
    });

    fireEvent.click(del);
    const dialog = await screen.findByRole('dialog');
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(await screen.findByText('No calendar booking is configured for this bot yet.')).toBeTruthy();
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('');
  }, 20_000);

  it('shows the load failure (not an empty form) when the server fails', async () => {
    fakeServer({ [`GET ${PATH}`]: [() => json({ detail: 'boom' }, 500)] });
    renderPanel();
    expect(await screen.findByText(MESSAGES.calendar.loadFailed)).toBeTruthy();
    expect(screen.queryByLabelText('Title')).toBeNull();
  });

  it('fills the form from the saved configuration and disables saving without write permission', async () => {
    fakeServer({ [`GET ${PATH}`]: [() => json(SAVED)] });
    renderPanel(createMongoAbility<AppAbility>([{ action: 'read', subject: BOTS_SUBJECT }]));
    await waitFor(() => expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe(SAVED.title));
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Delete' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
