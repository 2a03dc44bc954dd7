import { NOTIFICATION_LIMITS } from '@parley/contracts';
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
 * `count` visitors of the bot each press "Talk to a person" over the widget's socket, from a page of
 * the console's origin: `count` hand-off requests, each a notification of its own.
 */
async function visitorsAskForPeople(page: Page, bot: { bot_id: number; uuid: string }, count: number) {
  await page.goto('/login');
  await page.evaluate(
    async ({ bot, count }) => {
      const askOnce = async () => {
        const identity = await fetch('/api/chat/visitor', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ bot_uuid: bot.uuid }),
        }).then((r) => r.json() as Promise<{ visitor_token: string }>);
        const url = `${location.origin.replace('http', 'ws')}/api/chat/stream?visitor_token=${identity.visitor_token}`;
        const socket = new WebSocket(url);
        await new Promise<void>((resolve, reject) => {
          socket.onmessage = (event) => {
            const frame = JSON.parse(event.data as string) as {
              type?: string;
              final_result_object?: { handoff?: { to?: string } | null };
            };
            if (frame.type === 'connected') {
              socket.send(JSON.stringify({ type: 'request_human', bot_id: bot.bot_id, conversation_id: 0 }));
            }
            if (frame.final_result_object?.handoff?.to === 'human_requested') resolve();
          };
          socket.onerror = () => reject(new Error('socket failed'));
          socket.onopen = () =>
            socket.send(
              JSON.stringify({
                content: { bot_id: 0, conversation_id: 0, message: 'connection', message_type: 'user' },
                elements: [],
              }),
            );
        });
        socket.close();
      };
      for (let i = 0; i < count; i++) await askOnce();
    },
    { bot, count },
  );
}

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

  it('shows older notifications a page at a time, down to the first, and marks them all read', async () => {
    const { page: owner } = await h.newPage({ width: 1366, height: 900 });
    screenshotOnFailure(owner, 'notifications-paging');
    await signUp(owner, person('paula'));
    const bot = await createBotViaApi(h, owner, { bot_name: 'Busy desk', is_public: 'true' });
    const { page: visitors } = await h.newPage();
    await visitorsAskForPeople(visitors, bot, NOTIFICATION_LIMITS.pageSize + 3);
    await expect.poll(() => bellCount(owner), { timeout: 20_000 }).toBe(NOTIFICATION_LIMITS.pageSize + 3);

    await owner.getByRole('button', { name: /^Notifications/ }).click();
    const items = owner.getByTestId('notification-item');
    await expect.poll(() => items.count()).toBe(NOTIFICATION_LIMITS.pageSize);
    await owner.getByRole('button', { name: 'Show older' }).click();
    await expect.poll(() => items.count()).toBe(NOTIFICATION_LIMITS.pageSize + 3);
    // The last page reached, nothing more to show.
    await owner.getByRole('button', { name: 'Show older' }).waitFor({ state: 'detached' });
    await screenshot(owner, 'notifications-older');

    await owner.getByRole('button', { name: 'Mark all read' }).click();
    await expect
      .poll(async () =>
        (await items.evaluateAll((els) => els.map((e) => e.getAttribute('data-read')))).join(),
      )
      .toBe(
        Array(NOTIFICATION_LIMITS.pageSize + 3)
          .fill('true')
          .join(),
      );
  });
});
