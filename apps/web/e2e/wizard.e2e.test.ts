import { BOT, type Bot, MESSAGES, NAME_RULES, withRule } from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  type Harness,
  person,
  screenshot,
  screenshotOnFailure,
  signUp,
  startHarness,
} from './harness';

/** The bot wizard's "Add files" and "Crawl a website" open in place, so nothing typed is lost. */
describe('bot wizard keeps its state', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('adds a file group from the knowledge step and comes back to the same step, name kept, group selected', async () => {
    const { page } = await h.newPage();
    screenshotOnFailure(page, 'wizard-state');
    await signUp(page, person('wizard'));
    await page.goto('/bot/new');

    await page.getByLabel('Bot name', { exact: true }).fill('Harbour_helper');
    await page.getByLabel('Description', { exact: true }).fill('Answers questions about the harbour');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('form', { name: 'Bot knowledge' }).waitFor();
    await page.getByText('No file groups yet.').waitFor();

    await page.getByRole('button', { name: 'Add files' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload files' });
    await dialog.getByLabel('Group name').fill('harbour_guides');
    await dialog.getByLabel('Files', { exact: true }).setInputFiles({
      name: 'harbour.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('The harbour ferry leaves every hour from pier two.'),
    });
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // Still on the knowledge step of the same wizard, the new group listed and already ticked.
    expect(page.url()).toMatch(/\/bot\/new$/);
    await page.getByRole('form', { name: 'Bot knowledge' }).waitFor();
    const group = page.getByRole('checkbox', { name: /harbour_guides/ });
    await group.waitFor();
    expect(await group.isChecked()).toBe(true);

    // The crawl dialog opens in place too and closes back onto the same step.
    await page.getByRole('button', { name: 'Crawl a website' }).click();
    const crawl = page.getByRole('dialog', { name: 'Crawl a website' });
    await crawl.getByLabel('Website URL').waitFor();
    await crawl.getByRole('button', { name: 'Close' }).click();
    await crawl.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'Back' }).click();
    expect(await page.getByLabel('Bot name', { exact: true }).inputValue()).toBe('Harbour_helper');
    expect(await page.getByLabel('Description', { exact: true }).inputValue()).toBe(
      'Answers questions about the harbour',
    );
    await page.getByRole('button', { name: 'Next' }).click();
    expect(await page.getByRole('checkbox', { name: /harbour_guides/ }).isChecked()).toBe(true);
  });

  it('ticks what the owner made before, warns about a bot with no knowledge, shows name rules and hides what the built-in model ignores', async () => {
    const { page } = await h.newPage();
    screenshotOnFailure(page, 'wizard-defaults');
    await signUp(page, person('defaults'));
    // A file group made before the wizard (on the Files page, say): no bot uses it yet.
    const token = await page.evaluate(() => localStorage.getItem('accessToken'));
    const me = await apiCall<{ id: number }>(h, token, 'GET', '/auth/user');
    const upload = new FormData();
    upload.set('group_name', 'early_guides');
    upload.set('user_id', String(me.id));
    upload.append('files', new Blob(['The ferry leaves every hour from pier two.']), 'ferry.txt');
    await apiCall(h, token, 'POST', '/file/upload-multiple', upload);

    await page.goto('/bot/new');
    // The name's rule is under the field before anything is typed.
    await page.getByText(NAME_RULES.bot).waitFor();
    await page.getByLabel('Description', { exact: true }).fill('Ferry times and tickets');
    await page.getByLabel('Bot name', { exact: true }).fill('Harbour-desk!');
    await page.getByRole('button', { name: 'Next' }).click();
    // Refused with the spec's text and the rule again; the other field keeps what was typed.
    await page.getByText(withRule(MESSAGES.bots.nameChars, NAME_RULES.bot)).waitFor();
    expect(await page.getByLabel('Description', { exact: true }).inputValue()).toBe(
      'Ferry times and tickets',
    );
    await screenshot(page, 'wizard-name-rule');
    await page.getByLabel('Bot name', { exact: true }).fill('Harbour desk');
    await page.getByRole('button', { name: 'Next' }).click();

    // The group made earlier comes ticked.
    await page.getByRole('form', { name: 'Bot knowledge' }).waitFor();
    const group = page.getByRole('checkbox', { name: /early_guides/ });
    await expect.poll(() => group.isChecked()).toBe(true);
    await screenshot(page, 'wizard-knowledge-defaults');
    await group.uncheck();
    await page.getByRole('button', { name: 'Next' }).click();

    // The built-in model has no temperature and never searches the internet: neither is offered.
    const instructions = page.getByRole('form', { name: 'Instructions and model' });
    await instructions.getByLabel('Instructions').waitFor();
    expect(await instructions.getByText(/^Temperature/).count()).toBe(0);
    expect(await instructions.getByText('Allow internet search').count()).toBe(0);
    await screenshot(page, 'wizard-built-in-model');
    await page.getByRole('button', { name: 'Next' }).click();

    // Review: nothing ticked, so a warning with the way back; no Temperature or Internet rows.
    const review = page.getByRole('form', { name: 'Review' });
    const warning = review.getByRole('alert', { name: 'No knowledge' });
    await warning.waitFor();
    const summary = review.getByRole('table', { name: 'Bot summary' });
    expect(await summary.getByText('Temperature').count()).toBe(0);
    expect(await summary.getByText('Internet search').count()).toBe(0);
    await screenshot(page, 'wizard-review-no-knowledge');
    await warning.getByRole('button', { name: 'Choose knowledge' }).click();
    // The untick stays (defaults are applied once); tick it again.
    await expect.poll(() => group.isChecked()).toBe(false);
    await group.check();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await review.waitFor();
    expect(await review.getByRole('alert', { name: 'No knowledge' }).count()).toBe(0);
    await review.getByRole('button', { name: 'Create bot' }).click();
    await page.getByText(MESSAGES.bots.added).first().waitFor();

    // The new bot greets with a sentence naming it (the workspace kept its automatic name) and has a
    // brand colour that shows on a white page.
    const bots = await apiCall<Bot[]>(h, token, 'GET', `/chat/bots/user/${me.id}`);
    const made = bots.find((b) => b.bot_name === 'Harbour desk')!;
    expect(made.welcome_message).toBe('Welcome to Harbour desk! How can I help you today?');
    expect(made.brand_color).toBe(BOT.defaultBrandColor);
    expect(made.file_groups.map((g) => g.name)).toEqual(['early_guides']);
  });
});
