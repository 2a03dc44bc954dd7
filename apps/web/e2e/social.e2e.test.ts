import { SOCIAL_TEXTS } from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type MetaGraphFake,
  messengerEdit,
  messengerText,
  startMetaGraphFake,
} from '../../server/src/test/fakes/meta-graph';
import {
  addTrainedQna,
  createBotViaApi,
  type Harness,
  person,
  screenshot,
  screenshotOnFailure,
  signUp,
  startHarness,
} from './harness';

const APP = { appId: '4242424242', appSecret: 'browser-test-meta-secret' };
const QUESTION = 'Do you ship to Canada?';
const ANSWER = 'Yes, parcels to Canada arrive in five to seven working days.';

/**
 * Messenger as a shop owner meets it (issue 16): connect a page through Facebook Login (the fake's
 * dialog), link a bot, a customer's direct message gets the bot's answer, then the owner takes over
 * in the inbox and the reply reaches the customer.
 */
describe('Instagram and Messenger', () => {
  let h: Harness;
  let fake: MetaGraphFake;
  beforeAll(async () => {
    fake = await startMetaGraphFake(APP);
    h = await startHarness({
      env: {
        META_APP_ID: APP.appId,
        META_APP_SECRET: APP.appSecret,
        META_VERIFY_TOKEN: 'browser-verify',
        META_GRAPH_URL: fake.url,
        META_LOGIN_URL: fake.dialogUrl,
      },
    });
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  it('connects a page, links a bot, answers a direct message, and an agent takes over', async () => {
    const { page } = await h.newPage({ width: 1440, height: 1000 });
    screenshotOnFailure(page, 'social');
    await signUp(page, person('mira'));
    const bot = await createBotViaApi(h, page, { bot_name: 'Shop helper' });
    const token = await page.evaluate(() => localStorage.getItem('accessToken'));
    await addTrainedQna(h, token, bot.bot_id, { question: QUESTION, answer: ANSWER });

    // Facebook Login: the dialog grants one page and sends the browser back with a code.
    await page.goto('/integrations');
    const card = page.getByRole('region', { name: 'Messenger' });
    await card.getByText('No Messenger account connected yet.').waitFor();
    fake.grantNext([{ id: 'page-777', name: 'Corner Shop' }]);
    await card.getByRole('button', { name: 'Connect Messenger' }).click();
    await page.getByText(SOCIAL_TEXTS.exchanged.messenger).first().waitFor();
    await page.waitForURL('**/integrations');
    const account = card.getByRole('listitem', { name: 'Corner Shop' });
    await account.getByText('Active').waitFor();
    expect(fake.subscriptions.get('page-777')).toContain('messages');

    // Link the bot.
    await account.getByRole('combobox').click();
    await page.getByRole('option', { name: 'Shop helper' }).click();
    await page.getByText(SOCIAL_TEXTS.linked.messenger).first().waitFor();
    await account.getByRole('button', { name: 'Unlink' }).waitFor();
    await screenshot(page, 'social-connected');

    // A customer writes on Messenger: the bot answers through the Send API.
    fake.addUser({
      id: 'psid-1',
      first_name: 'Lena',
      last_name: 'Park',
      profile_pic: 'https://pics.example/lena.jpg',
    });
    const delivered = await fake.postWebhook(
      `${h.baseUrl}/api/social/messenger/webhook`,
      messengerText({ pageId: 'page-777', senderId: 'psid-1', mid: 'mid-question', text: QUESTION }),
    );
    expect(delivered.status).toBe(200);
    await expect.poll(() => fake.texts('psid-1'), { timeout: 20_000 }).toEqual([ANSWER]);

    // In the inbox: the channel and the customer's name; take over and reply.
    await page.goto('/inbox');
    const item = page.getByTestId('inbox-conversation').filter({ hasText: QUESTION }).first();
    await item.waitFor({ timeout: 15_000 });
    expect(await item.locator('[data-channel="messenger"]').count()).toBe(1);
    await item.click();
    const thread = page.getByTestId('inbox-thread');
    await thread.getByTestId('user-message').filter({ hasText: QUESTION }).waitFor();
    await thread.getByRole('button', { name: 'Take over' }).click();
    const box = thread.getByRole('textbox', { name: 'Message' });
    await box.fill('Hi Lena, Mira here. Which city?');
    await box.press('Enter');
    await expect
      .poll(() => fake.texts('psid-1').at(-1), { timeout: 20_000 })
      .toBe('Hi Lena, Mira here. Which city?');
    // Lena edits her question in Messenger: the open thread shows the new words, marked edited.
    await fake.postWebhook(
      `${h.baseUrl}/api/social/messenger/webhook`,
      messengerEdit({
        pageId: 'page-777',
        senderId: 'psid-1',
        mid: 'mid-question',
        text: 'Do you ship to Canada and Mexico?',
        count: 1,
      }),
    );
    await thread
      .getByTestId('user-message')
      .filter({ hasText: 'Do you ship to Canada and Mexico? (edited)' })
      .waitFor({ timeout: 15_000 });
    await screenshot(page, 'social-inbox');

    // A message Meta dates eight days back: past the window, the answer is refused and the reply
    // box says why.
    await fake.postWebhook(
      `${h.baseUrl}/api/social/messenger/webhook`,
      messengerText({
        pageId: 'page-777',
        senderId: 'psid-2',
        text: 'Old question about returns',
        timestamp: Date.now() - 8 * 86_400_000,
      }),
    );
    const late = page
      .getByTestId('inbox-conversation')
      .filter({ hasText: 'Old question about returns' })
      .first();
    await late.waitFor({ timeout: 15_000 });
    await late.click();
    await thread
      .getByTestId('delivery-failed')
      .filter({ hasText: SOCIAL_TEXTS.windowClosed })
      .waitFor({ timeout: 15_000 });
    await thread.getByRole('button', { name: 'Take over' }).click();
    await thread.getByTestId('reply-window').filter({ hasText: SOCIAL_TEXTS.windowClosed }).waitFor();
    expect(await thread.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
    expect(fake.texts('psid-2')).toEqual([]);
    await screenshot(page, 'social-window-closed');

    // Disconnect, after a confirmation.
    await page.goto('/integrations');
    await account.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Disconnect' }).click();
    await page.getByText(SOCIAL_TEXTS.disconnected.messenger).first().waitFor();
    await card.getByText('No Messenger account connected yet.').waitFor();
    expect(fake.subscriptions.has('page-777')).toBe(false);
  });
});
