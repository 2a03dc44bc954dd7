// bench/web: the bytes of JavaScript Chromium transfers for /login, and for /home after signing up
// (cold cache), beside their uncompressed size, against the 200 KB target for /login (issue 13); and
// of the website widget /widget.js against its 50 KB target. The server sends the build's brotli
// files, so "transferred" is what a visitor downloads. Builds nothing: run `npm run build` first.
// BENCH_SMOKE=1 (bench/run.mjs in CI): the same measurements, no target judged.
// It starts the built server like the browser tests do (free port, fresh embedded database).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { ROOT, startBuiltServer } from '../shared/built-server.mjs';

const WEB = path.join(ROOT, 'apps/web/dist/index.html');
const LOGIN_TARGET_KB = 200;
const SMOKE = process.env.BENCH_SMOKE === '1';
const WIDGET_TARGET_KB = 50;
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A response's uncompressed body and the bytes its body took on the wire (Chromium's own count). */
async function responseSizes(response) {
  const [body, sizes, encoding] = await Promise.all([
    response.body(),
    response.request().sizes(),
    response.headerValue('content-encoding'),
  ]);
  return { raw: body.length, transferred: sizes.responseBodySize, encoding: encoding ?? 'none' };
}

/** Every script the page loads while `action` runs: uncompressed and transferred bytes. */
async function measureScripts(page, action) {
  const scripts = new Map();
  const pending = [];
  const onResponse = (response) => {
    if (response.request().resourceType() !== 'script') return;
    pending.push(responseSizes(response).then((sizes) => scripts.set(response.url(), sizes)));
  };
  page.on('response', onResponse);
  await action();
  await page.waitForLoadState('networkidle');
  await Promise.all(pending);
  page.off('response', onResponse);
  const files = [...scripts.values()];
  return total(files);
}

function total(files) {
  return {
    files: files.length,
    rawKb: files.reduce((sum, f) => sum + f.raw, 0) / 1024,
    sentKb: files.reduce((sum, f) => sum + f.transferred, 0) / 1024,
    encodings: [...new Set(files.map((f) => f.encoding))].join(','),
  };
}

/** The widget script as a browser downloads it for a customer's page (a cold cache). */
async function measureWidget(browser, baseUrl) {
  const context = await browser.newContext({ baseURL: baseUrl });
  try {
    const response = await (await context.newPage()).goto('/widget.js');
    if (!response?.ok()) throw new Error(`GET /widget.js answered ${response?.status()}`);
    return total([await responseSizes(response)]);
  } finally {
    await context.close();
  }
}

const overTarget = (m, target) => target !== undefined && m.sentKb > target;
function row(label, m, target) {
  const verdict =
    target === undefined || SMOKE ? '' : overTarget(m, target) ? 'OVER TARGET' : 'within target';
  const targetText = target === undefined ? '-' : `${target} KB`;
  return `${label.padEnd(28)}${String(m.files).padStart(6)}${m.rawKb.toFixed(1).padStart(12)}${m.sentKb.toFixed(1).padStart(16)}${m.encodings.padStart(10)}${targetText.padStart(10)}  ${verdict}`;
}

async function main() {
  if (!existsSync(WEB)) throw new Error(`${WEB} is missing: run \`npm run build\` first`);
  const server = await startBuiltServer({ label: 'web' });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ baseURL: server.baseUrl });
    const page = await context.newPage();
    const login = await measureScripts(page, async () => {
      await page.goto('/login');
      await page.getByRole('button', { name: 'Login' }).waitFor();
    });

    // Sign up through the UI, then load /home afresh in a new tab of the same (signed-in) browser.
    await page.goto('/register');
    await page.getByLabel('First name').fill('Bench');
    await page.getByLabel('Last name').fill('Mark');
    await page.getByLabel('Email', { exact: true }).fill(`bench.${Date.now()}@example.com`);
    await page.getByLabel('Password', { exact: true }).fill('bench-password-1');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL('**/home');
    // A new context with the signed-in state: its cache is empty, as on a first visit.
    const homeContext = await browser.newContext({
      baseURL: server.baseUrl,
      storageState: await context.storageState(),
    });
    const homePage = await homeContext.newPage();
    const home = await measureScripts(homePage, async () => {
      await homePage.goto('/home');
      await homePage.getByRole('heading', { name: /Bench!/ }).waitFor();
    });

    console.log(
      `${'JavaScript of'.padEnd(28)}${'files'.padStart(6)}${'raw KB'.padStart(12)}${'transferred KB'.padStart(16)}${'encoding'.padStart(10)}${'target'.padStart(10)}`,
    );
    console.log(row('/login', login, LOGIN_TARGET_KB));
    console.log(row('/home (signed in)', home));
    const widget = await measureWidget(browser, server.baseUrl);
    console.log(row('/widget.js (website widget)', widget, WIDGET_TARGET_KB));
    console.log('transferred: response bodies as Chromium received them (cold cache), headers excluded.');
    const missed = overTarget(login, LOGIN_TARGET_KB) || overTarget(widget, WIDGET_TARGET_KB);
    if (missed && !SMOKE) process.exitCode = 1;
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
