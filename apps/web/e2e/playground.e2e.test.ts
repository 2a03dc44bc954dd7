import { type Bot, LEAD_TEXTS } from '@parley/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addTrainedQna,
  apiCall,
  createBotViaApi,
  type Harness,
  person,
  screenshot,
  screenshotOnFailure,
  signUp,
  startHarness,
} from './harness';

const QUESTION = 'Do you ship abroad?';
const ANSWER = 'Yes, we ship to 40 countries.';
const BOOKING_URL = 'https://cal.example.com/shipping-helper';

/** A public bot with one suggested question and one trained Q&A pair, made through the API. */
async function seedBot(h: Harness, page: Page): Promise<Bot> {
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const form = new FormData();
  form.set('bot_name', 'Shipping helper');
  form.set('is_public', 'true');
  form.set('suggestion_questions', JSON.stringify([QUESTION]));
  form.set(
    'lead_form_config',
    JSON.stringify({
      enabled: true,
      title: 'Leave your details',
      show_when: 'before_chat',
      fields: [
        { name: 'name', label: 'Name', type: 'text', required: true },
        { name: 'email', label: 'Email', type: 'email', required: true },
      ],
    }),
  );
  const bot = await apiCall<Bot>(h, token, 'POST', '/chat/bots', form);
  await addTrainedQna(h, token, bot.bot_id, { question: QUESTION, answer: ANSWER });
  await apiCall(h, token, 'POST', `/bots/${bot.bot_id}/calendar-booking`, {
    title: 'Book a demo',
    message: 'Pick a time that suits you.',
    provider: 'cal',
    url: BOOKING_URL,
  });
  return bot;
}

describe('bot playground and full-page chat', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('answers in the playground with sources, then on the public full-page chat over the socket, once after a reload', async () => {
    const { page } = await h.newPage();
    screenshotOnFailure(page, 'playground');
    await signUp(page, person('player'));
    const bot = await seedBot(h, page);

    // Playground: the welcome message, the suggested question, the answer with its Q&A badge.
    await page.goto(`/bot/${bot.bot_id}/playground`);
    await page.getByRole('heading', { name: 'Shipping helper' }).waitFor();
    await page.getByTestId('welcome-message').waitFor();
    // No language model: the caption names no temperature, which the built-in answerer does not have.
    await page.getByText('Playground · built-in answers').waitFor();
    // The default greeting is a sentence naming the business (the workspace has its automatic name,
    // so the bot's).
    expect(await page.getByTestId('welcome-message').innerText()).toContain(
      'Welcome to Shipping helper! How can I help you today?',
    );
    expect(await page.getByRole('link', { name: 'Back to bot' }).getAttribute('href')).toBe(
      `/bot/${bot.bot_id}`,
    );
    await page
      .getByRole('group', { name: 'Suggested questions' })
      .getByRole('button', { name: QUESTION })
      .click();
    const answers = page.getByTestId('bot-message');
    const shipping = answers.filter({ hasText: ANSWER });
    await shipping.waitFor({ timeout: 30_000 });
    await shipping.getByText('Q&A', { exact: true }).waitFor();
    expect(await page.getByTestId('user-message').filter({ hasText: QUESTION }).count()).toBe(1);

    // Something the bot does not know: it says so.
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('What is the capital of Peru?');
    await box.press('Enter');
    await expect.poll(() => answers.count(), { timeout: 30_000 }).toBe(2);
    expect(await answers.nth(1).innerText()).toMatch(/don.t know the answer|couldn.t find|no information/i);
    await screenshot(page, 'playground-answers');

    // "Why this answer?" shows the owner the decision behind that answer, its question searched.
    await answers.nth(1).getByRole('button', { name: 'Why this answer?' }).click();
    const why = page.getByRole('alert', { name: 'What the bot would do' });
    await why.getByText(/^Would not answer/).waitFor({ timeout: 20_000 });
    expect(await page.getByRole('textbox', { name: 'Question' }).inputValue()).toBe(
      'What is the capital of Peru?',
    );
    await screenshot(page, 'playground-why');
    await page.keyboard.press('Escape');

    // What to add is one click away: a Q&A pair for that very question (test chats never reach the
    // unanswered queue, so the playground offers it at once).
    expect(await answers.nth(0).getByRole('button', { name: 'Answer it with a Q&A pair' }).count()).toBe(0);
    await answers.nth(1).getByRole('button', { name: 'Answer it with a Q&A pair' }).click();
    const add = page.getByRole('dialog', { name: 'Add Q&A' });
    expect(await add.getByLabel('Question', { exact: true }).inputValue()).toBe(
      'What is the capital of Peru?',
    );
    await add.getByLabel('Answer', { exact: true }).fill('Lima, though we only ship parcels there.');
    await screenshot(page, 'playground-answer-with-pair');
    await add.getByRole('button', { name: 'Add', exact: true }).click();
    await add.waitFor({ state: 'hidden' });
    await page.getByText('Q&A added').first().waitFor();

    // A reload shows the same conversation.
    await page.reload();
    await shipping.waitFor();
    await expect.poll(() => answers.count()).toBe(2);
    expect(await page.getByTestId('welcome-message').count()).toBe(1);

    // Full-screen chat hides the shell's bar and menu; the way out brings them back.
    await page.getByRole('button', { name: 'Full screen' }).click();
    await page.getByRole('button', { name: 'Exit full screen' }).click();
    await page.getByRole('button', { name: 'Full screen' }).waitFor();

    // New chat: an empty conversation with the suggestions again.
    await page.getByRole('button', { name: 'New chat' }).click();
    await expect.poll(() => answers.count()).toBe(0);
    await page.getByRole('group', { name: 'Suggested questions' }).waitFor();
    // The pair trains within seconds of being added: asked again, the bot answers with it.
    await expect
      .poll(
        async () => {
          const token = await page.evaluate(() => localStorage.getItem('accessToken'));
          const pairs = await apiCall<Array<{ trained: boolean }>>(
            h,
            token,
            'GET',
            `/qna/?bot_id=${bot.bot_id}`,
          );
          return pairs.length === 2 && pairs.every((pair) => pair.trained);
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    await box.fill('what is the capital of peru');
    await box.press('Enter');
    const peru = answers.filter({ hasText: 'Lima, though we only ship parcels there.' });
    await peru.waitFor({ timeout: 30_000 });
    await peru.getByText('Q&A', { exact: true }).waitFor();
    await screenshot(page, 'playground-answered-with-pair');

    // The public full-page chat, as a visitor without login, over the WebSocket.
    const { page: visitor } = await h.newPage({ width: 420, height: 720 });
    screenshotOnFailure(visitor, 'full-page-chat');
    await visitor.goto(`/chat/${bot.uuid}`);
    await visitor.getByRole('heading', { name: 'Shipping helper' }).waitFor();
    await visitor
      .locator('[data-testid="connection-status"][data-status="open"]')
      .first()
      .waitFor({ timeout: 20_000 });
    // The booking card and the lead form, checked before sending.
    const booking = visitor.getByRole('region', { name: 'Book a meeting' });
    await booking.getByText('Book a demo').waitFor();
    expect(await booking.getByRole('link', { name: 'Book a time' }).getAttribute('href')).toBe(BOOKING_URL);
    const leadForm = visitor.getByRole('form', { name: 'Leave your details' });
    await leadForm.getByRole('button', { name: 'Send' }).click();
    await leadForm.getByText('Name is required').waitFor();
    await leadForm.getByText('Email is required').waitFor();
    await leadForm.getByRole('textbox', { name: 'Name' }).fill('Ana Visitor');
    await leadForm.getByRole('textbox', { name: 'Email' }).fill('not-an-email');
    await leadForm.getByRole('button', { name: 'Send' }).click();
    await leadForm.getByText('Enter a valid email address').waitFor();
    await leadForm.getByRole('textbox', { name: 'Email' }).fill('ana@example.com');
    await leadForm.getByRole('button', { name: 'Send' }).click();
    await visitor.getByText(LEAD_TEXTS.received).waitFor();

    const input = visitor.getByRole('textbox', { name: 'Message' });
    await input.fill(QUESTION);
    await input.press('Enter');
    const widgetAnswers = visitor.getByTestId('bot-message');
    await widgetAnswers.filter({ hasText: ANSWER }).waitFor({ timeout: 30_000 });
    await screenshot(visitor, 'full-page-chat-answer');

    // A reload resumes the same conversation: its history once, no doubles.
    await visitor.reload();
    await visitor
      .locator('[data-testid="connection-status"][data-status="open"]')
      .first()
      .waitFor({ timeout: 20_000 });
    await widgetAnswers.filter({ hasText: ANSWER }).waitFor({ timeout: 15_000 });
    await visitor.waitForTimeout(1000);
    expect(await widgetAnswers.count()).toBe(1);
    expect(await visitor.getByTestId('user-message').count()).toBe(1);
    // The welcome the server stored as the conversation's first message shows once, as the welcome.
    expect(await visitor.getByTestId('welcome-message').count()).toBe(1);
  });

  it('answers from an attached file, streaming, with the file as its source', async () => {
    const { page } = await h.newPage();
    screenshotOnFailure(page, 'playground-file');
    await signUp(page, person('filer'));
    const token = await page.evaluate(() => localStorage.getItem('accessToken'));
    const me = await apiCall<{ id: number }>(h, token, 'GET', '/auth/user');
    const upload = new FormData();
    upload.set('group_name', 'policies');
    upload.set('user_id', String(me.id));
    upload.append(
      'files',
      new Blob([
        'Returns policy\n\nUnworn shoes can be returned within 30 days of delivery for a full refund.',
      ]),
      'returns-policy.txt',
    );
    const group = await apiCall<{ id: number }>(h, token, 'POST', '/file/upload-multiple', upload);
    await expect
      .poll(
        async () =>
          (
            await apiCall<Array<{ id: number; files: Array<{ trained: boolean }> }>>(
              h,
              token,
              'GET',
              `/file/file-groups/user/${me.id}`,
            )
          )
            .find((g) => g.id === group.id)
            ?.files.every((f) => f.trained),
        { timeout: 30_000, interval: 250 },
      )
      .toBe(true);
    const bot = await createBotViaApi(h, page, {
      bot_name: 'Policy helper',
      file_group_ids: JSON.stringify([group.id]),
    });

    await page.goto(`/bot/${bot.bot_id}/playground`);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Can I return shoes for a refund?');
    await box.press('Enter');
    const answer = page.getByTestId('bot-message').filter({ hasText: 'within 30 days' });
    await answer.waitFor({ timeout: 30_000 });
    await answer.getByText('returns-policy.txt', { exact: false }).first().waitFor();
    // Whole sentences of the source, never a word about models to the visitor; the owner is told why.
    const note = answer.getByTestId('answer-mode-note');
    await note.getByRole('link', { name: 'LLM settings' }).waitFor();
    const said = (await answer.innerText()).replace(await note.innerText(), '');
    expect(said).toContain('Unworn shoes can be returned within 30 days of delivery for a full refund.');
    expect(said).not.toMatch(/language model|set up/i);
    await screenshot(page, 'playground-file-answer');

    // The same bot on its public page: the same answer, without the owner's note.
    const { page: visitor } = await h.newPage();
    await visitor.goto(`/chat/${bot.uuid}`);
    await visitor
      .locator('[data-testid="connection-status"][data-status="open"]')
      .first()
      .waitFor({ timeout: 20_000 });
    const visitorBox = visitor.getByRole('textbox', { name: 'Message' });
    await visitorBox.fill('Can I return shoes for a refund?');
    await visitorBox.press('Enter');
    const visitorAnswer = visitor.getByTestId('bot-message').filter({ hasText: 'within 30 days' });
    await visitorAnswer.waitFor({ timeout: 30_000 });
    expect(await visitorAnswer.innerText()).not.toMatch(/language model|Extractive/i);
    expect(await visitorAnswer.getByTestId('answer-mode-note').count()).toBe(0);
  });
});
