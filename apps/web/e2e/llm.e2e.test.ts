import { LLM_MESSAGES, LLM_TEST_MESSAGES, MESSAGES } from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenAiFake, startOpenAiFake } from '../../server/src/test/fakes/openai';
import {
  apiCall,
  createBotViaApi,
  type Harness,
  person,
  screenshot,
  screenshotOnFailure,
  signUp,
  startHarness,
  tokenOf,
} from './harness';

const KEY = 'sk-e2e-secret-key-0000-1234';

describe('LLM settings', () => {
  let h: Harness;
  let fake: OpenAiFake;
  beforeAll(async () => {
    fake = await startOpenAiFake();
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  it("adds a local model, tests it, toggles, edits and deletes it; the key is only ever masked; the playground names a bot's model and says when it is off", async () => {
    const { page } = await h.newPage();
    screenshotOnFailure(page, 'llm');
    await signUp(page, person('llm'));
    await page.goto('/bot/llm-settings');
    await page.getByRole('heading', { name: 'LLM settings' }).waitFor();
    await page.getByText('No models yet', { exact: false }).waitFor();

    await page.getByRole('button', { name: 'Add model' }).click();
    const dialog = page.getByRole('dialog');
    // Required fields are named when missing.
    await dialog.getByRole('button', { name: 'Add model' }).click();
    await dialog.getByText(LLM_MESSAGES.nameRequired).waitFor();
    await dialog.getByText(LLM_MESSAGES.modelRequired).waitFor();
    await dialog.getByText(LLM_MESSAGES.baseUrlRequired).waitFor();
    await dialog.getByLabel('Name', { exact: true }).fill('Local Llama');
    await dialog.getByLabel('Base URL', { exact: true }).fill(fake.url);
    await dialog.getByLabel('Model', { exact: true }).fill('llama3.2');
    await dialog.getByLabel('API key', { exact: true }).fill(KEY);
    await dialog.getByRole('button', { name: 'Add model' }).click();
    await page.getByText(MESSAGES.llm.saved).first().waitFor();
    await dialog.waitFor({ state: 'detached' });

    // Saving tested it: it answered, so it is active and its state says so.
    const row = page.getByRole('row').filter({ hasText: 'Local Llama' });
    await row.getByText(/^Working · \d+ ms$/).waitFor();
    await row.getByText('••••••••1234').waitFor();
    await row.getByText('llama3.2').waitFor();
    expect(await page.content()).not.toContain(KEY);

    fake.reply('OK');
    await page.getByRole('button', { name: 'Test connection: Local Llama' }).click();
    await page.getByText('Local Llama: connection OK').waitFor();
    await page.getByText(LLM_TEST_MESSAGES.answered, { exact: false }).waitFor();
    expect(fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
    await screenshot(page, 'llm-tested');

    fake.failNext(401, 'Invalid API key for this server');
    await page.getByRole('button', { name: 'Test connection: Local Llama' }).click();
    await page.getByText('Local Llama: connection failed').waitFor();
    await page
      .getByRole('status', { name: 'Connection test result' })
      .getByText(LLM_TEST_MESSAGES.keyRefused(401), { exact: false })
      .waitFor();
    expect(await page.content()).not.toContain('Invalid API key for this server');

    // The failed test is the model's state now.
    await row.getByText('Test failed').waitFor();
    await row.getByText(LLM_TEST_MESSAGES.keyRefused(401)).waitFor();

    const active = page.getByLabel('Active: Local Llama');
    expect(await active.isChecked()).toBe(true);
    await active.click();
    await page.getByText(MESSAGES.llm.updated).first().waitFor();
    await expect.poll(() => active.isChecked()).toBe(false);
    // Switching on tests it first: refused while it fails, with the reason.
    fake.failNext(401, 'Invalid API key for this server');
    await active.click();
    await page
      .getByText(LLM_MESSAGES.notActivated(LLM_TEST_MESSAGES.keyRefused(401)))
      .first()
      .waitFor();
    expect(await active.isChecked()).toBe(false);
    await active.click();
    await expect.poll(() => active.isChecked()).toBe(true);
    await row.getByText(/^Working · \d+ ms$/).waitFor();

    await page.getByRole('button', { name: 'Edit: Local Llama' }).click();
    const edit = page.getByRole('dialog');
    await edit.getByText('Stored as ••••••••1234; leave empty to keep it').waitFor();
    await edit.getByLabel('Name', { exact: true }).fill('Local Qwen');
    await edit.getByLabel('Model', { exact: true }).fill('qwen2.5');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.waitFor({ state: 'detached' });
    const edited = page.getByRole('row').filter({ hasText: 'Local Qwen' });
    await edited.getByText('qwen2.5').waitFor();
    await edited.getByText('••••••••1234').waitFor();

    // The kept key still reaches the model.
    fake.reply('still here');
    await page.getByRole('button', { name: 'Test connection: Local Qwen' }).click();
    await page.getByText('Local Qwen: connection OK').waitFor();
    expect(fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(fake.requests.at(-1)?.body.model).toBe('qwen2.5');

    await page.getByRole('button', { name: 'Delete: Local Qwen' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText(LLM_MESSAGES.deleted).first().waitFor();
    await page.getByText('No models yet', { exact: false }).waitFor();
    // The toasts sit over the page's top-right button for their 2 s (spec: top-right), and a
    // pointer resting on one pauses it: let them go, as a person would, before clicking there.
    await page.mouse.move(10, 10);
    await page.getByText(LLM_MESSAGES.deleted).first().waitFor({ state: 'detached', timeout: 30_000 });

    // A model that does not answer is saved, but not active, and the page says why.
    await page.getByRole('button', { name: 'Add model' }).click();
    const broken = page.getByRole('dialog');
    await broken.getByLabel('Name', { exact: true }).fill('Wrong key');
    await broken.getByLabel('Base URL', { exact: true }).fill(fake.url);
    await broken.getByLabel('Model', { exact: true }).fill('llama3.2');
    fake.failNext(401, 'Invalid API key for this server');
    await broken.getByRole('button', { name: 'Add model' }).click();
    await page
      .getByText(LLM_MESSAGES.savedInactive(LLM_TEST_MESSAGES.keyRefused(401)))
      .first()
      .waitFor();
    const wrong = page.getByRole('row').filter({ hasText: 'Wrong key' });
    await wrong.getByText('Test failed').waitFor();
    expect(await page.getByLabel('Active: Wrong key').isChecked()).toBe(false);
    await screenshot(page, 'llm-saved-inactive');

    // Switched on once its test passes, a bot answers with it; switched off again, the bot answers
    // without it, and its playground says so.
    const wrongActive = page.getByLabel('Active: Wrong key');
    await wrongActive.click();
    await expect.poll(() => wrongActive.isChecked()).toBe(true);
    const models = await apiCall<Array<{ id: number; name: string }>>(
      h,
      await tokenOf(page),
      'GET',
      '/settings/llm/company',
    );
    const wrongKey = models.find((m) => m.name === 'Wrong key')!;
    const bot = await createBotViaApi(h, page, { bot_name: 'Qwen bot', llm_model: String(wrongKey.id) });
    await page.goto(`/bot/${bot.bot_id}/playground`);
    await page.getByText('Playground · Wrong key · temperature').waitFor();
    await page.goto('/bot/llm-settings');
    await wrongActive.click();
    await expect.poll(() => wrongActive.isChecked()).toBe(false);
    await page.goto(`/bot/${bot.bot_id}/playground`);
    await page.getByText('Playground · Wrong key is switched off: built-in answers').waitFor();

    // Deleting a model a bot answers with: the page names the bot first, and the bot is left
    // answering from its knowledge, its model cleared (not a model "not available").
    await page.goto('/bot/llm-settings');
    await page.getByTestId(`llm-used-by-${wrongKey.id}`).getByText('Qwen bot').waitFor();
    await page.getByRole('button', { name: 'Delete: Wrong key' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete model' });
    await confirm
      .getByText(
        'Delete "Wrong key"? Qwen bot answers with it, and will answer from its knowledge alone until you choose another model.',
      )
      .waitFor();
    await screenshot(page, 'llm-delete-used');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText(LLM_MESSAGES.deleted).first().waitFor();
    const after = await apiCall<{ llm_model: string | null }>(
      h,
      await tokenOf(page),
      'GET',
      `/chat/bots/${bot.bot_id}`,
    );
    expect(after.llm_model).toBeNull();
    await page.goto(`/bot/${bot.bot_id}/playground`);
    await page.getByText('Playground · built-in answers').waitFor();
  });
});
