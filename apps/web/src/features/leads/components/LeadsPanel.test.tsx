// @vitest-environment jsdom
import { createMongoAbility } from '@casl/ability';
import { type AppAbility, LEAD_TEXTS, type Lead } from '@parley/contracts';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../../app/store';
import { BrowserRequest, json } from '../../../test/api-stubs';
import { AbilityContext } from '../../permissions/ability';
import { LeadsPanel } from './LeadsPanel';

const reader = createMongoAbility<AppAbility>([{ action: 'read', subject: 'Leads' }]);
const eraser = createMongoAbility<AppAbility>([
  { action: 'read', subject: 'Leads' },
  { action: 'write', subject: 'Leads' },
]);

function renderPanel(ability: AppAbility = reader) {
  return render(
    <Provider store={makeStore()}>
      <MemoryRouter>
        <AbilityContext.Provider value={ability}>
          <LeadsPanel botId={4} />
        </AbilityContext.Provider>
      </MemoryRouter>
    </Provider>,
  );
}

const lead = (id: number, fields: Record<string, string>): Lead => ({
  id,
  bot_id: 4,
  conversation_id: id === 2 ? 31 : null,
  name: fields.name ?? null,
  email: fields.email ?? null,
  fields,
  source: 'lead_form',
  created_at: '2025-05-01T10:00:00.000Z',
});

describe('LeadsPanel', () => {
  beforeEach(() => {
    vi.stubGlobal('Request', BrowserRequest);
    localStorage.setItem('accessToken', 'token');
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('asks for the first page and lists the leads with their other details', async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: Request) => {
        urls.push(input.url);
        return json({
          items: [
            lead(2, { name: 'Grace', email: 'grace@example.com', phone: '+1 555 0100' }),
            lead(1, { name: 'Ada', email: 'ada@example.com' }),
          ],
          total: 2,
        });
      }),
    );
    renderPanel();
    expect(await screen.findByText('Grace')).toBeTruthy();
    expect(new URL(urls[0]!).pathname).toBe('/api/chat/bots/4/leads');
    expect(new URL(urls[0]!).search).toBe('?skip=0&limit=10');
    expect(screen.getByText('ada@example.com').closest('a')?.getAttribute('href')).toBe(
      'mailto:ada@example.com',
    );
    expect(screen.getByText('phone: +1 555 0100')).toBeTruthy();
    // The conversation opens in the inbox.
    expect(screen.getByText('31').closest('a')?.getAttribute('href')).toBe('/inbox?conversation=31&bot=4');
    // Reading leads is not erasing them.
    expect(screen.queryByRole('button', { name: /Delete the lead/ })).toBeNull();
    expect((screen.getByRole('button', { name: /Download CSV/ }) as HTMLButtonElement).disabled).toBe(false);
  }, 20_000);

  it('says so when there are no leads yet, and offers no download', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ items: [], total: 0 })),
    );
    renderPanel();
    expect(await screen.findByText(/No leads yet/)).toBeTruthy();
    expect((screen.getByRole('button', { name: /Download CSV/ }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('erases a lead after confirmation, for those who may write leads, and reloads the list', async () => {
    const calls: string[] = [];
    let listed = [lead(2, { name: 'Grace', email: 'grace@example.com' }), lead(1, { name: 'Ada' })];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: Request) => {
        const path = new URL(input.url).pathname;
        calls.push(`${input.method} ${path}`);
        if (input.method === 'DELETE') {
          listed = listed.filter((l) => l.id !== 2);
          return json({ message: LEAD_TEXTS.deleted });
        }
        return json({ items: listed, total: listed.length });
      }),
    );
    renderPanel(eraser);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete the lead of Grace' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Grace left/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Grace')).toBeNull());
    expect(calls).toContain('DELETE /api/chat/bots/4/leads/2');
    expect(screen.getByText('Ada')).toBeTruthy();
  }, 20_000);
});
