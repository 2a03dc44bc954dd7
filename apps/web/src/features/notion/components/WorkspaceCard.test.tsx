// @vitest-environment jsdom
import { NOTION_TEXTS, type NotionWorkspaceWithPages } from '@parley/contracts';
import { cleanup, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { makeStore } from '../../../app/store';
import { WorkspaceCard } from './WorkspaceCard';

const workspace = (last_error: string | null): NotionWorkspaceWithPages => ({
  id: 3,
  workspace_id: 'ws-1',
  workspace_name: 'Mug Shop',
  last_synced_at: '2026-05-01T10:00:00.000Z',
  trained: true,
  page_count: 0,
  last_error,
  schedule: 'off',
  schedule_hour: 3,
  next_sync_at: null,
  last_changes: null,
  sync_task_id: null,
  pages: [],
});

function renderCard(lastError: string | null) {
  return render(
    <Provider store={makeStore()}>
      <MemoryRouter>
        <WorkspaceCard workspace={workspace(lastError)} bot={null} />
      </MemoryRouter>
    </Provider>,
  );
}

afterEach(cleanup);

describe('a Notion workspace card', () => {
  it('tells the owner a refused token stops syncing, and how to mend it', () => {
    renderCard(NOTION_TEXTS.invalidToken);
    expect(screen.getByRole('alert').textContent).toBe(
      `${NOTION_TEXTS.lastSyncFailed(NOTION_TEXTS.invalidToken)} ${NOTION_TEXTS.reconnectHint}`,
    );
  });

  it('shows another failure without the reconnect hint, and nothing after a good sync', () => {
    renderCard(NOTION_TEXTS.notionUnavailable);
    expect(screen.getByRole('alert').textContent).toBe(
      NOTION_TEXTS.lastSyncFailed(NOTION_TEXTS.notionUnavailable),
    );
    cleanup();
    renderCard(null);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
