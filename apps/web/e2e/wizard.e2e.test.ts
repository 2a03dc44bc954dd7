import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, person, screenshotOnFailure, signUp, startHarness } from './harness';

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
});
