import path from 'node:path';
import { type HomeSummary, LEAD_TEXTS, MESSAGES } from '@parley/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ARTIFACTS,
  addTrainedQna,
  apiCall,
  createBotViaApi,
  type Harness,
  joinAsTeammate,
  openChatPage,
  person,
  screenshot,
  screenshotOnFailure,
  signUp,
  startHarness,
  tokenOf,
} from './harness';

async function memberRoleId(h: Harness, token: string | null): Promise<number> {
  const me = await apiCall<{ tenant_id: number }>(h, token, 'GET', '/auth/user');
  const roles = await apiCall<Array<{ id: number; name: string }>>(
    h,
    token,
    'GET',
    `/role/roles/${me.tenant_id}`,
  );
  return roles.find((role) => role.name === 'Member')!.id;
}

/** A step of the getting-started checklist, by its title. */
const step = (page: Page, title: string) =>
  page.getByRole('list', { name: 'Getting started' }).getByRole('listitem').filter({ hasText: title });

/** Home tells the truth: the workspace's real bots and this month's usage, not a fixed empty state. */
describe('home', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('shows the bots that exist and the month usage bar', async () => {
    const { page } = await h.newPage();
    screenshotOnFailure(page, 'home');
    await signUp(page, person('homer'));
    await page.goto('/home');

    // A new workspace: nothing yet, and its owner is offered to create a bot.
    await page.getByText('No bots yet').waitFor();
    await page.getByText('Bot messages this month: 0 of 10,000').waitFor();
    await page.getByRole('progressbar', { name: "Share of this month's messages used" }).waitFor();
    await page.getByRole('heading', { name: 'Recent conversations' }).waitFor();

    await createBotViaApi(h, page, { bot_name: 'Harbour_helper', description: 'Ferry times' });
    await page.reload();
    const bots = page.getByRole('list', { name: 'Your bots' });
    await bots.getByText('Harbour_helper').waitFor();
    expect(await page.getByText('No bots yet').count()).toBe(0);

    await bots.getByText('Harbour_helper').click();
    await page.waitForURL(/\/bot\/\d+$/);
  });

  it('shows a getting-started checklist whose steps tick as they are done through the console', async () => {
    const { page } = await h.newPage();
    screenshotOnFailure(page, 'home-checklist');
    await signUp(page, person('chloe'));
    await page.goto('/home');

    await page.getByRole('heading', { name: 'Get started' }).waitFor();
    await page.getByText('0 of 5 done').waitFor();
    for (const title of [
      'Create a bot',
      'Add knowledge',
      'Try it',
      'Put it on your website',
      'Invite a teammate',
    ])
      await step(page, title).getByRole('img', { name: 'Not done yet' }).waitFor();
    await screenshot(page, 'home-checklist-new');

    // The first step links to the bot wizard; create a bot there.
    await step(page, 'Create a bot').getByRole('link').click();
    await page.waitForURL('**/bot/new');
    await page.getByLabel('Bot name', { exact: true }).fill('Checklist_bot');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('form', { name: 'Bot knowledge' }).waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Create bot' }).click();
    await page.getByText('Checklist_bot is ready').waitFor();

    await page.goto('/home');
    await step(page, 'Create a bot').getByRole('img', { name: 'Done' }).waitFor();
    await page.getByText('1 of 5 done').waitFor();
    await step(page, 'Add knowledge').getByRole('img', { name: 'Not done yet' }).waitFor();
    // The steps about a bot now lead to the new bot's own pages.
    expect(await step(page, 'Try it').getByRole('link').getAttribute('href')).toMatch(
      /^\/bot\/\d+\/playground$/,
    );
    expect(await step(page, 'Put it on your website').getByRole('link').getAttribute('href')).toMatch(
      /^\/bot\/\d+\?tab=embed$/,
    );
    await screenshot(page, 'home-checklist-ticked');
  });

  it('folds the checklist into one line once every step is done', async () => {
    const { page } = await h.newPage();
    screenshotOnFailure(page, 'home-all-set');
    await signUp(page, person('ada'));
    const token = await tokenOf(page);
    const bot = await createBotViaApi(h, page, { bot_name: 'Finished_bot' });
    await addTrainedQna(h, token, bot.bot_id, { question: 'When do you open?', answer: 'At nine.' });
    await apiCall(h, token, 'POST', '/chat/chats', { bot_id: bot.bot_id, message: 'When do you open?' });
    await apiCall(h, token, 'POST', '/auth/invite-user', {
      email: person('ian').email,
      role_id: await memberRoleId(h, token),
    });
    await page.goto('/home');
    await page.getByText('4 of 5 done').waitFor();
    await step(page, 'Put it on your website').getByRole('img', { name: 'Not done yet' }).waitFor();

    // A visitor (not signed in) chats with the bot outside the console.
    const { page: visitor } = await h.newPage();
    await visitor.goto(`/chat/${bot.uuid}`);
    await visitor
      .locator('[data-testid="connection-status"][data-status="open"]')
      .first()
      .waitFor({ timeout: 20_000 });
    const box = visitor.getByRole('textbox', { name: 'Message' });
    await box.fill('Are you open on Sunday?');
    await box.press('Enter');
    await visitor.getByTestId('user-message').filter({ hasText: 'Are you open on Sunday?' }).waitFor();
    await expect
      .poll(
        async () =>
          (await apiCall<HomeSummary>(h, token, 'GET', '/home/summary')).checklist?.every(
            (item) => item.done,
          ),
        { timeout: 15_000 },
      )
      .toBe(true);

    await page.reload();
    await page.getByText("You're all set: every getting-started step is done.").waitFor();
    expect(await page.getByRole('heading', { name: 'Get started' }).count()).toBe(0);
    // Recent conversations lists the visitor's chat, not the owner's test chat of the console
    // ("When do you open?"), which the inbox leaves out too.
    const recent = page.getByRole('list', { name: 'Recent conversations' });
    await recent.getByText('Are you open on Sunday?').waitFor();
    expect(await recent.getByText('When do you open?').count()).toBe(0);
    await screenshot(page, 'home-all-set');
    // A conversation on Home opens that conversation in the inbox, not the inbox alone.
    await recent.getByText('Are you open on Sunday?').click();
    await page.waitForURL('**/inbox');
    await page
      .getByTestId('inbox-thread')
      .getByTestId('user-message')
      .filter({ hasText: 'Are you open on Sunday?' })
      .waitFor();
  });

  it('shows a Member without Manage Bots or Inbox every bot until the owner restricts them, no prompt to create one, no conversations', async () => {
    const { page: ownerPage } = await h.newPage();
    screenshotOnFailure(ownerPage, 'home-member-owner');
    await signUp(ownerPage, person('olga'));
    await createBotViaApi(h, ownerPage, { bot_name: 'Alpha_bot' });
    const beta = await createBotViaApi(h, ownerPage, { bot_name: 'Beta_bot' });

    const { page, userId } = await joinAsTeammate(h, ownerPage, 'Member', person('milo'));
    screenshotOnFailure(page, 'home-member');
    // A teammate works with every bot, new ones included, until the owner restricts them (issue 31).
    const everyBot = page.getByRole('list', { name: 'Your bots' });
    await everyBot.getByText('Alpha_bot').waitFor();
    await everyBot.getByText('Beta_bot').waitFor();

    await apiCall(h, await tokenOf(ownerPage), 'PUT', `/auth/bots-assigned/${userId}`, {
      bot_ids: [beta.bot_id],
    });
    await page.reload();
    const bots = page.getByRole('list', { name: 'Your bots' });
    await bots.getByText('Beta_bot').waitFor();
    await screenshot(page, 'home-member');
    expect(await bots.getByText('Alpha_bot').count()).toBe(0);
    // Nothing they cannot open or do: no links to bot pages, no create prompt, no inbox, no usage, no checklist.
    expect(await bots.getByRole('link').count()).toBe(0);
    expect(await page.getByText('No bots yet').count()).toBe(0);
    expect(await page.getByRole('link', { name: /Create a bot/ }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Recent conversations' }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'This month' }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Get started' }).count()).toBe(0);
    // A Member does not read Leads: no card for them.
    expect(await page.getByRole('region', { name: 'New leads' }).count()).toBe(0);
  });

  it('shows new leads: what a lead is until a visitor leaves one, then the lead, which opens in Leads', async () => {
    const { page } = await h.newPage();
    screenshotOnFailure(page, 'home-leads');
    await signUp(page, person('lena'));
    const bot = await createBotViaApi(h, page, { bot_name: 'Lead_catcher' });
    await page.goto('/home');

    // No lead yet, and no form on: the card says what a lead is and leads to the bot's form.
    const card = page.getByRole('region', { name: 'New leads' });
    await card.getByText('No leads yet').waitFor();
    await card.getByText(/A lead is a visitor who left their name or email/).waitFor();
    await card.screenshot({ path: path.join(ARTIFACTS, 'home-leads-empty.png') });
    await card.getByRole('link', { name: 'Turn on the lead form' }).click();
    await page.waitForURL(`**/bot/${bot.bot_id}?tab=appearance`);
    await page.getByLabel('Ask visitors for their details').check();
    await page.getByRole('combobox', { name: 'Show the form' }).click();
    await page.getByRole('option', { name: 'Before the first message' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: MESSAGES.bots.updated }).first().waitFor();

    // A visitor on the bot's chat page leaves their details before asking anything.
    const visitor = await openChatPage(h, bot.uuid, 'home-leads-visitor');
    const form = visitor.getByRole('form', { name: 'Leave your details' });
    await form.getByRole('textbox', { name: 'Name' }).fill('Lia Visitor');
    await form.getByRole('textbox', { name: 'Email' }).fill('lia@example.com');
    await form.getByRole('button', { name: 'Send' }).click();
    await visitor.getByText(LEAD_TEXTS.received).waitFor();

    await page.goto('/home');
    await card.getByTestId('home-leads-count').filter({ hasText: /^1$/ }).waitFor();
    await card.getByText('lead in the last 7 days').waitFor();
    // The week's bars: drawn once the chart has loaded, and read out as numbers.
    const bars = card.getByRole('img', { name: /^Leads per day/ });
    expect(await bars.getAttribute('aria-label')).toContain('Last 24 hours: 1');
    await bars.locator('svg').first().waitFor();
    const newest = card.getByRole('list', { name: 'Newest leads' });
    const lead = newest.getByRole('link').filter({ hasText: 'Lia Visitor' });
    await lead.getByText('Lead_catcher · just now').waitFor();
    expect(await card.getByRole('link', { name: 'See all leads' }).getAttribute('href')).toBe('/leads');
    await card.screenshot({ path: path.join(ARTIFACTS, 'home-leads.png') });
    await screenshot(page, 'home-leads-page');

    // The lead opens its bot's leads, where it is listed.
    await lead.click();
    await page.waitForURL(`**/leads?bot=${bot.bot_id}`);
    const row = page
      .getByRole('table', { name: 'Leads' })
      .getByRole('row')
      .filter({ hasText: 'Lia Visitor' });
    await row.getByText('lia@example.com').waitFor();
  });
});
