// bench/web's page rows: each main console page opened cold (a new browser context, empty cache) as a
// signed-in owner, timed until its main control is enabled, with every request it made and the bytes
// they took on the wire. Beside each, the floor: a static page served by the same server that loads
// one script as large as everything the console page downloaded (see staticPage), so what is left
// over is the app's own waterfall and work, not the network.
import { brotliCompressSync, gzipSync } from 'node:zlib';

/**
 * The pages of issue 36 and the control that says each is usable. `path` may use the seeded bot.
 * A control is a role and an accessible name, as a person (or a test) would find it.
 */
export const PAGES = [
  { name: 'login', path: () => '/login', signedIn: false, control: ['button', 'Login'] },
  { name: 'home', path: () => '/home', control: ['list', 'Your bots'] },
  { name: 'bots', path: () => '/bot', control: ['link', 'Create bot'] },
  {
    name: 'knowledge (Q&A)',
    path: (bot) => `/bot/knowledge/qna?bot=${bot.bot_id}`,
    control: ['button', 'Add Q&A'],
  },
  { name: 'inbox', path: () => '/inbox', control: ['searchbox', 'Search conversations'] },
  { name: 'analytics', path: () => '/analytics', control: ['button', 'Export CSV'] },
  {
    name: 'subscriptions',
    path: () => '/subscriptions',
    control: ['progressbar', 'Messages this month used'],
  },
];

/**
 * Opens `path` in a fresh context and waits for `control` to be enabled. Resolves with the time
 * from navigation to usable, the requests made until the network went quiet, and their bytes
 * (bodies and headers as Chromium received them); `bodies` are the scripts and styles it loaded.
 * `usableMs` is the page's own clock (watchUsable); `seenMs` is when the driver saw it, which adds
 * its polling and round trips over a busy main thread (100 to 400 ms on this machine).
 */
export async function openCold(browser, { baseUrl, storageState, path, control }) {
  const context = await browser.newContext({ baseURL: baseUrl, storageState });
  try {
    await context.addInitScript(watchUsable, control);
    const page = await context.newPage();
    const finished = [];
    const onFinished = (request) => finished.push(requestCost(request));
    page.on('requestfinished', onFinished);
    const started = Date.now();
    await page.goto(path, { waitUntil: 'commit' });
    const [role, name] = control;
    const target = page.getByRole(role, { name, exact: true }).first();
    await target.waitFor({ timeout: 30_000 }).catch(async (error) => {
      // Say what the page shows instead, so a renamed control is quick to fix here.
      const shown = await page
        .locator('body')
        .ariaSnapshot()
        .catch(() => '');
      throw new Error(`${path}: no ${role} "${name}" (${error.message})\n${shown.slice(0, 3000)}`);
    });
    await page.waitForFunction(
      (el) => !el.disabled && el.getAttribute('aria-disabled') !== 'true',
      await target.elementHandle(),
    );
    const seenMs = Date.now() - started;
    // The page's own clock: the first frame that showed the control enabled, from navigation start.
    const usableMs = await page.evaluate(() => window.__usableAt ?? null);
    if (usableMs === null) throw new Error(`${path}: the page never saw its own ${role} "${name}" enabled`);
    await page.waitForLoadState('networkidle');
    // A poll that ends while the context closes would fail its size query: count until now only.
    page.off('requestfinished', onFinished);
    const costs = await Promise.all(finished);
    return {
      usableMs: Math.round(usableMs),
      seenMs,
      requests: costs.length,
      kb: costs.reduce((sum, c) => sum + c.bytes, 0) / 1024,
      bodies: costs.filter((c) => c.body).map((c) => c.body),
    };
  } finally {
    await context.close();
  }
}

/**
 * Runs in the page before its scripts (an init script): on every frame, looks for the control as
 * its role and accessible name say (a simplified accessible name: aria-label, aria-labelledby, a
 * label, an input's placeholder, else its text) and records `performance.now()` (from navigation start) the first time it is shown enabled.
 * Playwright still finds the control by role afterwards, so a wrong match here cannot pass unseen.
 */
function watchUsable([role, name]) {
  const TAGS = {
    button: 'button,[role="button"]',
    link: 'a[href],[role="link"]',
    list: 'ul,ol,[role="list"]',
    searchbox: 'input[type="search"],[role="searchbox"]',
    progressbar: 'progress,[role="progressbar"]',
  };
  const nameOf = (el) => {
    const label = el.getAttribute('aria-label');
    if (label) return label.trim();
    const by = el.getAttribute('aria-labelledby');
    if (by)
      return by
        .split(/\s+/)
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' ')
        .trim();
    const labelled = el.id ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`) : null;
    if (labelled) return (labelled.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (el.tagName === 'INPUT') return el.getAttribute('placeholder') ?? '';
    return (el.textContent ?? '').replace(/\s+/g, ' ').trim();
  };
  const enabled = (el) =>
    !el.disabled && el.getAttribute('aria-disabled') !== 'true' && el.getClientRects().length > 0;
  const look = () => {
    if (window.__usableAt !== undefined) return;
    for (const el of document.querySelectorAll(TAGS[role] ?? `[role="${role}"]`)) {
      if (nameOf(el) === name && enabled(el)) {
        window.__usableAt = performance.now();
        return;
      }
    }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}

async function requestCost(request) {
  const sizes = await request.sizes();
  const type = request.resourceType();
  const keep = type === 'script' || type === 'stylesheet';
  const body = keep ? await (await request.response())?.body() : undefined;
  return { bytes: sizes.responseBodySize + sizes.responseHeadersSize, body };
}

/**
 * The floor for a page: an HTML file whose one script carries the page's scripts and styles as a
 * comment (so it costs their bytes on the wire and nearly nothing to run), with brotli and gzip
 * siblings as the build writes them, and a button the script enables. Written into `dir` (a copy of
 * the web build the server serves); answers the files to write as [name, contents] pairs.
 */
export function staticPage(slug, bodies) {
  const text = Buffer.concat(bodies).toString('latin1').replaceAll('*/', '* /');
  const script = `/*${text}*/\ndocument.getElementById('go').disabled = false;\n`;
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>floor</title></head><body><button id="go" disabled>Go</button><script src="/assets/floor-${slug}.js"></script></body></html>`;
  return [
    [`floor-${slug}.html`, html],
    [`assets/floor-${slug}.js`, script],
    [`assets/floor-${slug}.js.br`, brotliCompressSync(script)],
    [`assets/floor-${slug}.js.gz`, gzipSync(script)],
  ];
}
