// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CrawlNotices } from './CrawlNotices';

afterEach(cleanup);

const LIMIT = 'Stopped at 100 pages: the site has more. Raise the limit or crawl the sections you need.';
const MENU =
  "Only 1 page was found: the site's menu is built by JavaScript in the browser, which the crawler does not run, and no sitemap lists its pages. " +
  'Add a sitemap.xml to the site, start a crawl at each page you need, or upload those pages as files.';

describe('CrawlNotices', () => {
  it("warns the owner, in the crawl's words, what the bot is missing and what to do", () => {
    render(<CrawlNotices sourceId={7} notices={[LIMIT, MENU]} />);
    const alerts = screen.getAllByRole('alert');
    expect(alerts.map((a) => a.textContent)).toEqual([LIMIT, MENU]);
    expect(screen.getByLabelText('What the last crawl of website 7 found')).toBeTruthy();
  });

  it('shows nothing after a crawl that read the whole site', () => {
    const { container } = render(<CrawlNotices sourceId={7} notices={[]} />);
    expect(container.textContent).toBe('');
  });
});
