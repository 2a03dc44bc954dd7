import { randomBytes } from 'node:crypto';
import {
  type CampaignAnalytics,
  type CampaignLogList,
  type ImportResult,
  type OnboardResult,
  WHATSAPP_TEXTS,
  type WhatsAppAccount,
  type WhatsAppCampaign,
  type WhatsAppTemplate,
} from '@parley/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupOwner } from '../../test/factories.js';
import {
  type FakeNumber,
  startWhatsAppCloudFake,
  statusDelivery,
  type WhatsAppCloudFake,
} from '../../test/fakes/whatsapp-cloud.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { whatsappRecipients } from './whatsapp.schema.js';

/**
 * A campaign meeting Meta's errors: those about the number or the template pause it and keep its
 * unsent recipients; those about one recipient are logged with Meta's code, retried only when
 * Meta says so; status webhooks move the counts; a dead run's untried claims are sent after all.
 */
const APP = { appId: '4234567890', appSecret: 'campaign-failures-secret' };
let server: TestServer;
let fake: WhatsAppCloudFake;
let owner: Account;
const as = (account: Account) => ({ token: account.access_token });
const unique = () => randomBytes(4).toString('hex');
const digits = (n: number) => String(Math.floor(Math.random() * 10 ** n)).padStart(n, '0');

beforeAll(async () => {
  fake = await startWhatsAppCloudFake(APP);
  server = await startTestServer({
    env: {
      META_APP_ID: APP.appId,
      META_APP_SECRET: APP.appSecret,
      META_VERIFY_TOKEN: 'verify',
      META_GRAPH_URL: fake.url,
      WHATSAPP_CONFIG_ID: '1',
      WHATSAPP_SEND_RATE: '400',
    },
  });
  fake.webhookUrl = `${server.url}/api/social/whatsapp/webhook`;
  owner = await signupOwner(server);
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

async function connect(number: FakeNumber): Promise<WhatsAppAccount> {
  const code = `code-${unique()}`;
  fake.addSignup(code, number);
  const reply = await server.post<OnboardResult>(
    '/api/social/whatsapp/embedded-signup/onboard',
    { code, waba_id: number.wabaId, phone_number_id: number.phoneNumberId },
    as(owner),
  );
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.account;
}

/** A connected number with `count` contacts, an approved template and a draft campaign to them all. */
async function campaignOf(count: number) {
  const number: FakeNumber = {
    wabaId: `1${digits(14)}`,
    phoneNumberId: `2${digits(14)}`,
    displayPhoneNumber: '+1 415 555 0100',
    verifiedName: `Shop ${unique()}`,
  };
  const account = await connect(number);
  const lines = ['phone,name'];
  for (let i = 0; i < count; i++) lines.push(`+1332555${String(1000 + i)},Buyer ${i}`);
  const form = new FormData();
  form.append('file', new Blob([lines.join('\n')], { type: 'text/csv' }), 'contacts.csv');
  const imported = await fetch(
    `${server.url}/api/social/whatsapp/contacts/import?whatsapp_account_id=${account.id}`,
    { method: 'POST', body: form, headers: { authorization: `Bearer ${owner.access_token}` } },
  );
  expect(((await imported.json()) as ImportResult).imported_contacts).toBe(count);
  const name = `notice_${unique()}`;
  const template = await server.post<WhatsAppTemplate>(
    '/api/social/whatsapp/templates',
    { account_id: account.id, name, language: 'en', category: 'UTILITY', body: 'Your order is ready.' },
    as(owner),
  );
  await server.post(`/api/social/whatsapp/templates/${template.body.id}/submit`, {}, as(owner));
  await fake.review(name, 'APPROVED');
  await expect
    .poll(
      async () =>
        (await server.get<WhatsAppTemplate>(`/api/social/whatsapp/templates/${template.body.id}`, as(owner)))
          .body.status,
    )
    .toBe('APPROVED');
  const created = await server.post<{ campaign: WhatsAppCampaign }>(
    '/api/social/whatsapp/campaigns',
    { account_id: account.id, name: 'Notice', template_id: template.body.id },
    as(owner),
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.campaign.id;
  const campaign = async () =>
    (
      await server.get<WhatsAppCampaign[]>(
        `/api/social/whatsapp/campaigns?account_id=${account.id}`,
        as(owner),
      )
    ).body.find((c) => c.id === id)!;
  return {
    number,
    account,
    id,
    campaign,
    sends: () => fake.templateSends().filter((s) => s.name === name),
    /** Message requests Meta received from this number, refused ones included. */
    requests: () => fake.requests.filter((r) => r.path.endsWith(`/${number.phoneNumberId}/messages`)).length,
    send: () => server.post(`/api/social/whatsapp/campaigns/${id}/send`, {}, as(owner)),
    resume: () =>
      server.post<{ message?: string; detail?: string }>(
        `/api/social/whatsapp/campaigns/${id}/resume`,
        {},
        as(owner),
      ),
    logs: async () =>
      (await server.get<CampaignLogList>(`/api/social/whatsapp/campaigns/${id}/logs?limit=500`, as(owner)))
        .body,
    analytics: async () =>
      (await server.get<CampaignAnalytics>(`/api/social/whatsapp/campaigns/${id}/analytics`, as(owner))).body,
    waitFor: (status: string) =>
      expect.poll(async () => (await campaign()).status, { timeout: 30_000, interval: 100 }).toBe(status),
  };
}

describe('a campaign meeting Meta’s errors', () => {
  it('pauses on an expired token keeping everyone queued, and finishes once the number is connected again', async () => {
    const c = await campaignOf(10);
    // Every send is in flight before Meta's first refusal comes back.
    fake.delay(400);
    fake.failNextSends(10, { code: 190, status: 401, message: 'Error validating access token' });
    expect((await c.send()).status).toBe(200);
    await c.waitFor('paused');
    fake.delay(0);
    const paused = await c.campaign();
    expect(paused.error).toBe(WHATSAPP_TEXTS.tokenExpired);
    expect(paused.counts).toMatchObject({ recipients: 10, queued: 10, failed: 0 });
    const accounts = await server.get<WhatsAppAccount[]>('/api/social/whatsapp/accounts', as(owner));
    expect(accounts.body.find((a) => a.id === c.account.id)).toMatchObject({
      is_active: false,
      inactive_reason: WHATSAPP_TEXTS.tokenExpired,
    });
    const refused = await c.resume();
    expect([refused.status, refused.body]).toEqual([409, { detail: WHATSAPP_TEXTS.tokenExpired }]);

    await connect(c.number);
    const resumed = await c.resume();
    expect(resumed.body).toEqual({ message: WHATSAPP_TEXTS.campaignResumed });
    await c.waitFor('completed');
    const sends = c.sends();
    expect(sends).toHaveLength(10);
    expect(new Set(sends.map((s) => s.to)).size).toBe(10);
    const done = await c.campaign();
    expect(done.error).toBeNull();
    expect(done.counts).toMatchObject({ recipients: 10, queued: 0, failed: 0 });
  });

  it('pauses when Meta pauses the template, and sends the rest once resumed', async () => {
    const c = await campaignOf(6);
    fake.delay(400);
    fake.failNextSends(6, { code: 132015, message: 'Template is Paused' });
    await c.send();
    await c.waitFor('paused');
    fake.delay(0);
    expect((await c.campaign()).error).toBe(
      'Paused: Meta paused this template for low quality; resume the campaign once Meta reactivates it (Meta error 132015).',
    );
    expect((await c.logs()).logs.map((l) => l.status)).toEqual(Array(6).fill('queued'));
    expect(c.sends()).toEqual([]);
    await c.resume();
    await c.waitFor('completed');
    expect(c.sends()).toHaveLength(6);
  });

  it('logs each recipient’s error with Meta’s code, retries only throttling, and counts delivered and read from webhooks', async () => {
    const c = await campaignOf(5);
    fake.autoStatus(false);
    try {
      fake.failNextSends(1, { code: 131009, message: 'Parameter value is not valid' });
      fake.failNextSends(1, { code: 130429, status: 429, message: 'Rate limit hit' });
      await c.send();
      await c.waitFor('completed');
      // One refused for good (tried once), one throttled then sent (tried twice): 6 requests, 4 sends.
      expect(c.requests()).toBe(6);
      const sends = c.sends();
      expect(sends).toHaveLength(4);
      const refused = (await c.logs()).logs.filter((l) => l.status === 'failed');
      expect(refused).toMatchObject([
        { error_code: 131009, error: expect.stringContaining('Parameter value is not valid') },
      ]);

      // Meta's webhooks: one undeliverable, one delivered, one read.
      const sent = (await c.logs()).logs.filter((l) => l.status === 'sent');
      expect(sent).toHaveLength(4);
      const hook = (
        i: number,
        kinds: Array<'sent' | 'delivered' | 'read' | 'failed'>,
        error?: { code: number; title: string },
      ) => {
        const callback = sends.find((s) => `+${s.to}` === sent[i]!.phone)!.callback!;
        return fake.postWebhook(
          statusDelivery(c.number, sent[i]!.wa_message_id!, sent[i]!.phone.slice(1), kinds, callback, error),
        );
      };
      await hook(0, ['failed'], { code: 131026, title: 'Message undeliverable' });
      await hook(1, ['delivered']);
      await hook(2, ['delivered', 'read']);
      await expect
        .poll(async () => (await c.analytics()).counts, { timeout: 10_000 })
        .toMatchObject({ recipients: 5, sent: 1, delivered: 1, read: 1, failed: 2, queued: 0 });
      const analytics = await c.analytics();
      expect(analytics.errors).toEqual(
        expect.arrayContaining([
          { code: 131026, error: 'Message undeliverable', count: 1 },
          { code: 131009, error: expect.stringContaining('Parameter value is not valid'), count: 1 },
        ]),
      );
      const undeliverable = (await c.logs()).logs.find((l) => l.phone === sent[0]!.phone)!;
      expect(undeliverable).toMatchObject({ status: 'failed', error_code: 131026 });
      expect(c.requests()).toBe(6); // a failure reported by webhook is not retried
    } finally {
      fake.autoStatus(true);
    }
  });

  it('sends a dead run’s claims it never tried, and never sends again those it did', async () => {
    const c = await campaignOf(4);
    // As a worker killed mid-batch leaves them: two claimed and never tried, one tried.
    await server.database.db.execute(
      sql`INSERT INTO whatsapp_campaign_recipients (tenant_id, campaign_id, contact_id, phone, name, fields, status,
                                                    attempts, claimed_by, claimed_at, updated_at)
          SELECT tenant_id, ${c.id}, id, phone, name, jsonb_build_object('name', name), 'sending', 1, 'dead-run:1',
                 CASE WHEN row_number() OVER (ORDER BY id) = 1 THEN now() - interval '30 seconds' END,
                 now() - interval '30 seconds'
            FROM whatsapp_contacts WHERE account_id = ${c.account.id} ORDER BY id LIMIT 3`,
    );
    const claimed = await server.database.db
      .select()
      .from(whatsappRecipients)
      .where(eq(whatsappRecipients.campaignId, c.id))
      .orderBy(whatsappRecipients.id);
    expect((await c.send()).status).toBe(200);
    await c.waitFor('completed');
    const sends = c.sends().map((s) => `+${s.to}`);
    expect(sends.sort()).toEqual(
      (await c.logs()).logs
        .map((l) => l.phone)
        .filter((p) => p !== claimed[0]!.phone)
        .sort(),
    );
    const logs = (await c.logs()).logs;
    expect(logs.find((l) => l.phone === claimed[0]!.phone)).toMatchObject({
      status: 'failed',
      error: WHATSAPP_TEXTS.interrupted,
    });
    expect(logs.filter((l) => l.status !== 'failed')).toHaveLength(3);
  });
});
