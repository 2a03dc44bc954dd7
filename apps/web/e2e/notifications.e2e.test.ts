import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createBotViaApi,
  type Harness,
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

/** The number in the bell's label, "Notifications (n)" (read from the DOM: an open list hides the rest from roles). */
const bellCount = async (page: Page) =>
  Number(
    (await page.locator('button[aria-label^="Notifications"]').getAttribute('aria-label'))?.match(
      /\((\d+)\)/,
    )?.[1] ?? -1,
  );

/**
 * The bell from the server (issue 21 item 4): a visitor asks for a person; the owner's bell counts
 * the hand-off request, still after a reload (the count is the server's, not the tab's); opening
 * the bell resets it, goes to /inbox and lists the request, which opens its conversation.
 */
describe('notifications', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('a hand-off request rings the bell from the server, after a reload too, and links to its conversation', async () => {
    const { page: owner } = await h.newPage({ width: 1366, height: 900 });
    screenshotOnFailure(owner, 'notifications-owner');
    await signUp(owner, person('nora'));
    const bot = await createBotViaApi(h, owner, { bot_name: 'Bell helper', is_public: 'true' });
    expect(await bellCount(owner)).toBe(0);

    const visitor = await openChatPage(h, bot.uuid, 'notifications-visitor');
    await say(visitor, 'Where is my parcel?');
    await say(visitor, 'I want to talk to a human');
    await visitor.getByTestId('system-message').first().waitFor();

    // Live: the admin channel's notification event makes the bell fetch the server's count.
    await expect.poll(() => bellCount(owner), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    // After a reload the tab's own counting is gone: what remains is the server's hand-off request.
    await owner.reload();
    await expect.poll(() => bellCount(owner), { timeout: 15_000 }).toBe(1);
    await screenshot(owner, 'notifications-bell');

    // Opening the bell resets the count, goes to /inbox and lists the request.
    await owner.getByRole('button', { name: /^Notifications/ }).click();
    await owner.waitForURL('**/inbox');
    const item = owner.getByTestId('notification-item').filter({ hasText: 'A visitor asks for a person' });
    await item.waitFor();
    expect(await item.getAttribute('data-read')).toBe('false');
    await expect.poll(() => bellCount(owner)).toBe(0);
    await screenshot(owner, 'notifications-list');

    // It links to the conversation: the thread opens with the visitor's words.
    await item.click();
    const thread = owner.getByTestId('inbox-thread');
    await thread.getByTestId('user-message').filter({ hasText: 'I want to talk to a human' }).waitFor();

    // Seen and read are the server's: a reload keeps the bell at 0 and the request read.
    await owner.reload();
    await owner.getByTestId('inbox-bot').first().waitFor();
    await expect.poll(() => bellCount(owner)).toBe(0);
    await owner.getByRole('button', { name: /^Notifications/ }).click();
    const again = owner.getByTestId('notification-item').filter({ hasText: 'A visitor asks for a person' });
    await again.waitFor();
    expect(await again.getAttribute('data-read')).toBe('true');
  });
});
