import { WHATSAPP_TEXTS } from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  inboundDelivery,
  startWhatsAppCloudFake,
  textMessage,
  type WhatsAppCloudFake,
} from '../../server/src/test/fakes/whatsapp-cloud';
import {
  createBotViaApi,
  type Harness,
  person,
  screenshot,
  screenshotOnFailure,
  signUp,
  startHarness,
} from './harness';

const APP = { appId: '5151515151', appSecret: 'browser-test-whatsapp-secret' };
const NUMBER = {
  wabaId: '100200300400',
  phoneNumberId: '555000111222',
  displayPhoneNumber: '+1 555-0100',
  verifiedName: 'Corner Shop',
};
const CSV = [
  'Phone Number,Full Name,Email,Tags,City',
  '+14155550101,Ana Lima,ana@example.com,vip,Lisbon',
  '+14155550102,Ben Ode,,vip;new,Porto',
  'not-a-phone,Bad Row,,,',
  '+14155550103,Cleo Park,,new,Braga',
].join('\n');

/**
 * WhatsApp as a shop owner meets it: connect a number through the embedded signup (the fake's
 * dialog in a popup), write a template with its live preview and submit it, import contacts from a
 * CSV with a progress bar, and send a campaign to a tag, then read its logs. Last, a customer whose
 * 24-hour window has closed gets a template from the inbox.
 */
describe('WhatsApp', () => {
  let h: Harness;
  let fake: WhatsAppCloudFake;
  beforeAll(async () => {
    fake = await startWhatsAppCloudFake(APP);
    h = await startHarness({
      env: {
        META_APP_ID: APP.appId,
        META_APP_SECRET: APP.appSecret,
        META_VERIFY_TOKEN: 'browser-verify',
        META_GRAPH_URL: fake.url,
        META_LOGIN_URL: fake.dialogUrl,
        WHATSAPP_CONFIG_ID: '987654321',
      },
    });
    fake.webhookUrl = `${h.baseUrl}/api/social/whatsapp/webhook`;
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  it('connects a number, writes a template, imports contacts, sends a campaign and a template in the inbox', async () => {
    const { page } = await h.newPage({ width: 1440, height: 1000 });
    screenshotOnFailure(page, 'whatsapp');
    await signUp(page, person('nadia'));
    await createBotViaApi(h, page, { bot_name: 'Shop helper' });

    // Integrations leads to the accounts tab, empty at first.
    await page.goto(`${h.baseUrl}/integrations`);
    await page.getByRole('link', { name: 'Open WhatsApp' }).click();
    await page.waitForURL('**/whatsapp/accounts');
    await page.getByText('No WhatsApp number connected yet.', { exact: false }).waitFor();

    // Embedded signup: the popup posts the ids, then lands on /whatsapp/callback with the code.
    fake.signupNext(NUMBER);
    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Connect a WhatsApp number' }).click();
    const pop = await popup;
    await pop.waitForEvent('close', { timeout: 15_000 });
    await page.getByText(WHATSAPP_TEXTS.onboarded).first().waitFor();
    const account = page.getByRole('listitem', { name: NUMBER.displayPhoneNumber });
    await account.getByText('Quality GREEN').waitFor();
    await account.getByText(NUMBER.verifiedName, { exact: false }).waitFor();
    expect(fake.registered.has(NUMBER.phoneNumberId)).toBe(true);
    expect(fake.subscribed.has(NUMBER.wabaId)).toBe(true);
    await page.getByRole('combobox', { name: 'WhatsApp number' }).waitFor();

    // Link the bot.
    await account.getByRole('combobox', { name: 'Bot' }).click();
    await page.getByRole('option', { name: 'Shop helper' }).click();
    await page.getByText(WHATSAPP_TEXTS.linked).first().waitFor();
    await account.getByRole('button', { name: 'Unlink' }).waitFor();
    await screenshot(page, 'whatsapp-accounts');

    // A template with two variables, a footer and a quick reply; the preview follows the form.
    await page.getByRole('tab', { name: 'Templates' }).click();
    await page.getByRole('button', { name: 'New template' }).click();
    const editor = page.getByRole('dialog');
    await editor.getByLabel('Template name').fill('spring_sale');
    await editor.getByLabel('Body').fill('Hello {{1}}, our spring sale ends {{2}}.');
    await editor.getByLabel('Example for {{1}}').fill('Ana');
    await editor.getByLabel('Example for {{2}}').fill('Friday');
    await editor.getByLabel('Footer').fill('Reply STOP to opt out');
    await editor.getByRole('button', { name: 'Add quick reply button' }).click();
    await editor.getByLabel('Button 1 text').fill('Show me');
    const preview = editor.getByTestId('template-preview');
    await expect
      .poll(() => preview.getByTestId('preview-body').textContent())
      .toBe('Hello Ana, our spring sale ends Friday.');
    await preview.getByText('Reply STOP to opt out').waitFor();
    await preview.getByText('Show me').waitFor();
    await screenshot(page, 'whatsapp-template-editor');
    await editor.getByRole('button', { name: 'Create template' }).click();
    await page.getByText(WHATSAPP_TEXTS.templateCreated).first().waitFor();
    const row = page.getByRole('row', { name: 'spring_sale' });
    await row.getByTestId('template-status').filter({ hasText: 'DRAFT' }).waitFor();
    await row.getByRole('button', { name: 'Submit' }).click();
    await page.getByText(WHATSAPP_TEXTS.templateSubmitted).first().waitFor();
    await row.getByTestId('template-status').filter({ hasText: 'PENDING' }).waitFor();
    // Meta approves (the review webhook); the list is read again.
    await fake.review('spring_sale', 'APPROVED');
    await page.getByRole('button', { name: 'Refresh from Meta' }).click();
    await row.getByTestId('template-status').filter({ hasText: 'APPROVED' }).waitFor();

    // Contacts from a CSV: the guessed mapping, the sample rows, the upload's progress, the result.
    await page.getByRole('tab', { name: 'Contacts' }).click();
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const importer = page.getByRole('dialog');
    await importer.getByLabel('CSV file').setInputFiles({
      name: 'contacts.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(CSV),
    });
    await importer.getByRole('table', { name: 'Sample rows' }).getByText('Ana Lima').waitFor();
    await expect
      .poll(() => importer.getByRole('combobox', { name: 'Phone column' }).textContent())
      .toContain('Phone Number');
    await importer.getByRole('button', { name: 'Import' }).click();
    const result = importer.getByTestId('import-result');
    await result.getByText('3 imported', { exact: false }).waitFor();
    expect(
      await importer.getByRole('progressbar', { name: 'Upload progress' }).getAttribute('aria-valuenow'),
    ).toBe('100');
    await importer
      .getByRole('list', { name: 'Rejected rows' })
      .getByText('Line 4', { exact: false })
      .waitFor();
    await screenshot(page, 'whatsapp-import');
    await importer.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('row', { name: '+14155550102' }).waitFor();

    // A campaign to the vip tag: {{1}} from the contact's name, {{2}} fixed.
    await page.getByRole('tab', { name: 'Campaigns' }).click();
    await page.getByRole('button', { name: 'New campaign' }).click();
    const wizard = page.getByRole('dialog');
    await wizard.getByLabel('Campaign name').fill('Spring sale');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByRole('combobox', { name: 'Template' }).click();
    await page.getByRole('option', { name: 'spring_sale (en_US)' }).click();
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByRole('checkbox', { name: 'vip' }).check();
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByRole('combobox', { name: 'Value for {{2}}' }).click();
    await page.getByRole('option', { name: 'Fixed text' }).click();
    await wizard.getByLabel('Text for {{2}}').fill('Friday');
    await wizard
      .getByTestId('preview-body')
      .filter({ hasText: 'Hello [name], our spring sale ends Friday.' })
      .waitFor();
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByRole('button', { name: 'Create and send' }).click();
    await page.getByText(WHATSAPP_TEXTS.campaignStarted).first().waitFor();
    await expect.poll(() => fake.templateSends().length, { timeout: 20_000 }).toBe(2);
    const campaign = page.getByRole('row', { name: 'Spring sale' });
    await campaign
      .getByTestId('campaign-status')
      .filter({ hasText: 'completed' })
      .waitFor({ timeout: 20_000 });
    await campaign.getByRole('button', { name: 'Details' }).click();
    const logs = page.getByTestId('campaign-log');
    // The logs load after the click: a busy machine takes more than the poll's default second.
    await expect.poll(() => logs.count(), { timeout: 15_000 }).toBe(2);

    await expect
      .poll(async () => (await logs.allTextContents()).every((t) => t.includes('delivered')), {
        timeout: 15_000,
      })
      .toBe(true);
    // Recipients, sent, delivered, read, failed: both delivered messages count as sent too.
    await expect
      .poll(async () => (await campaign.getByRole('cell').allTextContents()).slice(3, 8), {
        timeout: 15_000,
      })
      .toEqual(['2', '2', '2', '0', '0']);
    await page.getByTestId('campaign-chart').waitFor();
    await screenshot(page, 'whatsapp-campaign');

    // A customer who last wrote two days ago: the inbox offers the approved template.
    const delivered = await fake.postWebhook(
      inboundDelivery({
        number: NUMBER,
        from: '14155550199',
        name: 'Dora',
        timestamp: Date.now() - 2 * 86_400_000,
        message: textMessage('Is the spring sale still on?'),
      }),
    );
    expect(delivered.status).toBe(200);
    await page.goto('/inbox');
    const item = page
      .getByTestId('inbox-conversation')
      .filter({ hasText: 'Is the spring sale still on?' })
      .first();
    await item.waitFor({ timeout: 20_000 });
    await item.click();
    const thread = page.getByTestId('inbox-thread');
    await thread.getByRole('button', { name: 'Take over' }).click();
    const sender = thread.getByTestId('send-template');
    await sender.getByRole('combobox', { name: 'Template' }).click();
    await page.getByRole('option', { name: 'spring_sale (en_US)' }).click();
    await sender.getByLabel('Variable {{1}}').fill('Dora');
    await sender.getByLabel('Variable {{2}}').fill('Sunday');
    await sender
      .getByTestId('preview-body')
      .filter({ hasText: 'Hello Dora, our spring sale ends Sunday.' })
      .waitFor();
    await sender.getByRole('button', { name: 'Send template' }).click();
    await expect
      .poll(() => fake.templateSends('14155550199').map((s) => s.name), { timeout: 20_000 })
      .toEqual(['spring_sale']);
    await screenshot(page, 'whatsapp-inbox-template');
  });
});
