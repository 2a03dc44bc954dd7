import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBotViaApi, type Harness, person, screenshotOnFailure, signUp, startHarness } from './harness';

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
});
