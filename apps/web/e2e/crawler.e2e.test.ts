import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MESSAGES, SYNC_TEXTS } from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, person, screenshot, screenshotOnFailure, signUp, startHarness } from './harness';

const prose = (topic: string) =>
  `<p>${`This page is about ${topic}. It explains ${topic} in several plain sentences so that the reader learns something. `.repeat(4)}</p>`;

const PAGES: Record<string, string> = {
  '/': `<h1>Welcome</h1>${prose('the shop')}<a href="/pricing">Pricing</a> <a href="/faq">FAQ</a> <a href="/contact">Contact</a>`,
  '/pricing': `<h1>Pricing</h1>${prose('prices')}`,
  '/faq': `<h1>FAQ</h1>${prose('questions')}`,
  '/contact': `<h1>Contact</h1>${prose('contact details')}`,
};

/** A small website on loopback; each page answers slowly enough for the progress bar to show. */
async function serveSite(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    const body = PAGES[path];
    if (!body) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><html><head><title>${path === '/' ? 'Home' : path.slice(1)}</title></head>
<body><nav>Menu</nav><main><article>${body}</article></main><footer>Footer</footer></body></html>`);
    }, 400);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('website crawler', () => {
  let h: Harness;
  let site: Awaited<ReturnType<typeof serveSite>>;
  beforeAll(async () => {
    site = await serveSite();
    h = await startHarness({ env: { CRAWLER_ALLOW_PRIVATE: 'true', CRAWLER_CONCURRENCY: '1' } });
  });
  afterAll(async () => {
    await h?.close();
    await site?.close();
  });

  it('crawls the local site with a live progress bar, lists its pages and deletes them', async () => {
    const { page } = await h.newPage();
    screenshotOnFailure(page, 'crawler');
    await signUp(page, person('crawl'));
    await page.goto('/bot/knowledge/websites');
    await page.getByRole('heading', { name: 'Websites' }).waitFor();

    await page.getByLabel('Website URL').fill(`${site.url}/`);
    await page.getByRole('button', { name: 'Start crawling' }).click();
    await page.getByText(MESSAGES.crawler.started).first().waitFor();
    await page.getByRole('progressbar', { name: 'Crawl progress' }).waitFor();
    await screenshot(page, 'crawler-progress');
    await page.getByText(MESSAGES.crawler.completed(4)).first().waitFor({ timeout: 30_000 });

    const domain = new URL(site.url).host;
    await page.getByRole('heading', { name: domain, exact: true }).waitFor();
    const source = page.getByTestId('web-source');
    await source.getByText('4 pages').waitFor();
    await source.getByRole('button', { name: 'Show pages' }).click();
    await expect.poll(() => page.getByTestId('crawled-page').count()).toBe(4);
    await page.getByText(`${site.url}/pricing`).waitFor();
    await screenshot(page, 'crawler-pages');

    // On a loaded CI machine a click here was lost (no request left: stop 39, and again on
    // 2026-12-03), likely as the source's card grew under the pointer: clicked until the request leaves.
    const deleting = page.getByRole('button', { name: `Delete ${site.url}/pricing` });
    for (let attempt = 1; ; attempt++) {
      const sent = page
        .waitForRequest((r) => r.method() === 'DELETE' && r.url().includes('/api/crawler/page/'), {
          timeout: 5_000,
        })
        .catch(() => null);
      await deleting.click();
      if (await sent) break;
      expect(attempt, 'the delete button sent no request').toBeLessThan(3);
    }
    await page.getByText(MESSAGES.crawler.pageDeleted).first().waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('crawled-page').count()).toBe(3);

    await page.getByRole('checkbox', { name: `Select ${site.url}/faq` }).check();
    await page.getByRole('checkbox', { name: `Select ${site.url}/contact` }).check();
    await page.getByRole('button', { name: 'Delete selected (2)' }).click();
    await page.getByText(MESSAGES.crawler.pagesDeleted).first().waitFor();
    await expect.poll(() => page.getByTestId('crawled-page').count()).toBe(1);

    await page.getByRole('button', { name: 'Delete web source' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText(MESSAGES.crawler.sourceDeleted).first().waitFor();
    await page.getByText('No websites crawled yet', { exact: false }).waitFor();
  });

  it('sets a daily re-crawl at an hour and re-crawls now: every page found unchanged', async () => {
    const { page } = await h.newPage();
    screenshotOnFailure(page, 'crawler-schedule');
    await signUp(page, person('schedule'));
    await page.goto('/bot/knowledge/websites');
    await page.getByLabel('Website URL').fill(`${site.url}/`);
    await page.getByRole('button', { name: 'Start crawling' }).click();
    await page.getByText(MESSAGES.crawler.completed(4)).first().waitFor({ timeout: 30_000 });

    const source = page.getByTestId('web-source');
    await source.getByTestId('sync-summary').getByText('4 added').waitFor();
    await source.getByRole('combobox', { name: 'Re-sync' }).click();
    await page.getByRole('option', { name: 'Daily' }).click();
    await page.getByText(SYNC_TEXTS.scheduleSaved).first().waitFor();
    await source.getByRole('combobox', { name: 'At' }).click();
    await page.getByRole('option', { name: '06:00 UTC' }).click();
    await source.getByText('Next:', { exact: false }).waitFor();
    await expect.poll(() => source.getByRole('combobox', { name: 'At' }).textContent()).toBe('06:00 UTC');
    await screenshot(page, 'crawler-schedule');

    await source.getByRole('button', { name: 'Re-crawl now' }).click();
    await page.getByText(MESSAGES.crawler.completed(4)).first().waitFor({ timeout: 30_000 });
    await source.getByTestId('sync-summary').getByText('4 unchanged').waitFor();
    await page.reload();
    await expect.poll(() => source.getByRole('combobox', { name: 'Re-sync' }).textContent()).toBe('Daily');
  });

  it('explains the pattern syntax, refuses a pattern RE2 cannot run with its reason, and applies globs', async () => {
    const { page } = await h.newPage();
    screenshotOnFailure(page, 'crawler-patterns');
    await signUp(page, person('patterns'));
    await page.goto('/bot/knowledge/websites');
    await page.getByLabel('Website URL').fill(`${site.url}/`);
    await page.getByText('Advanced options').click();
    await page.getByText('Matched anywhere in the path and query', { exact: false }).waitFor();

    const exclude = page.getByLabel('Exclude patterns (one per line)');
    await exclude.fill('/^(?!\\/faq)/');
    await page.getByRole('button', { name: 'Start crawling' }).click();
    await page
      .getByText('The pattern "/^(?!\\/faq)/" is not a valid regular expression', { exact: false })
      .first()
      .waitFor();
    await screenshot(page, 'crawler-pattern-refused');

    await exclude.fill('/faq*\n/contact');
    await page.getByRole('button', { name: 'Start crawling' }).click();
    await page.getByText(MESSAGES.crawler.completed(2)).first().waitFor({ timeout: 30_000 });
  });

  it("in the bot wizard's dialog: keeps a refusal inside it, never lets the button cover Max pages, and shows the result on top", async () => {
    const { page } = await h.newPage();
    screenshotOnFailure(page, 'crawler-dialog');
    await signUp(page, person('crawldialog'));
    await page.goto('/bot/new');
    await page.getByLabel('Bot name', { exact: true }).fill('Shop_helper');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Crawl a website' }).click();
    const dialog = page.getByRole('dialog', { name: 'Crawl a website' });
    await dialog.getByLabel('Website URL').fill(`${site.url}/`);

    // Start crawling sits beside Max pages, never over it: at a desktop width and a narrow one.
    const apart = async () => {
      const field = (await dialog.getByLabel('Max pages').boundingBox())!;
      const button = (await dialog.getByRole('button', { name: 'Start crawling' }).boundingBox())!;
      const overlapX = field.x < button.x + button.width && button.x < field.x + field.width;
      const overlapY = field.y < button.y + button.height && button.y < field.y + field.height;
      return !(overlapX && overlapY);
    };
    expect(await apart()).toBe(true);
    await page.setViewportSize({ width: 700, height: 900 });
    expect(await apart()).toBe(true);
    await screenshot(page, 'crawler-dialog-narrow');
    await page.setViewportSize({ width: 1366, height: 900 });

    // The server's refusal stays in the dialog (a toast would vanish behind it).
    await dialog.getByText('Advanced options').click();
    const exclude = dialog.getByLabel('Exclude patterns (one per line)');
    await exclude.fill('/^(?!\\/faq)/');
    await dialog.getByRole('button', { name: 'Start crawling' }).click();
    const refusal = dialog.getByRole('alert').filter({ hasText: 'is not a valid regular expression' });
    await refusal.waitFor();
    await page.waitForTimeout(3000);
    expect(await refusal.isVisible()).toBe(true);
    await screenshot(page, 'crawler-dialog-refused');

    // Crawled: the result is shown on top of the dialog, and Done closes it onto the ticked site.
    await exclude.fill('');
    await dialog.getByRole('button', { name: 'Start crawling' }).click();
    const result = dialog.getByRole('alert', { name: 'Crawl result' });
    await result.getByText(MESSAGES.crawler.completed(4)).waitFor({ timeout: 30_000 });
    expect(await refusal.count()).toBe(0);
    await screenshot(page, 'crawler-dialog-result');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const domain = new URL(site.url).host;
    await expect.poll(() => page.getByRole('checkbox', { name: new RegExp(domain) }).isChecked()).toBe(true);
  });
});
