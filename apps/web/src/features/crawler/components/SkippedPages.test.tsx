// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SkippedPages, skippedNote } from './SkippedPages';

afterEach(cleanup);

const PAGES = [
  { url: 'https://cafe.example/menu', reason: 'the site answered HTTP 500 (a server error)' },
  { url: 'https://cafe.example/old-offers', reason: 'the site answered HTTP 404 (not found)' },
];

describe('SkippedPages', () => {
  it('says how many pages the last crawl could not read, and on request which and why', () => {
    render(<SkippedPages sourceId={7} pages={PAGES} />);
    const toggle = screen.getByRole('button', { name: /2 pages could not be read/ });
    expect(screen.queryByRole('list')).toBeNull();
    fireEvent.click(toggle);
    const list = screen.getByRole('list', { name: 'Pages the last crawl could not read' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByRole('link', { name: 'https://cafe.example/menu' })).toBeTruthy();
    expect(items[0]!.textContent).toContain('HTTP 500 (a server error)');
    expect(items[1]!.textContent).toContain('HTTP 404 (not found)');
  });

  it('shows nothing after a crawl that read every page', () => {
    const { container } = render(<SkippedPages sourceId={7} pages={[]} />);
    expect(container.textContent).toBe('');
    expect(skippedNote(0)).toBe('');
    expect(skippedNote(1)).toBe('1 page could not be read.');
  });
});
