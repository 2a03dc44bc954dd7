// bench/web: the gzip size of the JavaScript a browser loads for /login, and for /home after signing
// up, printed beside the 250 KB target for /login (issue 3); and of the website widget /widget.js
// beside its 50 KB target (issue 5). Builds nothing: run `npm run build` first.
// It starts the built server like the browser tests do (free port, fresh embedded database).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER = path.join(ROOT, 'apps/server/dist/main.js');
const WEB = path.join(ROOT, 'apps/web/dist/index.html');
const LOGIN_TARGET_KB = 250;
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

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function startServer() {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-bench-web-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: baseUrl,
    LOG_LEVEL: 'warn',
    AUTH_RATE_LIMIT_PER_IP: '1000',
  };
  const child = spawn(process.execPath, [SERVER], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await fetch(`${baseUrl}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    baseUrl,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r()));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Every script the page loads while `action` runs, with its size gzipped (level 6, as servers use). */
async function measureScripts(page, action) {
  const scripts = new Map();
  const pending = [];
  const onResponse = (response) => {
    if (response.request().resourceType() !== 'script') return;
    pending.push(
      response.body().then((body) => {
        scripts.set(response.url(), { raw: body.length, gzip: gzipSync(body, { level: 6 }).length });
      }),
    );
  };
  page.on('response', onResponse);
  await action();
  await page.waitForLoadState('networkidle');
  await Promise.all(pending);
  page.off('response', onResponse);
  const files = [...scripts.values()];
  return {
    files: files.length,
    rawKb: files.reduce((sum, f) => sum + f.raw, 0) / 1024,
    gzipKb: files.reduce((sum, f) => sum + f.gzip, 0) / 1024,
  };
}

/** The widget script as a customer's page downloads it from the server. */
async function measureWidget(baseUrl) {
  const response = await fetch(`${baseUrl}/widget.js`);
  if (!response.ok) throw new Error(`GET /widget.js answered ${response.status}`);
  const body = Buffer.from(await response.arrayBuffer());
  return { files: 1, rawKb: body.length / 1024, gzipKb: gzipSync(body, { level: 6 }).length / 1024 };
}

function row(label, m, target) {
  const verdict = target === undefined ? '' : m.gzipKb <= target ? 'within target' : 'OVER TARGET';
  const targetText = target === undefined ? '-' : `${target} KB`;
  return `${label.padEnd(28)}${String(m.files).padStart(6)}${m.rawKb.toFixed(1).padStart(12)}${m.gzipKb.toFixed(1).padStart(12)}${targetText.padStart(10)}  ${verdict}`;
}

async function main() {
  for (const file of [SERVER, WEB]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
  }
  const server = await startServer();
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
    const homePage = await context.newPage();
    const home = await measureScripts(homePage, async () => {
      await homePage.goto('/home');
      await homePage.getByRole('heading', { name: /Bench!/ }).waitFor();
    });

    console.log(
      `${'page'.padEnd(28)}${'files'.padStart(6)}${'raw KB'.padStart(12)}${'gzip KB'.padStart(12)}${'target'.padStart(10)}`,
    );
    console.log(row('/login', login, LOGIN_TARGET_KB));
    console.log(row('/home (signed in)', home));
    const widget = await measureWidget(server.baseUrl);
    console.log(row('/widget.js (website widget)', widget, WIDGET_TARGET_KB));
    if (login.gzipKb > LOGIN_TARGET_KB || widget.gzipKb > WIDGET_TARGET_KB) process.exitCode = 1;
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
