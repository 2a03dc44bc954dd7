import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MESSAGES } from '@parley/contracts';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { inject, onTestFailed } from 'vitest';
import { MailCapture } from './mail';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const ARTIFACTS = path.join(REPO_ROOT, 'test-artifacts');
export const SERVER_ENTRY = path.join(REPO_ROOT, 'apps/server/dist/main.js');
const WEB_INDEX = path.join(REPO_ROOT, 'apps/web/dist/index.html');

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitForHealth(baseUrl: string, server: ChildProcess, logs: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}:\n${logs()}`);
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`server did not become healthy in 60 s:\n${logs()}`);
}

export type ServerHandle = {
  baseUrl: string;
  mail: MailCapture;
  /** Stops the server; its data directory goes too, unless it was given (env.DATA_DIR). */
  stop: () => Promise<void>;
};

/**
 * A new data directory holding a copy of the browser project's migrated one (global-setup.ts): what
 * each server starts on, and what a test prepares before starting its server (the admin CLI on a
 * new directory would migrate it first, 15 s and more on a loaded machine). The caller removes one
 * it asked for.
 */
export function freshDataDir(): string {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-e2e-'));
  const template = inject('e2eDataTemplate');
  if (template && existsSync(template)) cpSync(template, dataDir, { recursive: true });
  return dataDir;
}

/** The output (warnings and errors) of this test file's running servers, printed when a test fails. */
const runningServerLogs = new Set<() => string>();

/**
 * The built server on a free port with a fresh embedded database (a temp DATA_DIR, a copy of the
 * run's migrated template) and an SMTP server on loopback that captures its mail. Needs
 * `npm run build` first.
 */
export async function startServer(env: Record<string, string> = {}): Promise<ServerHandle> {
  for (const file of [SERVER_ENTRY, WEB_INDEX]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
  }
  const smtpPort = await freePort();
  const mail = new MailCapture();
  await mail.listen(smtpPort);
  const ownDataDir = !env.DATA_DIR;
  const dataDir = env.DATA_DIR ?? freshDataDir();
  let output = '';
  let server: ChildProcess | undefined;
  let baseUrl = '';
  // A port found free can be taken by another test's process before the server listens on it:
  // then it starts again on another.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    output = '';
    server = spawn(process.execPath, [SERVER_ENTRY], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        PUBLIC_URL: baseUrl,
        LOG_LEVEL: 'warn',
        AUTH_RATE_LIMIT_PER_IP: '1000',
        AUTH_SIGNUP_LIMIT_PER_IP: '1000',
        JOB_POLL_MS: '200',
        // Plans limit nothing unless a test turns them on (the billing test does).
        PLAN_LIMITS: 'off',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    server.stdout?.on('data', collect);
    server.stderr?.on('data', collect);
    try {
      await waitForHealth(baseUrl, server, () => output);
      break;
    } catch (error) {
      if (attempt >= 3 || !output.includes('EADDRINUSE')) throw error;
    }
  }
  const child = server as ChildProcess;
  const logs = () => output;
  runningServerLogs.add(logs);
  return {
    baseUrl,
    mail,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      runningServerLogs.delete(logs);
      await mail.close();
      if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type Harness = ServerHandle & {
  browser: Browser;
  /** A fresh browser context (its own cookies and storage) and page. */
  newPage: (viewport?: { width: number; height: number }) => Promise<{ context: BrowserContext; page: Page }>;
  close: () => Promise<void>;
};

/** `env` adds to or overrides the server's environment (for example a fake's base URL). */
export async function startHarness(options: { env?: Record<string, string> } = {}): Promise<Harness> {
  const server = await startServer(options.env);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  mkdirSync(ARTIFACTS, { recursive: true });
  const contexts: BrowserContext[] = [];
  return {
    ...server,
    browser,
    newPage: async (viewport = { width: 1366, height: 900 }) => {
      const context = await browser.newContext({ baseURL: server.baseUrl, viewport });
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      return { context, page };
    },
    close: async () => {
      for (const context of contexts) await context.close().catch(() => undefined);
      await browser.close();
      await server.stop();
    },
  };
}

/**
 * Call at the start of a test: a failure leaves a screenshot of the page as it was, and prints the
 * notices showing, the page's last API exchanges and console errors, and the server's warnings, so
 * that a failure on a CI machine can be read from its log.
 */
export function screenshotOnFailure(page: Page, name: string): void {
  const trail = pageTrail(page);
  onTestFailed(async () => {
    await page
      .screenshot({ path: path.join(ARTIFACTS, `FAILED-${name}.png`), fullPage: true })
      .catch(() => undefined);
    const notices = await page
      .locator('[role=status], [role=alert]')
      .allTextContents()
      .catch(() => []);
    const serverLogs = [...runningServerLogs].map((logs) => logs().slice(-4000).trim() || '(nothing)');
    console.error(
      `[${name}] notices showing: ${JSON.stringify(notices)}\n` +
        `the page's last API calls and console errors:\n${trail().join('\n')}\n` +
        `the server's warnings and errors:\n${serverLogs.join('\n---\n')}`,
    );
  });
}

/** The last 40 API exchanges (method, path, status, milliseconds) and console errors of a page. */
function pageTrail(page: Page): () => string[] {
  const started = Date.now();
  const lines: string[] = [];
  const note = (line: string) => {
    lines.push(`${((Date.now() - started) / 1000).toFixed(1)} s ${line}`);
    if (lines.length > 40) lines.shift();
  };
  const apiPath = (url: string) => {
    const { pathname, search } = new URL(url);
    return pathname.startsWith('/api/') ? pathname + search : null;
  };
  page.on('requestfinished', async (request) => {
    const where = apiPath(request.url());
    if (!where) return;
    const response = await request.response().catch(() => null);
    note(
      `${request.method()} ${where} → ${response?.status()} in ${Math.round(request.timing().responseEnd)} ms`,
    );
  });
  page.on('requestfailed', (request) => {
    const where = apiPath(request.url());
    if (where) note(`${request.method()} ${where} → failed: ${request.failure()?.errorText}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') note(`console: ${message.text()}`);
  });
  return () => (lines.length > 0 ? lines : ['(none)']);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

let counter = 0;
/** A unique address per call, so tests never collide on the shared database. */
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}${counter}@example.com`;
}

export type Person = { firstName: string; lastName: string; email: string; password: string };

export function person(prefix: string): Person {
  return {
    firstName: prefix[0]!.toUpperCase() + prefix.slice(1),
    lastName: 'Tester',
    email: uniqueEmail(prefix),
    password: 'correct-horse-42',
  };
}

/**
 * A visitor on a bot's own chat page (`/chat/{uuid}`), phone-sized, once its socket is open;
 * `name` names the screenshot taken if the test fails.
 */
export async function openChatPage(h: Harness, uuid: string, name: string): Promise<Page> {
  const { page } = await h.newPage({ width: 480, height: 800 });
  screenshotOnFailure(page, name);
  await page.goto(`/chat/${uuid}`);
  await page
    .locator('[data-testid="connection-status"][data-status="open"]')
    .first()
    .waitFor({ timeout: 20_000 });
  return page;
}

/** Fills the signup form (on /register or an invitation's /signup) and submits it. */
export async function fillSignup(
  page: Page,
  who: Person,
  options: { emailPrefilled?: boolean } = {},
): Promise<void> {
  await page.getByLabel('First name').fill(who.firstName);
  await page.getByLabel('Last name').fill(who.lastName);
  if (!options.emailPrefilled) await page.getByLabel('Email', { exact: true }).fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: options.emailPrefilled ? 'Join workspace' : 'Sign up' }).click();
}

export async function signUp(page: Page, who: Person): Promise<void> {
  await page.goto('/register');
  await fillSignup(page, who);
  await page.waitForURL('**/home');
}

export async function logIn(page: Page, identifier: string, password: string): Promise<void> {
  await page.getByLabel('Email or username').fill(identifier);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

export async function logOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await page.getByRole('status').filter({ hasText: 'Logging out...' }).first().waitFor();
  await page.waitForURL('**/login');
}

/** Creates a bot as the signed-in user through the API (multipart, as the bot wizard sends it). */
export async function createBotViaApi(
  h: Harness,
  page: Page,
  fields: Record<string, string>,
): Promise<{ bot_id: number; uuid: string }> {
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) body.set(key, value);
  const response = await fetch(`${h.baseUrl}/api/chat/bots`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body,
  });
  if (!response.ok) throw new Error(`POST /api/chat/bots: ${response.status} ${await response.text()}`);
  return (await response.json()) as { bot_id: number; uuid: string };
}

/** A call to the API as a user (JSON or multipart body); anything but 2xx throws with the answer. */
export async function apiCall<T = unknown>(
  h: Harness,
  token: string | null,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const response = await fetch(`${h.baseUrl}/api${path}`, { method, headers, body: payload });
  if (!response.ok) throw new Error(`${method} /api${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Crawls a site through the API as its owner would and waits for the crawl: the web source's id. */
export async function crawlViaApi(
  h: Harness,
  token: string | null,
  url: string,
  name: string,
): Promise<number> {
  const started = await apiCall<{ task_id: string; web_source_id: number }>(
    h,
    token,
    'POST',
    '/crawler/crawl',
    {
      url,
      name,
    },
  );
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { status } = await apiCall<{ status: string }>(
      h,
      token,
      'GET',
      `/crawler/crawl/${started.task_id}/status`,
    );
    if (status === 'completed') return started.web_source_id;
    if (status === 'failed' || Date.now() > deadline) throw new Error(`crawl of ${url}: ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Adds a Q&A pair to a bot and trains it, waiting until the training job completes. */
export async function addTrainedQna(
  h: Harness,
  token: string | null,
  botId: number,
  pair: { question: string; answer: string },
): Promise<void> {
  await apiCall(h, token, 'POST', '/qna/', { bot_id: botId, ...pair });
  const { task_id } = await apiCall<{ task_id: string }>(h, token, 'POST', `/training/train/qna/${botId}`);
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const progress = await apiCall<{ status: string }>(
      h,
      token,
      'GET',
      `/training/train/progress/${task_id}`,
    );
    if (progress.status === 'completed') return;
    if (progress.status === 'failed') throw new Error(`Q&A training failed for bot ${botId}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Q&A training of bot ${botId} did not finish in 30 s`);
}

/** The signed-in page's access token, for calls to the API as that user. */
export async function tokenOf(page: Page): Promise<string | null> {
  return page.evaluate(() => localStorage.getItem('accessToken'));
}

/**
 * A teammate with the named role of the owner's workspace, joined through a real invitation (sent
 * through the API, accepted in a new browser context). Returns their page, on /home, and user id.
 */
export async function joinAsTeammate(
  h: Harness,
  ownerPage: Page,
  roleName: string,
  who: Person,
): Promise<{ page: Page; userId: number }> {
  const token = await tokenOf(ownerPage);
  const me = await apiCall<{ tenant_id: number }>(h, token, 'GET', '/auth/user');
  const roles = await apiCall<Array<{ id: number; name: string }>>(
    h,
    token,
    'GET',
    `/role/roles/${me.tenant_id}`,
  );
  const role = roles.find((r) => r.name === roleName);
  if (!role) throw new Error(`no role named ${roleName}`);
  await apiCall(h, token, 'POST', '/auth/invite-user', { email: who.email, role_id: role.id });
  const mail = await h.mail.waitFor(who.email, /invited you/);
  const link = /https?:\/\/\S+\/signup\?token=[\w-]+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no invitation link in: ${mail.text}`);
  const { page } = await h.newPage();
  await page.goto(link);
  await fillSignup(page, who, { emailPrefilled: true });
  await page.waitForURL('**/home');
  const users = await apiCall<Array<{ id: number; email: string }>>(
    h,
    token,
    'GET',
    `/auth/user/all/${me.tenant_id}`,
  );
  const joined = users.find((u) => u.email.toLowerCase() === who.email.toLowerCase());
  if (!joined) throw new Error(`${who.email} is not among the workspace's users`);
  return { page, userId: joined.id };
}

/** Sends an invitation from the Roles screen's dialog, as the signed-in person, and waits for its notice. */
export async function sendInvitation(page: Page, email: string, role: string): Promise<void> {
  await page.getByRole('button', { name: 'Invite user' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: role }).click();
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await page.getByRole('alert').filter({ hasText: MESSAGES.users.inviteSent }).first().waitFor();
}

/**
 * A customer's web page on loopback embedding the widget of bot `uuid` from `scriptSrc`, with
 * hostile page styles (the widget must not inherit them).
 */
export async function customerSite(
  scriptSrc: string,
  uuid: string,
): Promise<{ origin: string; close: () => Promise<void> }> {
  const html = `<!doctype html>
<html><head><title>Acme shop</title>
<style>button { display: none !important; } * { color: rgb(255, 0, 0) !important; font-size: 40px !important; }</style>
</head><body><h1>Acme shop</h1><p>Our products.</p>
<script src="${scriptSrc}" data-bot="${uuid}" defer></script>
</body></html>`;
  const site = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(site.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => site.close(() => resolve())),
  };
}
