// @vitest-environment jsdom
import type { Lead } from '@parley/contracts';
import { cleanup, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../../app/store';
import { BrowserRequest, json } from '../../../test/api-stubs';
import { LeadsPanel } from './LeadsPanel';

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
    render(
      <Provider store={makeStore()}>
        <LeadsPanel botId={4} />
      </Provider>,
    );
    expect(await screen.findByText('Grace')).toBeTruthy();
    expect(new URL(urls[0]!).pathname).toBe('/api/chat/bots/4/leads');
    expect(new URL(urls[0]!).search).toBe('?skip=0&limit=10');
    expect(screen.getByText('ada@example.com').closest('a')?.getAttribute('href')).toBe(
      'mailto:ada@example.com',
    );
    expect(screen.getByText('phone: +1 555 0100')).toBeTruthy();
    expect(screen.getByText('31')).toBeTruthy();
    expect((screen.getByRole('button', { name: /Download CSV/ }) as HTMLButtonElement).disabled).toBe(false);
  }, 20_000);

  it('says so when there are no leads yet, and offers no download', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ items: [], total: 0 })),
    );
    render(
      <Provider store={makeStore()}>
        <LeadsPanel botId={4} />
      </Provider>,
    );
    expect(await screen.findByText(/No leads yet/)).toBeTruthy();
    expect((screen.getByRole('button', { name: /Download CSV/ }) as HTMLButtonElement).disabled).toBe(true);
  });
});
