import { CONTACT_FORM, HANDOFF_TEXTS, HELPDESK_TEXTS, MESSAGES } from '@parley/contracts';
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createBotViaApi,
  customerSite,
  fillSignup,
  type Harness,
  type Person,
  person,
  screenshot,
  screenshotOnFailure,
  signUp,
  startHarness,
} from './harness';

/** Side-menu labels as the user sees them. */
async function menuLabels(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  await nav.getByRole('link').first().waitFor();
  return (await nav.getByRole('link').allInnerTexts()).map((t) => t.trim());
}

/** Every API answer of 401 or 403 the page receives: an agent's screens must make no refused call. */
function refusedCalls(page: Page): string[] {
  const refused: string[] = [];
  page.on('response', (response: Response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/api/') && [401, 403].includes(response.status())) {
      refused.push(`${response.status()} ${response.request().method()} ${url.pathname}`);
    }
  });
  return refused;
}

/** A visitor on the business's site, with the bot's widget open. */
async function openWidget(h: Harness, scriptSrc: string, uuid: string, botName: string) {
  const site = await customerSite(scriptSrc, uuid);
  const { page, context } = await h.newPage({ width: 1200, height: 850 });
  screenshotOnFailure(page, 'first-day-visitor');
  await page.goto(`${site.origin}/`);
  await page.getByRole('button', { name: 'Open chat' }).click();
  const chat = page.getByRole('dialog', { name: `Chat with ${botName}` });
  await chat.locator('[data-testid="connection-status"][data-status="open"]').waitFor({ timeout: 20_000 });
  const say = async (text: string) => {
    const box = chat.getByRole('textbox', { name: 'Message' });
    await box.fill(text);
    await box.press('Enter');
  };
  const close = async () => {
    await context.close();
    await site.close();
  };
  return { page, chat, say, close };
}

/**
 * Issue 31's "Done when": on a fresh server with default settings (no SMTP, no plans), the owner
 * signs up and invites a teammate as Agent, copies the link from the pending invitations, the agent
 * accepts it in a second browser and sees the inbox and leads; a visitor on the business's site
 * asks for a person and the agent answers the hand-off; the agent is refused the settings pages
 * with the friendly page; with the agent gone, a visitor asking for a person gets the contact form,
 * and the owner finds "left contact details" in the inbox and the bell.
 */
describe('the first day of a workspace', () => {
  let h: Harness;
  let owner: Person;
  let ownerPage: Page;
  beforeAll(async () => {
    // Default settings: no mail server (the harness sets one for the other tests).
    h = await startHarness({ env: { SMTP_URL: '' } });
    owner = person('frida');
    const opened = await h.newPage({ width: 1440, height: 900 });
    ownerPage = opened.page;
    await opened.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.baseUrl });
    await signUp(ownerPage, owner);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('invites an agent without mail, who joins through the copied link, answers a hand-off and works in the inbox only; with nobody online a visitor leaves contact details', async () => {
    screenshotOnFailure(ownerPage, 'first-day-owner');
    const bot = await createBotViaApi(h, ownerPage, { bot_name: 'Front desk' });
    const agent = person('aiko');

    // 1. The owner invites a teammate as Agent; the dialog says what each role is for.
    await ownerPage.goto('/roles');
    await ownerPage.getByRole('button', { name: 'Invite user' }).click();
    const dialog = ownerPage.getByRole('dialog', { name: 'Invite a user' });
    await dialog.getByLabel('Email').fill(agent.email);
    await dialog.getByRole('combobox', { name: 'Role' }).click();
    const option = ownerPage.getByRole('option', { name: /^Agent: / });
    await option.waitFor();
    await screenshot(ownerPage, 'first-day-invite-roles');
    await option.click();
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    // Nothing is mailed on this server, and the owner is told so.
    await ownerPage.getByText(MESSAGES.users.inviteNotMailed).first().waitFor();
    expect(await ownerPage.getByText(MESSAGES.users.inviteSent).count()).toBe(0);

    // 2. The owner copies the link from the pending invitations.
    const row = ownerPage.getByTestId(`invitation-row-${agent.email}`);
    await row.getByText('Agent').waitFor();
    const shown = await row.getByTestId('invitation-link').textContent();
    expect(shown).toMatch(/\/signup\?token=[\w-]+$/);
    await row.getByRole('button', { name: `Copy link for ${agent.email}` }).click();
    await ownerPage.getByText(MESSAGES.users.inviteLinkCopied).first().waitFor();
    const link = await ownerPage.evaluate(() => navigator.clipboard.readText());
    expect(link).toBe(shown);
    await row.getByRole('button', { name: `Resend the invitation to ${agent.email}` }).waitFor();
    await row.getByRole('button', { name: `Revoke the invitation to ${agent.email}` }).waitFor();
    await screenshot(ownerPage, 'first-day-pending-link');

    // The agent accepts it in a second browser.
    const { page } = await h.newPage({ width: 1440, height: 900 });
    screenshotOnFailure(page, 'first-day-agent');
    const refused = refusedCalls(page);
    await page.goto(link);
    await page.getByRole('heading', { name: `Join ${owner.firstName}'s workspace` }).waitFor();
    await fillSignup(page, agent, { emailPrefilled: true });
    await page.waitForURL('**/home');

    // The agent's menu: the inbox and leads, no settings.
    const menu = await menuLabels(page);
    expect(menu).toContain('Support Inbox');
    expect(menu).toContain('Leads');
    for (const hidden of ['Manage Bots', 'Integrations', 'Users', 'Subscriptions', 'Upgrade', 'Analytics']) {
      expect(menu).not.toContain(hidden);
    }

    // 3. The agent sees the inbox, with every bot of the workspace and no refused call.
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Support Inbox' })
      .click();
    await page.waitForURL('**/inbox');
    await page.getByRole('heading', { name: 'Support Inbox' }).waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'first-day-agent-inbox');

    // A visitor on the business's site asks for a person; the agent answers the hand-off.
    const agentName = `${agent.firstName} ${agent.lastName}`;
    const visitor = await openWidget(h, `${h.baseUrl}/widget.js`, bot.uuid, 'Front desk');
    const status = visitor.chat.getByTestId('connection-status');
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toBe('Online');
    const notices = visitor.chat.getByTestId('system-message');
    await visitor.say('Can I talk to a person please?');
    await notices.filter({ hasText: HANDOFF_TEXTS.requested(1) }).waitFor();
    const item = page.getByTestId('handoff-item').first();
    await item.waitFor({ timeout: 15_000 });
    await item.click();
    const thread = page.getByTestId('inbox-thread');
    await thread.getByRole('button', { name: 'Take over' }).click();
    await notices.filter({ hasText: HELPDESK_TEXTS.agentJoined(agentName) }).waitFor();
    const reply = thread.getByRole('textbox', { name: 'Message' });
    await reply.fill('Hi, this is Aiko. How can I help?');
    await reply.press('Enter');
    await visitor.chat
      .getByTestId('agent-message')
      .filter({ hasText: 'Hi, this is Aiko. How can I help?' })
      .waitFor();
    await screenshot(page, 'first-day-agent-handoff');
    await thread.getByRole('button', { name: 'Hand back' }).click();
    await notices.filter({ hasText: HELPDESK_TEXTS.botBack }).waitFor();
    await visitor.close();

    // Leads, without managing bots.
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Leads' }).click();
    await page.waitForURL('**/leads');
    await page.getByRole('heading', { name: 'Leads', level: 1 }).waitFor();
    await page.getByText("What visitors left through Front desk's lead form.").waitFor();
    await page.getByText(/No leads yet/).waitFor();
    await screenshot(page, 'first-day-agent-leads');
    expect(refused).toEqual([]);

    // 4. Settings pages typed directly: the friendly page, never a 401 text.
    for (const path of [
      '/integrations',
      '/roles',
      '/bot',
      '/bot/llm-settings',
      '/subscriptions',
      '/analytics',
    ]) {
      await page.goto(path);
      await page.getByTestId('not-authorized').waitFor();
      await page.getByText(MESSAGES.unauthorized.title).waitFor();
      await page.getByText(MESSAGES.unauthorized.body).waitFor();
      expect(await page.getByText(/401|not authorized/i).count(), path).toBe(0);
      if (path === '/integrations') await screenshot(page, 'first-day-agent-integrations');
    }
    expect(refused).toEqual([]);

    // 5. Nobody online (the agent and the owner left the console): asking for a person offers the
    // contact form, though the bot has no lead form, with the question already in it.
    await page.close();
    await ownerPage.goto('about:blank');
    const late = await openWidget(h, `${h.baseUrl}/widget.js`, bot.uuid, 'Front desk');
    const lateStatus = late.chat.getByTestId('connection-status');
    await expect.poll(() => lateStatus.textContent(), { timeout: 15_000 }).toBe('Our team is away');
    await late.say('Do you take bookings for groups of twelve?');
    await late.chat.getByTestId('bot-message').first().waitFor();
    await late.say('I want to talk to a human');
    await late.chat.getByTestId('system-message').filter({ hasText: HANDOFF_TEXTS.nobodyOnline }).waitFor();
    const form = late.chat.getByRole('form', { name: CONTACT_FORM.title });
    expect(await form.getByRole('textbox', { name: 'Your question' }).inputValue()).toBe(
      'Do you take bookings for groups of twelve?',
    );
    await form.getByRole('textbox', { name: 'Name' }).fill('Lena Late');
    await form.getByRole('textbox', { name: 'Email' }).fill('lena@example.com');
    await screenshot(late.page, 'first-day-contact-form');
    await form.getByRole('button', { name: 'Send', exact: true }).click();
    await late.chat
      .getByTestId('system-message')
      .filter({ hasText: HANDOFF_TEXTS.contactLeft('Lena Late', 'lena@example.com') })
      .waitFor();
    await late.close();

    // The owner comes back: the bell and the inbox say who left their details.
    await ownerPage.goto('/inbox');
    const left = ownerPage
      .getByTestId('handoff-item')
      .filter({ has: ownerPage.getByTestId('contact-left') })
      .filter({ hasText: 'Lena Late' });
    await left.waitFor({ timeout: 15_000 });
    await ownerPage.getByRole('button', { name: /^Notifications/ }).click();
    await ownerPage.getByText('Lena Late left contact details').first().waitFor();
    await screenshot(ownerPage, 'first-day-owner-contact-left');
  });
});
