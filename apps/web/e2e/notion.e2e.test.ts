import { MESSAGES, NOTION_TEXTS } from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NotionFake, startNotionFake } from '../../server/src/test/fakes/notion';
import {
  createBotViaApi,
  type Harness,
  person,
  screenshot,
  screenshotOnFailure,
  signUp,
  startHarness,
} from './harness';

describe('Notion knowledge', () => {
  let h: Harness;
  let fake: NotionFake;
  beforeAll(async () => {
    // Small pages of results, so the sync walks Notion's cursors as it would on a big workspace.
    fake = await startNotionFake({ pageSizeCap: 2 });
    h = await startHarness({ env: { NOTION_API_URL: fake.url } });
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  it('connects a workspace with a token, syncs it and lists its pages', async () => {
    const { page } = await h.newPage();
    screenshotOnFailure(page, 'notion');
    const workspace = fake.addWorkspace({ name: 'Lisbon Bakery' });
    for (const [id, title] of [
      ['menu', 'Menu'],
      ['hours', 'Opening hours'],
      ['delivery', 'Delivery'],
    ] as const) {
      fake.setPage(workspace, {
        id,
        title,
        blocks: [
          { type: 'heading_1', text: title },
          { type: 'paragraph', text: `${title} of the bakery.` },
          { type: 'paragraph', text: 'Pastel de nata every morning.' },
        ],
      });
    }

    await signUp(page, person('nora'));
    await page.goto('/bot/knowledge/notion');
    await page.getByRole('heading', { name: 'Notion', exact: true }).waitFor();
    await page.getByText('No Notion workspace is connected yet.').waitFor();
    // OAuth is not configured on this server: only the token form is offered.
    expect(await page.getByRole('button', { name: 'Connect with Notion' }).count()).toBe(0);

    await page.getByLabel('Internal integration token').fill('secret_wrong');
    await page.getByRole('button', { name: 'Connect with token' }).click();
    await page.getByText(`${NOTION_TEXTS.connectFailed} ${NOTION_TEXTS.invalidToken}`).first().waitFor();

    await page.getByLabel('Internal integration token').fill(workspace.token);
    await page.getByRole('button', { name: 'Connect with token' }).click();
    const card = page.getByRole('region', { name: 'Lisbon Bakery' });
    await card.waitFor();
    await card.getByText('0 pages').waitFor();

    await card.getByRole('button', { name: 'Sync' }).click();
    await page.getByText(NOTION_TEXTS.syncCompleted).first().waitFor();
    const pages = card.getByRole('list', { name: 'Pages of Lisbon Bakery' });
    for (const title of ['Delivery', 'Menu', 'Opening hours']) {
      await pages.getByText(title, { exact: true }).waitFor();
    }
    await card.getByText('3 pages').waitFor();
    await screenshot(page, 'notion-synced');

    await card.getByRole('button', { name: 'Delete page Menu' }).click();
    await page.getByText(NOTION_TEXTS.pageDeleted).first().waitFor();
    await card.getByText('2 pages').waitFor();
    expect(await pages.getByText('Menu', { exact: true }).count()).toBe(0);

    // Train the workspace into a bot chosen by name.
    await createBotViaApi(h, page, { bot_name: 'Bakery bot' });
    await page.reload();
    await page.getByLabel('Train into bot').waitFor();
    await card.getByRole('button', { name: 'Train into Bakery bot' }).click();
    await page.getByText(MESSAGES.notion.trainingCompleted).first().waitFor();
  });
});
