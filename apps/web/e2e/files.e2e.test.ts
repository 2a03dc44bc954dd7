import { MESSAGES } from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, person, screenshot, screenshotOnFailure, signUp, startHarness } from './harness';

/** About `bytes` of plain prose, so the bot has real sentences to index. */
const prose = (topic: string, bytes: number) => {
  const sentence = `The ${topic} guide explains opening hours, prices and directions for visitors. `;
  return Buffer.from(sentence.repeat(Math.ceil(bytes / sentence.length)));
};

describe('file groups', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('uploads two files with progress bars, then sees them trained', async () => {
    const { context, page } = await h.newPage();
    screenshotOnFailure(page, 'files');
    await signUp(page, person('fiona'));
    await page.goto('/bot/knowledge/files');
    await page.getByRole('heading', { name: 'Files' }).waitFor();

    // A slow uplink, so the bars are seen moving.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: 10_000_000,
      uploadThroughput: 150_000,
    });

    await page.getByRole('button', { name: 'Upload files' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload files' });
    await dialog.getByLabel('Group name').fill('bad name');
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await dialog.getByText(MESSAGES.files.groupNameChars).waitFor();
    await dialog.getByLabel('Group name').fill('travel_guides');
    await dialog.getByLabel('Description').fill('Guides for visitors');
    await dialog.getByLabel('Files', { exact: true }).setInputFiles([
      { name: 'harbour.txt', mimeType: 'text/plain', buffer: prose('harbour', 120_000) },
      { name: 'museum.md', mimeType: 'text/markdown', buffer: prose('museum', 120_000) },
    ]);
    await dialog.getByText('harbour.txt').waitFor();
    await dialog.getByText('museum.md').waitFor();
    await dialog.getByRole('button', { name: 'Upload' }).click();

    const total = dialog.getByRole('progressbar', { name: 'Total upload progress' });
    await total.waitFor();
    await dialog.getByRole('progressbar', { name: 'Upload progress of harbour.txt' }).waitFor();
    await dialog.getByRole('progressbar', { name: 'Upload progress of museum.md' }).waitFor();
    let seenMidway = false;
    for (let i = 0; i < 200 && !seenMidway; i++) {
      const value = Number((await total.getAttribute('aria-valuenow').catch(() => null)) ?? '0');
      if (value > 0 && value < 100) seenMidway = true;
      else await page.waitForTimeout(25);
    }
    expect(seenMidway).toBe(true);
    await screenshot(page, 'files-uploading');

    await page.getByText('2 files uploaded successfully').first().waitFor({ timeout: 30_000 });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    const group = page.getByRole('region', { name: 'File group travel_guides' });
    await group.getByText('Guides for visitors').waitFor();
    const files = group.getByRole('table', { name: 'Files of travel_guides' });
    await files.getByRole('row', { name: /harbour\.txt.*Trained/ }).waitFor({ timeout: 30_000 });
    await files.getByRole('row', { name: /museum\.md.*Trained/ }).waitFor({ timeout: 30_000 });
    await screenshot(page, 'files-trained');

    // The same name again is refused before anything is sent.
    await page.getByRole('button', { name: 'Upload files' }).click();
    await dialog.getByLabel('Group name').fill('Travel_Guides');
    await dialog
      .getByLabel('Files', { exact: true })
      .setInputFiles([{ name: 'x.txt', mimeType: 'text/plain', buffer: Buffer.from('x') }]);
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await dialog.getByText(MESSAGES.files.groupNameTaken).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // Edit the description and remove a file, then delete the group.
    await group.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit travel_guides' });
    await edit.getByLabel('Description').fill('Harbour only');
    await edit.getByLabel('museum.md').check();
    await edit.getByRole('button', { name: 'Save' }).click();
    await group.getByText('Harbour only').waitFor();
    await files.getByRole('row', { name: /museum\.md/ }).waitFor({ state: 'detached' });
    await group.getByRole('button', { name: 'Delete', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Delete file group' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByText('File group deleted successfully').first().waitFor();
    await group.waitFor({ state: 'detached' });
  });
});
