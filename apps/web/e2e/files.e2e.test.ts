import { FILE_MESSAGES, MESSAGES } from '@parley/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../../server/src/modules/files/test-files.fixture';
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

  it("keeps a small business's files right: flags what cannot be sent, replaces an updated price list, retries and moves a file", async () => {
    const { page } = await h.newPage();
    screenshotOnFailure(page, 'files-business');
    await signUp(page, person('bakery'));
    await page.goto('/bot/knowledge/files');
    const dialog = page.getByRole('dialog', { name: /^(Upload files|Add files to .*)$/ });
    const chosen = (name: string) => dialog.getByRole('listitem').filter({ hasText: name });

    // An empty file is flagged before anything is sent; removed, the rest goes.
    await page.getByRole('button', { name: 'Upload files' }).click();
    await dialog.getByLabel('Group name').fill('bakery');
    await dialog.getByLabel('Files', { exact: true }).setInputFiles([
      { name: 'empty.txt', mimeType: 'text/plain', buffer: Buffer.alloc(0) },
      { name: 'prices.csv', mimeType: 'text/csv', buffer: Buffer.from('item,price\nCroissant,2.80\n') },
      {
        name: 'song.mp3',
        mimeType: 'audio/mpeg',
        buffer: Buffer.from('ID3\u0003\u0000\u0000\u0000\u0000\u0000'),
      },
    ]);
    await chosen('empty.txt').getByText(FILE_MESSAGES.empty('empty.txt')).waitFor();
    await screenshot(page, 'files-chosen-empty');
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await dialog.getByRole('alert').getByText('Remove the file marked in red', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Remove empty.txt' }).click();
    // The server refuses a type it cannot read, and the dialog marks which file that is.
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await chosen('song.mp3')
      .getByText('song.mp3: this file type is not supported', { exact: false })
      .waitFor();
    await dialog.getByRole('button', { name: 'Remove song.mp3' }).click();
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await page.getByText('1 file uploaded successfully').first().waitFor();
    const bakery = fileTable(page, 'bakery');
    await bakery.getByRole('row', { name: /prices\.csv.*Trained/ }).waitFor({ timeout: 30_000 });

    // A file that cannot be read says why, and can be tried again.
    await page.getByRole('button', { name: 'Upload files' }).click();
    await dialog.getByLabel('Group name').fill('drinks');
    await dialog.getByLabel('Files', { exact: true }).setInputFiles([
      { name: 'scan.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await makePdf([''])) },
      { name: 'hours.txt', mimeType: 'text/plain', buffer: Buffer.from('We open at eight every morning.') },
    ]);
    await dialog.getByRole('button', { name: 'Upload' }).click();
    const drinks = fileTable(page, 'drinks');
    const scan = drinks.getByRole('row', { name: /scan\.pdf/ });
    await scan.getByText('Failed').waitFor({ timeout: 30_000 });
    await scan
      .getByTestId('file-error')
      .getByText('No text could be read from this PDF', { exact: false })
      .waitFor();
    await drinks.getByRole('row', { name: /hours\.txt.*Trained/ }).waitFor({ timeout: 30_000 });
    await screenshot(page, 'files-failed-retry');
    await scan.getByRole('button', { name: 'Retry scan.pdf' }).click();
    await page.getByText(FILE_MESSAGES.retraining('scan.pdf')).first().waitFor();
    await scan.getByText('Failed').waitFor({ timeout: 30_000 });

    // This month's price list, under the same name, replaces last month's once trained.
    const group = page.getByRole('region', { name: 'File group bakery' });
    await group.getByRole('button', { name: 'Add files' }).click();
    await dialog
      .getByLabel('Files', { exact: true })
      .setInputFiles([
        { name: 'prices.csv', mimeType: 'text/csv', buffer: Buffer.from('item,price\nCroissant,3.10\n') },
      ]);
    await chosen('prices.csv').getByText('Replaces the current prices.csv once trained').waitFor();
    await screenshot(page, 'files-replaces');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('1 file uploaded successfully').first().waitFor();
    await expect
      .poll(() => bakery.getByRole('row', { name: /prices\.csv/ }).count(), { timeout: 30_000 })
      .toBe(1);
    await bakery.getByRole('row', { name: /prices\.csv.*Trained/ }).waitFor();

    // A file put in the wrong group moves to the right one.
    await drinks
      .getByRole('row', { name: /hours\.txt/ })
      .getByRole('button', { name: 'Move hours.txt' })
      .click();
    const move = page.getByRole('dialog', { name: 'Move hours.txt' });
    await move.getByRole('combobox', { name: 'To the group' }).click();
    await page.getByRole('option', { name: 'bakery' }).click();
    await move.getByRole('button', { name: 'Move' }).click();
    await page.getByText(FILE_MESSAGES.moved('hours.txt', 'bakery')).first().waitFor();
    await bakery.getByRole('row', { name: /hours\.txt.*Trained/ }).waitFor({ timeout: 30_000 });
    await drinks.getByRole('row', { name: /hours\.txt/ }).waitFor({ state: 'detached' });
    await screenshot(page, 'files-moved');
  });
});

const fileTable = (page: Page, group: string) => page.getByRole('table', { name: `Files of ${group}` });
