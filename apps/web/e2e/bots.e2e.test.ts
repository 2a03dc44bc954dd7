import { MESSAGES } from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, person, screenshot, screenshotOnFailure, signUp, startHarness } from './harness';

/** A 1×1 PNG: real image bytes, since the server judges an image by its content. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describe('bots', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('creates a bot through the wizard, edits its appearance and deletes it', async () => {
    const { page } = await h.newPage();
    screenshotOnFailure(page, 'bots');
    await signUp(page, person('bots'));

    await page.goto('/bot');
    await page.getByRole('heading', { name: 'Manage Bots' }).waitFor();
    // A new workspace has used none of this month's bot messages.
    await page.getByText('Bot messages this month: 0 of 10,000').waitFor();
    await page.getByText('No bots yet').waitFor();
    await page.getByRole('link', { name: 'Create bot' }).first().click();
    await page.waitForURL('**/bot/new');

    // Step 1: the server's name rule, checked in the browser with the same text.
    await page.getByLabel('Bot name', { exact: true }).fill('bad-name!');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText(MESSAGES.bots.nameChars).waitFor();
    await page.getByLabel('Bot name', { exact: true }).fill('Helper_bot');
    await page.getByLabel('Description', { exact: true }).fill('Answers questions about the shop');
    await page.locator('input[type="file"]').setInputFiles({
      name: 'avatar.png',
      mimeType: 'image/png',
      buffer: PNG,
    });
    await page.getByText('avatar.png').waitFor();
    await expect
      .poll(() => page.getByRole('img', { name: 'Helper_bot' }).getAttribute('src'))
      .toMatch(/^data:image\/png;base64,/);
    await page.getByRole('button', { name: 'Next' }).click();

    // Step 2: knowledge (none yet), step 3: instructions and model, step 4: review.
    await page.getByRole('form', { name: 'Bot knowledge' }).waitFor();
    await page.getByRole('button', { name: 'Add files' }).waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('Instructions', { exact: true }).fill('Answer briefly and politely.');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('table', { name: 'Bot summary' }).getByText('Helper_bot').waitFor();
    await screenshot(page, 'bots-review');
    await page.getByRole('button', { name: 'Create bot' }).click();
    await page.getByText(MESSAGES.bots.added).first().waitFor();
    await page.getByText('Helper_bot is ready').waitFor();

    await page.getByRole('link', { name: 'Back to bots' }).click();
    const card = page.getByRole('article', { name: 'Bot Helper_bot' });
    await card.waitFor();
    await card.getByText('Answers questions about the shop').waitFor();
    await card.getByText('Model: Built-in').waitFor();
    await expect.poll(() => card.locator('img').getAttribute('src')).toMatch(/\/api\/chat\/bots\/images\//);
    await screenshot(page, 'bots-list');

    // Appearance: brand colour and a suggested question, persisted across a reload.
    await card.getByRole('link', { name: 'Open Helper_bot' }).click();
    await page.getByRole('heading', { name: 'Helper_bot', exact: true }).waitFor();
    await page.getByRole('tab', { name: 'Appearance' }).click();
    await page.getByLabel('Brand colour', { exact: true }).fill('#3366ff');
    await page.getByRole('button', { name: 'Add question' }).click();
    await page.getByLabel('Suggested question 1', { exact: true }).fill('What are your opening hours?');
    // The widget and the bot's own lines in German, whatever the sources' language.
    await page.getByRole('combobox', { name: 'Language for visitors' }).click();
    await page.getByRole('option', { name: 'Deutsch' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(MESSAGES.bots.updated).first().waitFor();

    await page.reload();
    await page.getByRole('tab', { name: 'Appearance', selected: true }).waitFor();
    await expect.poll(() => page.getByLabel('Brand colour', { exact: true }).inputValue()).toBe('#3366ff');
    expect(await page.getByLabel('Suggested question 1', { exact: true }).inputValue()).toBe(
      'What are your opening hours?',
    );
    expect(await page.getByRole('combobox', { name: 'Language for visitors' }).innerText()).toBe('Deutsch');
    await screenshot(page, 'bots-appearance');

    // Instructions and model: the prompt from the wizard, the built-in answerer by default.
    await page.getByRole('tab', { name: 'Instructions & model' }).click();
    expect(await page.getByLabel('Instructions', { exact: true }).inputValue()).toBe(
      'Answer briefly and politely.',
    );
    await page.getByText('Built-in (answers by quoting your sources)').waitFor();
    await screenshot(page, 'bots-instructions');

    // Embed code names this origin and the bot's uuid.
    await page.getByRole('tab', { name: 'Embed' }).click();
    expect(await page.getByLabel('Embed code', { exact: true }).inputValue()).toMatch(
      new RegExp(`^<script src="${h.baseUrl}/widget.js" data-bot="[0-9a-f-]{36}" defer></script>$`),
    );

    await page.getByRole('link', { name: 'All bots' }).click();
    await page.getByRole('button', { name: 'Delete Helper_bot' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText(MESSAGES.bots.deleted).first().waitFor();
    await page.getByText('No bots yet').waitFor();
  });
});
