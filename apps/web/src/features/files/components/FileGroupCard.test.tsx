// @vitest-environment jsdom
import type { FileGroup, FileItem } from '@parley/contracts';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FileGroupCard } from './FileGroupCard';

const file = (extra: Partial<FileItem>): FileItem => ({
  id: 1,
  filename: 'prices.pdf',
  character_count: 1200,
  size: 2048,
  trained: true,
  status: 'trained',
  error: null,
  mime_type: 'application/pdf',
  ...extra,
});

const LOCKED = 'This PDF is password-protected: save a copy without the password and upload that';

const group: FileGroup = {
  id: 1,
  group_name: 'Price lists',
  description: null,
  user_id: 1,
  tenant_id: 1,
  collection_name: 'file_group_1',
  files: [
    file({}),
    file({
      id: 2,
      filename: 'locked.pdf',
      trained: false,
      status: 'failed',
      error: LOCKED,
      character_count: null,
    }),
  ],
};

afterEach(cleanup);

describe('a file group', () => {
  it('says under a failed file why it failed, and nothing under a trained one', () => {
    const none = () => undefined;
    render(
      <FileGroupCard group={group} onAddFiles={none} onEdit={none} onDelete={none} onDeleteFile={none} />,
    );
    const rows = screen.getAllByRole('row');
    const locked = rows.find((row) => row.textContent?.includes('locked.pdf'))!;
    expect(within(locked).getByTestId('file-error').textContent).toBe(LOCKED);
    expect(within(locked).getByText('Failed')).toBeTruthy();
    const trained = rows.find((row) => row.textContent?.includes('prices.pdf'))!;
    expect(within(trained).queryByTestId('file-error')).toBeNull();
  });

  it('offers Retry on a failed file only, and Move on every settled file when there is a group to move to', () => {
    const retried: string[] = [];
    const none = () => undefined;
    render(
      <FileGroupCard
        group={group}
        onAddFiles={none}
        onEdit={none}
        onDelete={none}
        onDeleteFile={none}
        onRetry={(f) => retried.push(f.filename)}
        onMove={none}
      />,
    );
    expect(
      screen.getAllByRole('button', { name: /^Retry / }).map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Retry locked.pdf']);
    screen.getByRole('button', { name: 'Retry locked.pdf' }).click();
    expect(retried).toEqual(['locked.pdf']);
    expect(screen.getAllByRole('button', { name: /^Move / })).toHaveLength(2);
  });
});
