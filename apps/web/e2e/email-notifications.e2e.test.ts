import { MESSAGES } from '@parley/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createBotViaApi,
  type Harness,
  joinAsTeammate,
  openChatPage,
  person,
  screenshot,
  screenshotOnFailure,
  signUp,
  startHarness,
} from './harness';

/** The visitor's line in the full-page chat: typed, sent, shown. */
async function say(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await expect
    .poll(() => page.getByRole('button', { name: 'Send', exact: true }).isEnabled(), { timeout: 15_000 })
    .toBe(true);
  await box.press('Enter');
  await page.getByTestId('user-message').filter({ hasText: text }).first().waitFor();
}

/** A UTC calendar day, as the log's date filter takes it. */
const utcDay = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/**
 * Email notifications from the inbox: the owner mails a teammate about an open conversation; the
 * mail server receives the conversation's link; the inbox's Email log lists the mail for the day it
 * was sent and not for the day before.
 */
describe('email notifications', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('emails a teammate about an open conversation with its link, and the email log lists it by date', async () => {
    const { page: owner } = await h.newPage({ width: 1440, height: 900 });
    screenshotOnFailure(owner, 'email-notifications-owner');
    await signUp(owner, person('esme'));
    const bot = await createBotViaApi(h, owner, { bot_name: 'Mail helper', is_public: 'true' });
    const teammate = person('theo');
    await joinAsTeammate(h, owner, 'Member', teammate);

    const visitor = await openChatPage(h, bot.uuid, 'email-notifications-visitor');
    await say(visitor, 'Could someone call me back about my refund?');

    // The owner opens the conversation in the inbox.
    await owner.goto('/inbox');
    const item = owner.getByTestId('inbox-conversation').first();
    await item.waitFor({ timeout: 15_000 });
    const conversationId = Number(await item.getAttribute('data-conversation-id'));
    await item.click();
    await owner
      .getByTestId('inbox-thread')
      .getByTestId('user-message')
      .filter({ hasText: 'refund' })
      .waitFor();

    // Email a teammate: the message carries the conversation's deep link.
    await owner.getByRole('button', { name: 'Email a teammate' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Email a teammate' });
    const link = `${h.baseUrl}/inbox?conversation=${conversationId}&bot=${bot.bot_id}`;
    expect(await dialog.getByLabel('Message').inputValue()).toContain(link);
    await dialog.getByRole('combobox', { name: 'Teammates' }).click();
    await owner
      .getByRole('option', { name: new RegExp(`${teammate.firstName} ${teammate.lastName}`) })
      .click();
    const subject = await dialog.getByLabel('Subject').inputValue();
    await screenshot(owner, 'email-notifications-dialog');
    await dialog.getByRole('button', { name: 'Send email' }).click();
    await owner.getByText(MESSAGES.notification.emailSent).first().waitFor();
    await dialog.waitFor({ state: 'detached' });

    // The teammate's inbox receives it, link included.
    const mail = await h.mail.waitFor(
      teammate.email,
      new RegExp(subject.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
    );
    expect(mail.text).toContain(link);

    // The email log: nothing the day before; on the day it was sent, the mail to the teammate.
    await owner.getByRole('button', { name: 'Email log' }).click();
    const log = owner.getByRole('dialog', { name: 'Email log' });
    await log.getByLabel('Start date').fill(utcDay(-1));
    await log.getByLabel('End date').fill(utcDay(-1));
    await log.getByText('No email notifications in this period.').waitFor();
    await log.getByLabel('End date').fill(utcDay(0));
    await log.getByLabel('Start date').fill(utcDay(0));
    const row = log.getByTestId('email-log-row');
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells.slice(1)).toEqual([
      teammate.email.toLowerCase(),
      subject,
      'Mail helper',
      'You',
      expect.stringMatching(/^(queued|sent)$/),
    ]);
    // The bot filter keeps it: it was sent about this conversation's bot.
    await log.getByRole('combobox', { name: 'Bot' }).click();
    const filtered = owner.waitForResponse((r) => r.url().includes(`bot_id=${bot.bot_id}`) && r.ok());
    await owner.getByRole('option', { name: 'Mail helper' }).click();
    await filtered;
    await expect.poll(() => row.count()).toBe(1);
    await screenshot(owner, 'email-notifications-log');
  });
});
