import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/src/core/db/database';
import { jobs, mailOutbox } from '../../server/src/core/db/schema';
import {
  freshDataDir,
  type Harness,
  logIn,
  REPO_ROOT,
  screenshot,
  screenshotOnFailure,
  startHarness,
} from './harness';

const ADMIN = { email: 'root-admin@example.com', password: 'admin password 123' };
const WORKSPACE = 'Acme Rockets e2e';
const LOST_MAIL_TO = 'lost-mail@example.com';

/**
 * Before the server starts, on its data directory: a platform admin made by the real CLI
 * (`npm run admin:create`), and a mail whose delivery gave up (what eight refused SMTP connections
 * leave: the outbox row queued, its `mail.send` job failed), for the admin to retry.
 */
async function prepare(dataDir: string): Promise<void> {
  execFileSync(
    process.execPath,
    [
      path.join(REPO_ROOT, 'apps/server/dist/cli/admin-create.js'),
      '--email',
      ADMIN.email,
      '--password',
      ADMIN.password,
    ],
    { env: { ...process.env, DATA_DIR: dataDir }, stdio: 'ignore' },
  );
  const database = await openDatabase({ kind: 'pglite', dataDir: `${dataDir}/pgdata` });
  try {
    const [mail] = await database.db
      .insert(mailOutbox)
      .values({ toAddress: LOST_MAIL_TO, subject: 'Your weekly summary', textBody: 'Here it is.' })
      .returning();
    await database.db.insert(jobs).values({
      name: 'mail.send',
      data: { outboxId: mail!.id },
      status: 'failed',
      attempts: 8,
      maxAttempts: 8,
      error: 'connect ECONNREFUSED 127.0.0.1:2525',
      completedAt: new Date(),
    });
  } finally {
    await database.close();
  }
}

/**
 * The platform admin's console as an admin meets it: every workspace with its plan and usage, the
 * jobs with a failed one retried (its mail then arrives), and a Capability Demo set up and opened
 * in the full-page public chat, where it answers from what it was trained on.
 */
describe('Admin Dashboard and Capability Demos', () => {
  let h: Harness;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = freshDataDir();
    await prepare(dataDir);
    h = await startHarness({ env: { DATA_DIR: dataDir } });
    // A customer's workspace for the admin to find.
    const signup = await fetch(`${h.baseUrl}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        first_name: 'Rita',
        last_name: 'Rocket',
        email: 'rita@acme-rockets.example',
        password: 'correct horse battery',
        company_name: WORKSPACE,
      }),
    });
    expect(signup.status).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows workspaces and jobs, and retries a failed job', async () => {
    const { page } = await h.newPage({ width: 1440, height: 1000 });
    screenshotOnFailure(page, 'admin-dashboard');
    await page.goto('/login');
    await logIn(page, ADMIN.email, ADMIN.password);
    await page.waitForURL('**/home');
    await page.getByRole('link', { name: 'Admin Dashboard' }).first().click();
    await page.waitForURL('**/admin');

    // Workspaces: the customer's, with its plan and usage; found by a member's email.
    const workspaces = page.getByRole('table', { name: 'Workspaces' });
    const row = workspaces.getByRole('row').filter({ hasText: WORKSPACE });
    await row.waitFor();
    await row.getByText('rita@acme-rockets.example').waitFor();
    await workspaces.getByRole('row').filter({ hasText: 'Parley Platform' }).waitFor();
    await page.getByLabel('Search workspaces').fill('acme-rockets');
    await expect.poll(() => workspaces.getByRole('row').count()).toBe(2); // the header and Acme
    await row.getByRole('button', { name: WORKSPACE }).click();
    const detail = page.getByRole('dialog', { name: WORKSPACE });
    await detail.getByRole('table', { name: 'Members' }).getByText('rita@acme-rockets.example').waitFor();
    await screenshot(page, 'admin-workspace');
    await detail.getByRole('button', { name: 'Close' }).click();

    // Jobs: the failed mail job with its error; retried, it runs again and the mail arrives.
    await page.getByRole('tab', { name: 'Jobs' }).click();
    const table = page.getByRole('table', { name: 'Jobs' });
    const failed = table.getByRole('row').filter({ hasText: 'mail.send' }).filter({ hasText: 'failed' });
    await failed.getByText('connect ECONNREFUSED 127.0.0.1:2525').waitFor();
    await expect.poll(() => page.getByTestId('jobs-failed').textContent()).toBe('Failed: 1');
    await screenshot(page, 'admin-jobs');
    await failed.getByRole('button', { name: 'Retry mail.send' }).click();
    await expect
      .poll(() => h.mail.messages.some((m) => m.to.includes(LOST_MAIL_TO)), { timeout: 20_000 })
      .toBe(true);
    await expect
      .poll(() => page.getByTestId('jobs-failed').textContent(), { timeout: 15_000 })
      .toBe('Failed: 0');

    // Mail: the same mail now sent.
    await page.getByRole('tab', { name: 'Mail' }).click();
    await page
      .getByRole('table', { name: 'Mail outbox' })
      .getByRole('row')
      .filter({ hasText: LOST_MAIL_TO })
      .getByText('sent', { exact: true })
      .waitFor();
    await page.getByRole('tab', { name: 'System health' }).click();
    await page.getByText('Jobs finished in the last hour').waitFor();
  });

  it('sets up a demo bot and opens it in the full-page chat', async () => {
    const { context, page } = await h.newPage({ width: 1440, height: 1000 });
    screenshotOnFailure(page, 'capability-demos');
    await page.goto('/login');
    await logIn(page, ADMIN.email, ADMIN.password);
    await page.waitForURL('**/home');
    await page.getByRole('link', { name: 'Capability Demos' }).first().click();
    await page.waitForURL('**/capability');

    const card = page.getByRole('region', { name: 'Store bot', exact: true });
    await page.getByTestId('demo-status-store').getByText('Not set up').waitFor();
    await card.getByRole('button', { name: 'Set up Store bot' }).click();
    await page.getByTestId('demo-status-store').getByText('Ready').waitFor({ timeout: 30_000 });
    await card.getByText(/No real shop is connected/).waitFor();
    await screenshot(page, 'capability-ready');

    const [chat] = await Promise.all([
      context.waitForEvent('page'),
      card.getByRole('link', { name: 'Open Store bot chat' }).click(),
    ]);
    screenshotOnFailure(chat, 'capability-chat');
    await chat.waitForURL('**/chat/*');
    await chat.getByRole('heading', { name: 'Parley Outdoor Shop (demo)' }).waitFor();
    // Enter sends only once the socket is open: on a loaded machine that takes a while.
    await chat
      .locator('[data-testid="connection-status"][data-status="open"]')
      .first()
      .waitFor({ timeout: 20_000 });
    const input = chat.getByRole('textbox', { name: 'Message' });
    await input.fill('How much is the trail backpack?');
    await input.press('Enter');
    await chat.getByTestId('bot-message').filter({ hasText: '89' }).first().waitFor({ timeout: 30_000 });
    await screenshot(chat, 'capability-chat-answer');
  });
});
