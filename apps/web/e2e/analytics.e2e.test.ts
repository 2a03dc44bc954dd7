import { ANALYTICS_PLAN_TEXTS } from '@parley/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addTrainedQna,
  createBotViaApi,
  customerSite,
  type Harness,
  openChatPage,
  person,
  screenshot,
  screenshotOnFailure,
  signUp,
  startHarness,
} from './harness';

const QUESTION = 'Do you ship abroad?';
const ANSWER = 'Yes, we ship to 40 countries.';

async function ask(chat: ReturnType<Page['getByRole']>, text: string): Promise<void> {
  const box = chat.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

describe('analytics', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it("draws the figures and charts from a visitor's real conversation and rating", async () => {
    const { page: owner } = await h.newPage();
    screenshotOnFailure(owner, 'analytics-owner');
    await signUp(owner, person('analyst'));
    const token = await owner.evaluate(() => localStorage.getItem('accessToken'));
    const bot = await createBotViaApi(h, owner, { bot_name: 'Acme helper', is_public: 'true' });
    await addTrainedQna(h, token, bot.bot_id, { question: QUESTION, answer: ANSWER });

    // A visitor on the customer's site: one question the Q&A answers (rated up), one it cannot.
    const site = await customerSite(`${h.baseUrl}/widget.js`, bot.uuid);
    try {
      const { page } = await h.newPage({ width: 1200, height: 850 });
      screenshotOnFailure(page, 'analytics-widget');
      await page.goto(`${site.origin}/`);
      await page.getByRole('button', { name: 'Open chat' }).click();
      const chat = page.getByRole('dialog', { name: 'Chat with Acme helper' });
      await chat
        .locator('[data-testid="connection-status"][data-status="open"]')
        .first()
        .waitFor({ timeout: 20_000 });
      await ask(chat, QUESTION);
      const answers = chat.getByTestId('bot-message');
      const shipping = answers.filter({ hasText: ANSWER });
      await shipping.waitFor({ timeout: 30_000 });
      const good = shipping.getByRole('button', { name: 'Good answer' });
      await good.click();
      await expect.poll(() => good.getAttribute('aria-pressed')).toBe('true');
      await ask(chat, 'What is the capital of Peru?');
      await expect.poll(() => answers.count(), { timeout: 30_000 }).toBe(2);
      expect(await answers.nth(1).getAttribute('data-answer-mode')).toBe('not_found');
      await screenshot(page, 'analytics-widget-rated');

      // A reload resumes the conversation (left open) with the visitor's thumb as they left it.
      await page.reload();
      const reopened = page.getByRole('dialog', { name: 'Chat with Acme helper' });
      const shippingAgain = reopened.getByTestId('bot-message').filter({ hasText: ANSWER });
      await shippingAgain.waitFor({ timeout: 20_000 });
      await expect
        .poll(() => shippingAgain.getByRole('button', { name: 'Good answer' }).getAttribute('aria-pressed'))
        .toBe('true');
      expect(
        await shippingAgain.getByRole('button', { name: 'Bad answer' }).getAttribute('aria-pressed'),
      ).toBe('false');
      const unrated = reopened.locator('[data-testid="bot-message"][data-answer-mode="not_found"]');
      expect(await unrated.getByRole('button', { name: 'Good answer' }).getAttribute('aria-pressed')).toBe(
        'false',
      );
      await screenshot(page, 'analytics-widget-reloaded');
    } finally {
      await site.close();
    }

    // The owner's analytics page: the numbers of that conversation, drawn from the server.
    await owner.goto('/analytics');
    await owner.getByRole('heading', { name: 'Analytics' }).waitFor();
    const figure = (id: string) => owner.getByTestId(`figure-${id}`);
    await expect.poll(() => figure('conversations').innerText(), { timeout: 15_000 }).toBe('1');
    expect(await figure('messages').innerText()).toBe('5'); // welcome, two questions, two answers
    expect(await figure('answer-rate').innerText()).toBe('50%');
    expect(await figure('unanswered').innerText()).toBe('1');
    expect(await owner.getByTestId('satisfaction-counts').innerText()).toBe('1 thumbs up, 0 thumbs down');
    expect(await owner.getByTestId('satisfaction-score').innerText()).toBe('100%');
    const asked = owner.getByRole('region', { name: 'Most asked questions' });
    await asked.getByText('do you ship abroad').waitFor();
    await owner
      .getByRole('region', { name: 'Unanswered questions' })
      .getByText('What is the capital of Peru?')
      .waitFor();

    // The charts: per day by channel (the website), and who answered (one Q&A, one unanswered).
    const perDay = owner.getByRole('region', { name: 'Conversations per day by channel' });
    await perDay.locator('svg').first().waitFor();
    await perDay.getByText('Website').first().waitFor();
    const line = perDay.locator('path.MuiLineElement-root, .MuiLineElement-root').first();
    await line.waitFor();
    const whoAnswered = owner.getByRole('region', { name: 'Who answered' });
    await whoAnswered.getByText('Q&A').first().waitFor();
    const bars = whoAnswered.locator('.MuiBarElement-root');
    // Zero-length bars are drawn too; two carry the visitor's answers.
    await expect
      .poll(async () => {
        const widths = await bars.evaluateAll((nodes) =>
          nodes.map((node) => (node as SVGGraphicsElement).getBBox().width),
        );
        return widths.filter((width) => width > 0).length;
      })
      .toBe(2);
    await owner
      .getByTestId('attribution-rule')
      .getByText(/7 days/)
      .waitFor();
    await screenshot(owner, 'analytics-page');

    // Home: the last 30 days beside the rest.
    await owner.goto('/home');
    await expect
      .poll(() => owner.getByTestId('home-conversations').innerText(), { timeout: 15_000 })
      .toBe('1');
    expect(await owner.getByTestId('home-answer-rate').innerText()).toBe('50%');

    // The playground: the owner's own thumb comes back with the conversation after a reload.
    await owner.goto(`/bot/${bot.bot_id}/playground`);
    const box = owner.getByRole('textbox', { name: 'Message' });
    await box.fill(QUESTION);
    await box.press('Enter');
    const tried = owner.getByTestId('bot-message').filter({ hasText: ANSWER });
    await tried.waitFor({ timeout: 30_000 });
    await tried.getByRole('button', { name: 'Bad answer' }).click();
    await expect
      .poll(() => tried.getByRole('button', { name: 'Bad answer' }).getAttribute('aria-pressed'))
      .toBe('true');
    await owner.reload();
    const triedAgain = owner.getByTestId('bot-message').filter({ hasText: ANSWER });
    await triedAgain.waitFor({ timeout: 20_000 });
    await expect
      .poll(() => triedAgain.getByRole('button', { name: 'Bad answer' }).getAttribute('aria-pressed'))
      .toBe('true');
    expect(await triedAgain.getByRole('button', { name: 'Good answer' }).getAttribute('aria-pressed')).toBe(
      'false',
    );
  });

  it("rates an answer on a bot's full-page chat as its visitor, and the thumb survives a reload", async () => {
    const { page: owner } = await h.newPage();
    screenshotOnFailure(owner, 'analytics-fullpage-owner');
    await signUp(owner, person('fullpage'));
    const token = await owner.evaluate(() => localStorage.getItem('accessToken'));
    const bot = await createBotViaApi(h, owner, { bot_name: 'Acme page', is_public: 'true' });
    await addTrainedQna(h, token, bot.bot_id, { question: QUESTION, answer: ANSWER });

    // Enter does nothing until the chat is connected, which on a loaded machine takes a while.
    const page = await openChatPage(h, bot.uuid, 'analytics-fullpage');
    await ask(page.locator('body'), QUESTION);
    const answer = page.getByTestId('bot-message').filter({ hasText: ANSWER });
    await answer.waitFor({ timeout: 30_000 });
    const good = answer.getByRole('button', { name: 'Good answer' });
    await good.click();
    await expect.poll(() => good.getAttribute('aria-pressed')).toBe('true');

    await page.reload();
    const again = page.getByTestId('bot-message').filter({ hasText: ANSWER });
    await again.waitFor({ timeout: 20_000 });
    await expect
      .poll(() => again.getByRole('button', { name: 'Good answer' }).getAttribute('aria-pressed'))
      .toBe('true');
    await screenshot(page, 'analytics-fullpage-rated');

    await owner.goto('/analytics');
    await expect
      .poll(() => owner.getByTestId('satisfaction-counts').innerText(), { timeout: 15_000 })
      .toBe('1 thumbs up, 0 thumbs down');
  });
});

describe('analytics on the Free plan', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { PLAN_LIMITS: 'on' } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('asks only for what the plan includes: no 402 in the console, a note where insights would be', async () => {
    const { page } = await h.newPage();
    screenshotOnFailure(page, 'analytics-free');
    await signUp(page, person('frugal'));
    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 402) refused.push(response.url());
    });
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto('/analytics');
    await page.getByRole('heading', { name: 'Analytics' }).waitFor();
    await page.getByText(ANALYTICS_PLAN_TEXTS.needsAdvanced).waitFor();
    await page.waitForTimeout(1000);
    expect(refused).toEqual([]);
    expect(errors.filter((text) => text.includes('402'))).toEqual([]);
    await screenshot(page, 'analytics-free');
  });
});
