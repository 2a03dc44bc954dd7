import { BAD_ANSWER_OFFER } from '@parley/chat-client';
import { HANDOFF_TEXTS, MESSAGES } from '@parley/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createBotViaApi,
  type Harness,
  person,
  screenshot,
  screenshotOnFailure,
  signUp,
  startHarness,
} from './harness';

const createBot = async (h: Harness, page: Page, name: string) =>
  (await createBotViaApi(h, page, { bot_name: name })).bot_id;

describe('Q&A knowledge', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('adds, edits, trains and deletes the Q&A pairs of a chosen bot', async () => {
    const { page } = await h.newPage();
    screenshotOnFailure(page, 'qna');
    await signUp(page, person('quinn'));

    // No bots yet: the page offers the bot wizard instead.
    await page.goto('/bot/knowledge/qna');
    await page.getByRole('heading', { name: 'Q&A', exact: true }).waitFor();
    await page.getByText('You have no bots yet', { exact: false }).waitFor();
    expect(await page.getByRole('link', { name: 'Create a bot' }).getAttribute('href')).toBe('/bot/new');

    await createBot(h, page, 'Sales team');
    const botId = await createBot(h, page, 'Help desk');
    await page.reload();

    // Pick the bot; the choice is kept in the address.
    await page.getByRole('combobox', { name: 'Bot' }).click();
    await page.getByRole('option', { name: 'Help desk' }).click();
    await page.waitForURL(`**/bot/knowledge/qna?bot=${botId}`);
    const section = page.getByRole('region', { name: 'Q&A of Help desk' });
    await section.getByText('No Q&A pairs yet', { exact: false }).waitFor();

    // Where the section starts: no notice may push it down.
    const top = async () => (await section.boundingBox())!.y;
    const before = await top();

    // Add two pairs; an empty submit shows the required-field texts.
    await section.getByRole('button', { name: 'Add Q&A' }).click();
    let dialog = page.getByRole('dialog', { name: 'Add Q&A' });
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog.getByText(MESSAGES.qna.questionRequired).waitFor();
    await dialog.getByText(MESSAGES.qna.answerRequired).waitFor();
    await dialog.getByLabel('Question').fill('What are your opening hours?');
    await dialog.getByLabel('Answer').fill('We open at nine.');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Q&A added').first().waitFor();

    await section.getByRole('button', { name: 'Add Q&A' }).click();
    dialog = page.getByRole('dialog', { name: 'Add Q&A' });
    await dialog.getByLabel('Question').fill('Do you deliver?');
    await dialog.getByLabel('Answer').fill('Yes, anywhere in Lisbon within two days of your order.');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    // One snackbar queue over the page: the second "Q&A added" replaces the first instead of a
    // second banner, and nothing pushes the page down.
    await page.getByRole('alert').filter({ hasText: 'Q&A added' }).first().waitFor();
    expect(await page.getByRole('alert').filter({ hasText: 'Q&A added' }).count()).toBe(1);
    expect(await top()).toBe(before);
    await screenshot(page, 'qna-one-notice');

    const table = section.getByRole('table', { name: 'Q&A pairs of Help desk' });
    await expect.poll(() => table.getByRole('row').count()).toBe(3);
    // Each pair trains as soon as it is saved: no Train press.
    await section.getByText('2 of 2 trained', { exact: false }).waitFor({ timeout: 15_000 });
    await expect.poll(() => table.getByText('Trained', { exact: true }).count()).toBe(2);

    // Edit one.
    await table.getByRole('button', { name: 'Edit What are your opening hours?' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit Q&A' });
    expect(await dialog.getByLabel('Answer').inputValue()).toBe('We open at nine.');
    await dialog.getByLabel('Answer').fill('We open at nine and close at six, Monday to Saturday.');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Q&A updated').first().waitFor();
    await table.getByText('We open at nine and close at six', { exact: false }).waitFor();

    // Train again by hand: a determinate bar with current/total, then every pair trained.
    await section.getByRole('button', { name: 'Train', exact: true }).click();
    const bar = section.getByRole('progressbar', { name: 'Training progress' });
    await bar.waitFor();
    await section.getByText(/Training( completed)?: \d of \d pairs/).waitFor();
    await section.getByText('Training completed: 2 of 2 pairs (100%)').waitFor({ timeout: 30_000 });
    expect(await bar.getAttribute('aria-valuenow')).toBe('100');
    await section.getByText('2 of 2 trained', { exact: false }).waitFor();
    await expect.poll(() => table.getByText('Trained', { exact: true }).count()).toBe(2);
    expect(await table.getByText('Not trained', { exact: true }).count()).toBe(0);
    await screenshot(page, 'qna-trained');

    // Delete one, then all.
    await table.getByRole('button', { name: 'Delete Do you deliver?' }).click();
    await page.getByRole('dialog', { name: 'Delete Q&A' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Q&A deleted successfully').first().waitFor();
    await expect.poll(() => table.getByRole('row').count()).toBe(2);

    await section.getByRole('button', { name: 'Delete all' }).click();
    await page
      .getByRole('dialog', { name: 'Delete all Q&As' })
      .getByRole('button', { name: 'Delete all' })
      .click();
    await page.getByText('1 Q&A pairs deleted').first().waitFor();
    await section.getByText('No Q&A pairs yet', { exact: false }).waitFor();

    // The address still names the chosen bot after a reload; the other bot has pairs of its own.
    await page.reload();
    await page.getByRole('region', { name: 'Q&A of Help desk' }).waitFor();
    await page.getByRole('combobox', { name: 'Bot' }).click();
    await page.getByRole('option', { name: 'Sales team' }).click();
    await page
      .getByRole('region', { name: 'Q&A of Sales team' })
      .getByText('No Q&A pairs yet', { exact: false })
      .waitFor();
    expect(new URL(page.url()).searchParams.get('bot')).not.toBe(String(botId));
  });

  it('answers, from the queue, a question a visitor asked and the bot could not answer; the next visitor gets it', async () => {
    const { page } = await h.newPage();
    screenshotOnFailure(page, 'qna-unanswered');
    await signUp(page, person('una'));
    const bot = await createBotViaApi(h, page, { bot_name: 'Shoe shop' });

    const ask = async (question: string) => {
      const { page: visitor } = await h.newPage();
      await visitor.goto(`/chat/${bot.uuid}`);
      // Enter does nothing until the chat is connected: on a loaded machine that takes a while.
      await visitor
        .locator('[data-testid="connection-status"][data-status="open"]')
        .first()
        .waitFor({ timeout: 20_000 });
      const box = visitor.getByRole('textbox', { name: 'Message' });
      await box.fill(question);
      await box.press('Enter');
      await visitor.getByTestId('user-message').filter({ hasText: question }).waitFor();
      return visitor;
    };
    const first = await ask('Do you ship to Canada?');
    await first.getByText("Sorry, I don't know the answer to that.", { exact: false }).waitFor();
    await ask('do you ship to canada');
    const third = await ask('Shipping to Canada?');
    await third.getByText("Sorry, I don't know the answer to that.", { exact: false }).waitFor();
    // Two visitors typing nonsense, which the owner clears in one go.
    for (const junk of ['asdf qwer zxcv', 'test test 123']) {
      const visitor = await ask(junk);
      await visitor.getByText("Sorry, I don't know the answer to that.", { exact: false }).waitFor();
    }

    // Home lists it among the questions to answer.
    await page.goto('/home');
    await page
      .getByRole('list', { name: 'Questions to answer' })
      .getByRole('link', { name: /Do you ship to Canada\?.*Shoe shop · asked 3 times/ })
      .waitFor();
    await screenshot(page, 'qna-home-questions');
    // Asked a third time: the owner's bell says so, and leads to the queue.
    await page.getByRole('button', { name: /^Notifications/ }).click();
    const told = page
      .getByRole('dialog', { name: 'Notifications' })
      .getByRole('button', { name: /Asked 3 times: “Do you ship to Canada\?”/ });
    await told.waitFor({ timeout: 15_000 });
    await screenshot(page, 'qna-question-repeated-bell');
    await told.click();
    await page.waitForURL(`**/bot/knowledge/qna?bot=${bot.bot_id}`);
    const queue = page.getByRole('region', { name: 'Unanswered questions of Shoe shop' });
    const item = queue.getByTestId('unanswered-question').filter({ hasText: 'Do you ship to Canada?' });
    await item.getByText('asked 3 times').waitFor({ timeout: 15_000 });
    await queue.getByRole('heading', { name: 'Unanswered questions (3)' }).waitFor();

    // The junk, selected and dismissed at once; a regretted dismissal is undone.
    for (const junk of ['asdf qwer zxcv', 'test test 123'])
      await queue.getByRole('checkbox', { name: `Select ${junk}` }).check();
    await queue.getByRole('button', { name: 'Dismiss selected (2)' }).click();
    const undo = queue.getByRole('alert').filter({ hasText: '2 questions dismissed.' });
    await undo.waitFor();
    await queue.getByRole('heading', { name: 'Unanswered questions (1)' }).waitFor();
    await screenshot(page, 'qna-unanswered-dismissed-undo');
    await undo.getByRole('button', { name: 'Undo' }).click();
    await queue.getByRole('heading', { name: 'Unanswered questions (3)' }).waitFor();
    await queue.getByRole('button', { name: 'Dismiss asdf qwer zxcv' }).click();
    await queue.getByRole('button', { name: 'Dismiss test test 123' }).click();
    await queue.getByRole('heading', { name: 'Unanswered questions (1)' }).waitFor();

    // The conversation it was last asked in opens in the inbox.
    const conversation = item.getByRole('link', { name: 'Do you ship to Canada?: open the conversation' });
    expect(await conversation.getAttribute('href')).toMatch(/^\/inbox\?conversation=\d+&bot=\d+$/);
    await screenshot(page, 'qna-unanswered-queue');
    await conversation.click();
    await page.waitForURL('**/inbox**');
    await page.getByTestId('user-message').filter({ hasText: 'Shipping to Canada?' }).first().waitFor();
    await page.goBack();
    await page.waitForURL(`**/bot/knowledge/qna?bot=${bot.bot_id}`);

    await item.getByRole('button', { name: 'Answer' }).click();
    const dialog = page.getByRole('dialog', { name: "Answer a visitor's question" });
    expect(await dialog.getByLabel('Question', { exact: true }).inputValue()).toBe('Do you ship to Canada?');
    // Their other wordings are answered with it too.
    await dialog
      .getByTestId('answered-wordings')
      .getByText('Shipping to Canada?', { exact: false })
      .waitFor();
    await dialog.getByLabel('Answer', { exact: true }).fill('Yes, parcels to Canada arrive within a week.');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await queue.getByText('No unanswered questions', { exact: false }).waitFor();
    const table = page.getByRole('table', { name: 'Q&A pairs of Shoe shop' });
    await table.getByText('Trained', { exact: true }).waitFor({ timeout: 15_000 });
    await table.getByTestId('other-wordings').getByText('Shipping to Canada?', { exact: false }).waitFor();
    await screenshot(page, 'qna-unanswered-answered');

    const next = await ask('Do you ship to Canada?');
    await next.getByText('Yes, parcels to Canada arrive within a week.').waitFor({ timeout: 15_000 });
    // In another visitor's words, too.
    const typo = await ask('shipping to canada');
    await typo.getByText('Yes, parcels to Canada arrive within a week.').waitFor({ timeout: 15_000 });

    // Asked again in other words: the owner says it is the same question, and the pair answers it.
    const toronto = 'do you ship to vancouver or toronto?';
    const other = await ask(toronto);
    await other.getByText("Sorry, I don't know the answer to that.", { exact: false }).waitFor();
    await page.reload();
    const worded = queue.getByTestId('unanswered-question').filter({ hasText: toronto });
    await worded.getByTestId('likely-pair').getByText('Looks like “Do you ship to Canada?”').waitFor();
    await worded
      .getByRole('button', { name: `${toronto}: same as an existing answer` })
      .click({ timeout: 15_000 });
    const link = page.getByRole('dialog', { name: 'Same as an existing answer' });
    // The pair its words come nearest is offered first.
    expect(await link.getByLabel('Q&A pair').inputValue()).toBe('Do you ship to Canada?');
    await link.getByTestId('chosen-answer').getByText('parcels to Canada', { exact: false }).waitFor();
    await screenshot(page, 'qna-same-as-dialog');
    await link.getByRole('button', { name: 'Add to this answer' }).click();
    await link.waitFor({ state: 'hidden' });
    await queue.getByText('No unanswered questions', { exact: false }).waitFor();
    // Every wording is in the cell's title; the text shows the first ones.
    const otherWordings = () => table.getByTestId('other-wordings').getAttribute('title');
    await expect.poll(otherWordings).toContain(toronto);
    await screenshot(page, 'qna-other-wordings');
    const again = await ask('Do you ship to Vancouver or Toronto');
    await again.getByText('Yes, parcels to Canada arrive within a week.').waitFor({ timeout: 15_000 });

    // The owner sees the wording in the pair's dialog and takes it back.
    await table.getByRole('button', { name: 'Edit Do you ship to Canada?' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Q&A' });
    const wordings = edit.getByRole('region', { name: 'Other wordings' });
    await wordings.getByText(toronto).waitFor();
    await wordings.getByRole('button', { name: toronto }).locator('svg').click();
    // And adds one they expect; Enter adds it, it does not save the dialog.
    const expected = 'any chance you deliver to canada?';
    await wordings.getByLabel('Add a wording').fill(expected);
    await wordings.getByLabel('Add a wording').press('Enter');
    await wordings.getByRole('button', { name: expected }).waitFor();
    await screenshot(page, 'qna-edit-other-wordings');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'hidden' });
    await expect.poll(otherWordings).toContain(expected);
    expect(await otherWordings()).not.toContain('toronto');

    // The visitor found that answer no help: they are offered a person at once, and their thumbs
    // down puts the question back in the owner's queue.
    await again.getByRole('button', { name: 'Bad answer' }).last().click();
    const offer = again.getByTestId('bad-answer-offer');
    await offer.getByText(BAD_ANSWER_OFFER).waitFor();
    await offer.getByRole('button', { name: HANDOFF_TEXTS.button }).click();
    await again.getByTestId('system-message').first().waitFor({ timeout: 15_000 });
    await offer.waitFor({ state: 'detached' });
    await page.reload();
    await queue
      .getByTestId('unanswered-question')
      .filter({ hasText: 'Do you ship to Vancouver or Toronto' })
      .getByText('answer rated unhelpful')
      .waitFor({ timeout: 15_000 });
    await screenshot(page, 'qna-rated-unhelpful');
  });
});
