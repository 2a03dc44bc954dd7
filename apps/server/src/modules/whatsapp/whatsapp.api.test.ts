import { randomBytes } from 'node:crypto';
import {
  type Bot,
  type CampaignAnalytics,
  type CampaignLogList,
  type ContactList,
  HANDOFF_TEXTS,
  HELPDESK_TEXTS,
  type ImportPreview,
  type ImportResult,
  type MetaTemplateList,
  type OnboardResult,
  WHATSAPP_TEXTS,
  type WhatsAppAccount,
  type WhatsAppCampaign,
  type WhatsAppContact,
  type WhatsAppTemplate,
} from '@parley/contracts';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../core/db/schema.js';
import { createBotViaApi } from '../../test/bots.js';
import { addTeammate, createRole, signupOwner, tokenFromText } from '../../test/factories.js';
import {
  buttonReply,
  type FakeNumber,
  inboundDelivery,
  startWhatsAppCloudFake,
  statusDelivery,
  textMessage,
  type WhatsAppCloudFake,
} from '../../test/fakes/whatsapp-cloud.js';
import { attachDocument } from '../../test/knowledge.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { conversationEvents, conversations, messages } from '../chat/chat.schema.js';
import { replyTexts } from '../chat/reply-texts.js';
import { SMALL_TALK_REPLIES } from '../chat/small-talk.js';
import { PERSON_PAYLOAD } from '../social/channel-actions.js';
import { viewOf } from './contacts.service.js';
import { WHATSAPP_INBOUND_JOB } from './conversations.service.js';
import {
  whatsappAccounts,
  whatsappCampaigns,
  whatsappContacts,
  whatsappRecipients,
} from './whatsapp.schema.js';

const APP = { appId: '2234567890', appSecret: 'whatsapp-app-secret-for-tests' };
const VERIFY = 'verify-whatsapp';
let server: TestServer;
let fake: WhatsAppCloudFake;
let owner: Account;
let other: Account;
let botId: number;
const as = (account: Account) => ({ token: account.access_token });
const unique = () => randomBytes(4).toString('hex');
const digits = (n: number) => String(Math.floor(Math.random() * 10 ** n)).padStart(n, '0');

const RETURNS =
  'Unused items can be returned within thirty days of delivery for a full refund. Send them back with the prepaid label.';

beforeAll(async () => {
  fake = await startWhatsAppCloudFake(APP);
  server = await startTestServer({
    env: {
      META_APP_ID: APP.appId,
      META_APP_SECRET: APP.appSecret,
      META_VERIFY_TOKEN: VERIFY,
      META_GRAPH_URL: fake.url,
      META_LOGIN_URL: fake.dialogUrl,
      WHATSAPP_CONFIG_ID: '998877',
      WHATSAPP_SEND_RATE: '400',
    },
  });
  fake.webhookUrl = `${server.url}/api/social/whatsapp/webhook`;
  owner = await signupOwner(server);
  other = await signupOwner(server);
  botId = (await createBotViaApi(server, owner, { bot_name: 'WhatsApp helper' })).bot_id;
  await attachDocument(server, owner, botId, {
    title: 'Returns policy',
    url: 'https://shop.example/returns',
    text: RETURNS,
  });
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const newNumber = (): FakeNumber => ({
  wabaId: `1${digits(14)}`,
  phoneNumberId: `2${digits(14)}`,
  displayPhoneNumber: '+1 415 555 0100',
  verifiedName: `Shop ${unique()}`,
});

/** The embedded signup's result posted as the console posts it. */
async function onboard(account: Account, number = newNumber(), extra: Record<string, unknown> = {}) {
  const code = `code-${unique()}`;
  fake.addSignup(code, number);
  const reply = await server.post<OnboardResult & { detail?: string }>(
    '/api/social/whatsapp/embedded-signup/onboard',
    { code, waba_id: number.wabaId, phone_number_id: number.phoneNumberId, ...extra },
    as(account),
  );
  return { reply, number };
}

async function connected(account: Account = owner, extra: Record<string, unknown> = { bot_id: botId }) {
  const { reply, number } = await onboard(account, newNumber(), extra);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return { account: reply.body.account, number };
}

/** Waits for the queue to leave no WhatsApp job queued or running. */
async function settled(timeout = 20_000) {
  await expect
    .poll(
      async () => {
        const [row] = await server.database.db
          .select({ n: sql<number>`count(*)::int` })
          .from(jobs)
          .where(and(sql`${jobs.name} like 'whatsapp.%'`, sql`${jobs.status} in ('queued', 'active')`));
        return row!.n;
      },
      { timeout, interval: 50 },
    )
    .toBe(0);
}

/** A customer writing to the number: each message delivered by webhook, the queue then settled. */
function customerOf(number: FakeNumber, from: string) {
  return async (text: string) => {
    await fake.postWebhook(
      inboundDelivery({ number, from, id: `wamid.${unique()}`, message: textMessage(text) }),
    );
    await settled();
  };
}

async function conversationOf(waId: string) {
  const [row] = await server.database.db
    .select()
    .from(conversations)
    .where(eq(conversations.visitorId, waId));
  return row;
}

async function messagesOf(conversationId: number) {
  return server.database.db
    .select()
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(messages.seq);
}

/** How many times the conversation was put in line for a person. */
async function handoffRequests(conversationId: number) {
  const rows = await server.database.db
    .select()
    .from(conversationEvents)
    .where(
      and(
        eq(conversationEvents.conversationId, conversationId),
        eq(conversationEvents.toState, 'human_requested'),
      ),
    );
  return rows.length;
}

const personAction = (message: { metadata: unknown }) =>
  ((message.metadata as { actions?: Array<{ type: string }> }).actions ?? []).some((a) => a.type === 'human');

async function approvedTemplate(accountId: number, body = 'Hello {{1}}, your order {{2}} has shipped.') {
  const name = `order_${unique()}`;
  const created = await server.post<WhatsAppTemplate>(
    '/api/social/whatsapp/templates',
    {
      account_id: accountId,
      name,
      language: 'en_US',
      category: 'UTILITY',
      body,
      body_examples: ['Ada', 'A-100'],
    },
    as(owner),
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const submitted = await server.post<WhatsAppTemplate>(
    `/api/social/whatsapp/templates/${created.body.id}/submit`,
    {},
    as(owner),
  );
  expect(submitted.body.status).toBe('PENDING');
  await fake.review(name, 'APPROVED');
  await expect
    .poll(
      async () =>
        (await server.get<WhatsAppTemplate>(`/api/social/whatsapp/templates/${created.body.id}`, as(owner)))
          .body.status,
    )
    .toBe('APPROVED');
  return created.body;
}

/** The template message the fake received for one customer. */
function templateSent(to: string, name: string) {
  return fake.sent.find(
    (s) => s.body.to === to && (s.body.template as { name?: string } | undefined)?.name === name,
  )!.body.template;
}

function csvForm(csv: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'contacts.csv');
  return form;
}

async function upload<T>(path: string, form: FormData, account: Account = owner) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${account.access_token}` },
  });
  return { status: response.status, body: (await response.json()) as T };
}

describe('accounts', () => {
  it('gives the console the embedded signup dialog', async () => {
    const config = await server.get<{ configured: boolean; dialog_url: string }>(
      '/api/social/whatsapp/embedded-signup/config',
      as(owner),
    );
    expect(config.body.configured).toBe(true);
    const url = new URL(config.body.dialog_url);
    expect(url.searchParams.get('config_id')).toBe('998877');
    expect(url.searchParams.get('client_id')).toBe(APP.appId);
    expect(url.searchParams.get('redirect_uri')).toBe('http://parley.test/whatsapp/callback');
  });

  it('onboards a number: code exchanged, number registered, app subscribed, token never returned', async () => {
    const { reply, number } = await onboard(owner);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.message).toBe(WHATSAPP_TEXTS.onboarded);
    expect(reply.body.account).toMatchObject({
      waba_id: number.wabaId,
      phone_number_id: number.phoneNumberId,
      display_phone_number: '+1 415 555 0100',
      verified_name: number.verifiedName,
      quality_rating: 'GREEN',
      bot_id: null,
      is_active: true,
    });
    expect(fake.registered.has(number.phoneNumberId)).toBe(true);
    expect(fake.subscribed.has(number.wabaId)).toBe(true);
    const [row] = await server.database.db
      .select()
      .from(whatsappAccounts)
      .where(eq(whatsappAccounts.phoneNumberId, number.phoneNumberId));
    expect(row!.accessToken.startsWith('v1:')).toBe(true);
    const listed = await server.get<WhatsAppAccount[]>('/api/social/whatsapp/accounts', as(owner));
    expect(listed.body.map((a) => a.phone_number_id)).toContain(number.phoneNumberId);
    expect(JSON.stringify(listed.body)).not.toMatch(/access_token|EAAW/);
  });

  it('refuses a missing code, a refused code, a number outside the business account and another workspace’s number', async () => {
    const number = newNumber();
    const noCode = await server.post(
      '/api/social/whatsapp/embedded-signup/onboard',
      { waba_id: number.wabaId, phone_number_id: number.phoneNumberId },
      as(owner),
    );
    expect([noCode.status, noCode.body]).toEqual([400, { detail: WHATSAPP_TEXTS.codeMissing }]);
    const refused = await server.post<{ detail: string }>(
      '/api/social/whatsapp/embedded-signup/onboard',
      { code: 'nope', waba_id: number.wabaId, phone_number_id: number.phoneNumberId },
      as(owner),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/^Failed to connect the WhatsApp number: Invalid verification code/);
    const code = `code-${unique()}`;
    fake.addSignup(code, number);
    const elsewhere = await server.post(
      '/api/social/whatsapp/embedded-signup/onboard',
      { code, waba_id: number.wabaId, phone_number_id: '99999' },
      as(owner),
    );
    expect([elsewhere.status, elsewhere.body]).toEqual([400, { detail: WHATSAPP_TEXTS.numberNotInAccount }]);

    const { number: taken } = await connected(owner, {});
    const again = await onboard(other, taken);
    expect([again.reply.status, again.reply.body]).toEqual([409, { detail: WHATSAPP_TEXTS.takenByAnother }]);
    const [row] = await server.database.db
      .select()
      .from(whatsappAccounts)
      .where(eq(whatsappAccounts.phoneNumberId, taken.phoneNumberId));
    expect(row!.tenantId).toBe(owner.user.tenant_id);
  });

  it('links, unlinks and removes with the texts; another workspace’s ids answer 404', async () => {
    const { account, number } = await connected(owner, {});
    const linked = await server.post(
      '/api/social/whatsapp/accounts/link-bot',
      { account_id: account.id, bot_id: botId },
      as(owner),
    );
    expect(linked.body).toEqual({ message: WHATSAPP_TEXTS.linked });
    const listed = await server.get<WhatsAppAccount[]>('/api/social/whatsapp/accounts', as(owner));
    expect(listed.body.find((a) => a.id === account.id)).toMatchObject({
      bot_id: botId,
      bot_name: 'WhatsApp helper',
    });

    for (const [path, body] of [
      ['/api/social/whatsapp/accounts/link-bot', { account_id: account.id, bot_id: botId }],
      ['/api/social/whatsapp/accounts/unlink-bot', { account_id: account.id }],
    ] as const) {
      const foreign = await server.post(path, body, as(other));
      expect([foreign.status, foreign.body]).toEqual([404, { detail: WHATSAPP_TEXTS.accountNotFound }]);
    }
    const foreignDelete = await server.delete(`/api/social/whatsapp/accounts/${account.id}`, as(other));
    expect(foreignDelete.status).toBe(404);
    expect((await server.get<WhatsAppAccount[]>('/api/social/whatsapp/accounts', as(other))).body).toEqual(
      [],
    );

    const unlinked = await server.post(
      '/api/social/whatsapp/accounts/unlink-bot',
      { account_id: account.id },
      as(owner),
    );
    expect(unlinked.body).toEqual({ message: WHATSAPP_TEXTS.unlinked });
    const removed = await server.delete(`/api/social/whatsapp/accounts/${account.id}`, as(owner));
    expect(removed.body).toEqual({ message: WHATSAPP_TEXTS.accountRemoved });
    expect(fake.subscribed.has(number.wabaId)).toBe(false);
  });

  it('needs the bots permission: a teammate without it gets 403', async () => {
    const role = await createRole(server, owner, { Inbox: { read: true } });
    const teammate = await addTeammate(server, owner, role, (email) =>
      outboxText(server.database, email).then(tokenFromText),
    );
    const listed = await server.get('/api/social/whatsapp/accounts', as(teammate));
    expect(listed.status).toBe(403);
    const contacts = await server.post(
      '/api/social/whatsapp/contacts',
      { account_id: 1, phone: '+14155550123' },
      as(teammate),
    );
    expect(contacts.status).toBe(403);
  });
});

describe('the webhook', () => {
  it('answers the subscription check only with the verify token', async () => {
    const ok = await fetch(
      `${server.url}/api/social/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=${VERIFY}&hub.challenge=42`,
    );
    expect([ok.status, await ok.text()]).toEqual([200, '42']);
    const wrong = await fetch(
      `${server.url}/api/social/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=x&hub.challenge=42`,
    );
    expect(wrong.status).toBe(403);
  });

  it('refuses an unsigned or wrongly signed delivery and stores nothing', async () => {
    const { number } = await connected();
    const from = `1415${digits(7)}`;
    const payload = inboundDelivery({ number, from, message: textMessage('Can I return shoes?') });
    const missing = await fake.postWebhook(payload, { signature: null });
    const wrong = await fake.postWebhook(payload, { signature: `sha256=${'0'.repeat(64)}` });
    expect([missing.status, wrong.status]).toEqual([401, 401]);
    await settled();
    expect(await conversationOf(from)).toBeUndefined();
  });
});

describe('conversations', () => {
  it('answers a customer with sources as links, marks the message read with typing, and de-duplicates replays', async () => {
    const { number } = await connected();
    const from = `1415${digits(7)}`;
    const id = `wamid.${unique()}`;
    const payload = inboundDelivery({
      number,
      from,
      name: 'Grace Hopper',
      id,
      message: textMessage('How do I return unused items for a refund?'),
    });
    const first = await fake.postWebhook(payload);
    expect([first.status, await first.text()]).toEqual([200, 'EVENT_RECEIVED']);
    const replay = await fake.postWebhook(payload);
    expect(replay.status).toBe(200);
    await settled();
    await expect.poll(() => fake.texts(from).length).toBeGreaterThan(0);
    const [answer] = fake.texts(from);
    expect(answer).toContain('thirty days');
    expect(answer).toContain('Sources:\n1. Returns policy https://shop.example/returns');
    const read = fake.sent.find((s) => s.body.status === 'read' && s.body.message_id === id);
    expect(read?.body.typing_indicator).toEqual({ type: 'text' });

    const conversation = (await conversationOf(from))!;
    expect(conversation).toMatchObject({
      channel: 'whatsapp',
      whatsappPhoneNumberId: number.phoneNumberId,
      botId,
    });
    expect(conversation.userProfile).toMatchObject({
      name: 'Grace Hopper',
      phoneNumber: `+${from}`,
      platform: 'whatsapp',
    });
    const stored = await server.database.db
      .select()
      .from(messages)
      .where(eq(messages.conversationId, conversation.id))
      .orderBy(messages.seq);
    const questions = stored.filter((m) => m.messageType === 'user');
    expect(questions).toHaveLength(1); // the replay was not taken twice
    expect(questions[0]!.metadata).toMatchObject({
      message_metadata: {
        whatsapp_phone_number_id: number.phoneNumberId,
        message_data: { contact_info: { profile_name: 'Grace Hopper', wa_id: from } },
      },
    });
    const bot = stored.find(
      (m) => m.messageType === 'bot' && !(m.metadata as { welcome?: boolean } | null)?.welcome,
    )!;
    await expect
      .poll(async () => {
        const [row] = await server.database.db.select().from(messages).where(eq(messages.id, bot.id));
        return (row!.metadata as { delivery?: { status?: string } }).delivery?.status;
      })
      .toBe('delivered'); // the fake's status webhooks: sent, then delivered
  });

  it('stores and answers a message once when its job runs again (a crash after the first run)', async () => {
    const { account, number } = await connected();
    const from = `1415${digits(7)}`;
    const payload = inboundDelivery({
      number,
      from,
      name: 'Grace Hopper',
      message: textMessage('How do I return unused items for a refund?'),
    });
    const message = payload.entry[0]!.changes[0]!.value.messages[0]!;
    for (let run = 0; run < 2; run += 1) {
      await server.parley.jobs.enqueue(
        WHATSAPP_INBOUND_JOB,
        { accountId: account.id, profileName: 'Grace Hopper', message },
        { tenantId: owner.user.tenant_id },
      );
      await settled();
    }
    await expect.poll(() => fake.texts(from).length).toBe(1);
    const conversation = (await conversationOf(from))!;
    const stored = await server.database.db
      .select()
      .from(messages)
      .where(eq(messages.conversationId, conversation.id));
    expect(stored.filter((m) => m.messageType === 'user')).toHaveLength(1);
  });

  it('shows on the message that WhatsApp could not deliver it, from the status webhook', async () => {
    const { number } = await connected();
    const from = `1415${digits(7)}`;
    fake.autoStatus(false);
    try {
      await fake.postWebhook(
        inboundDelivery({ number, from, message: textMessage('Can I return unused items?') }),
      );
      await settled();
      const conversation = (await conversationOf(from))!;
      const answer = async () => {
        const rows = await server.database.db
          .select()
          .from(messages)
          .where(eq(messages.conversationId, conversation.id));
        return rows.find((m) => (m.metadata as { delivery?: { wamid?: string } } | null)?.delivery?.wamid)!;
      };
      const { delivery } = (await answer()).metadata as { delivery: { wamid: string; status: string } };
      expect(delivery.status).toBe('sent');
      await fake.postWebhook(
        statusDelivery(number, delivery.wamid, from, ['failed'], undefined, {
          code: 131026,
          title: 'Message undeliverable',
        }),
      );
      await expect
        .poll(async () => ((await answer()).metadata as { delivery: unknown }).delivery)
        .toMatchObject({
          status: 'failed',
          error: expect.stringMatching(
            /^WhatsApp could not deliver it: the number may not be on WhatsApp.*\(WhatsApp error 131026\)$/,
          ),
          wamid: delivery.wamid,
        });
    } finally {
      fake.autoStatus(true);
    }
  });

  it('files locations, contacts, captions and choices as text the inbox and the bot can read', async () => {
    const { number } = await connected();
    const from = `1415${digits(7)}`;
    const kinds = [
      {
        type: 'location',
        location: { latitude: 51.5, longitude: -0.12, name: 'Shop', address: '1 High St' },
      },
      { type: 'image', image: { id: 'media-1', mime_type: 'image/jpeg', caption: 'This one is broken' } },
      {
        type: 'interactive',
        interactive: { type: 'button_reply', button_reply: { id: 'yes', title: 'Yes please' } },
      },
      {
        type: 'contacts',
        contacts: [{ name: { formatted_name: 'Bob' }, phones: [{ phone: '+44 20 7946 0000' }] }],
      },
    ];
    for (const message of kinds) await fake.postWebhook(inboundDelivery({ number, from, message }));
    await settled();
    const conversation = (await conversationOf(from))!;
    const texts = (
      await server.database.db.select().from(messages).where(eq(messages.conversationId, conversation.id))
    )
      .filter((m) => m.messageType === 'user')
      .map((m) => m.message);
    expect(texts).toEqual(
      expect.arrayContaining([
        '[location] Shop, 1 High St (51.5, -0.12)',
        'This one is broken',
        'Yes please',
        '[contact] Bob +44 20 7946 0000',
      ]),
    );
  });

  it('lets an agent take over and, after 24 hours, only send an approved template', async () => {
    const { account, number } = await connected();
    const from = `1415${digits(7)}`;
    const dayAgo = Date.now() - 25 * 3_600_000;
    await fake.postWebhook(
      inboundDelivery({ number, from, timestamp: dayAgo, message: textMessage('Hello?') }),
    );
    await settled();
    const conversation = (await conversationOf(from))!;
    const took = await server.patch(
      `/api/chat/conversations/${conversation.id}/helpdesk-control`,
      {
        tenant_id: owner.user.tenant_id,
        is_helpdesk_in_control: true,
        whatsapp_phone_number_id: number.phoneNumberId,
      },
      as(owner),
    );
    expect(took.status, JSON.stringify(took.body)).toBe(200);
    const shown = await server.get<{
      reply_window: { state: string; reason: string };
      user_profile: unknown;
    }>(`/api/chat/helpdesk/conversations/${conversation.id}`, as(owner));
    expect(shown.body.reply_window).toMatchObject({ state: 'closed', reason: WHATSAPP_TEXTS.windowClosed });
    expect(shown.body.user_profile).toMatchObject({
      phoneNumber: `+${from}`,
      platform: 'whatsapp',
      name: 'Customer',
    });
    const free = await server.post<{ detail: string }>(
      `/api/chat/helpdesk/conversations/${conversation.id}/reply`,
      { message: 'Sorry for the wait' },
      as(owner),
    );
    expect(free.status).toBe(409);
    expect(free.body.detail).toBe(WHATSAPP_TEXTS.windowClosed);

    const template = await approvedTemplate(account.id);
    const missing = await server.post(
      `/api/social/whatsapp/conversations/${conversation.id}/template`,
      { template_id: template.id, variables: ['Ada'] },
      as(owner),
    );
    expect(missing.status).toBe(400);
    const sent = await server.post(
      `/api/social/whatsapp/conversations/${conversation.id}/template`,
      { template_id: template.id, variables: ['Ada', 'A-7'] },
      as(owner),
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    await expect.poll(() => fake.templateSends(from).map((s) => s.name)).toEqual([template.name]);
    const foreign = await server.post(
      `/api/social/whatsapp/conversations/${conversation.id}/template`,
      { template_id: template.id, variables: ['Ada', 'A-7'] },
      as(other),
    );
    expect(foreign.status).toBe(404);
  });

  it("greets a customer's first hello with the bot's welcome, which a channel never showed, then a short hello", async () => {
    const { number } = await connected();
    const from = `1415${digits(7)}`;
    await fake.postWebhook(
      inboundDelivery({ number, from, id: `wamid.${unique()}`, message: textMessage('Hi!') }),
    );
    await settled();
    const bot = await server.get<Bot>(`/api/chat/bots/${botId}`, as(owner));
    expect(bot.body.welcome_message).toMatch(/^Welcome to /);
    await expect.poll(() => fake.texts(from)).toEqual([bot.body.welcome_message]);
    await fake.postWebhook(
      inboundDelivery({ number, from, id: `wamid.${unique()}`, message: textMessage('thanks') }),
    );
    await settled();
    await expect.poll(() => fake.texts(from).at(-1)).toBe(SMALL_TALK_REPLIES.thanks);
    await fake.postWebhook(
      inboundDelivery({ number, from, id: `wamid.${unique()}`, message: textMessage('hello') }),
    );
    await settled();
    await expect.poll(() => fake.texts(from).at(-1)).toBe(SMALL_TALK_REPLIES.greeting);
  });

  it('takes a typed "yes" to the offered person as the request, as well as the button', async () => {
    const { number } = await connected();
    const from = `1415${digits(7)}`;
    const say = customerOf(number, from);
    await say('Do you sell gift vouchers?');
    await expect.poll(() => fake.texts(from).at(-1)).toMatch(/talk to a person/);
    await say('yes');
    await expect.poll(async () => (await conversationOf(from))?.handoffState).toBe('human_requested');
    await expect.poll(() => fake.texts(from).at(-1)).toBe(HANDOFF_TEXTS.nobodyOnlineNoForm);
  });

  it('shows "Talk to a person" as a reply button under an answer it could not give; its tap hands over once', async () => {
    const { number } = await connected();
    const from = `1415${digits(7)}`;
    await customerOf(number, from)('How do I return unused items for a refund?');
    expect(fake.interactives(from)).toEqual([]); // an answer with its sources offers nothing
    await customerOf(number, from)('Do you sell gift vouchers?');
    const conversation = (await conversationOf(from))!;
    const answer = (await messagesOf(conversation.id)).at(-1)!;
    const sent = fake.sent.filter((s) => s.body.to === from && s.body.type === 'interactive');
    expect(sent.map((s) => s.body)).toEqual([
      {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: from,
        type: 'interactive',
        interactive: {
          type: 'button',
          // The answer's words as they are, one message, with the button under them.
          body: { text: answer.message },
          action: { buttons: [{ type: 'reply', reply: { id: PERSON_PAYLOAD, title: 'Talk to a person' } }] },
        },
      },
    ]);
    const wamid = (answer.metadata as { delivery: { wamid: string } }).delivery.wamid;
    expect(wamid).toMatch(/^wamid\./);

    const tap = inboundDelivery({
      number,
      from,
      id: `wamid.${unique()}`,
      message: buttonReply(PERSON_PAYLOAD, 'Talk to a person', wamid),
    });
    await fake.postWebhook(tap);
    await fake.postWebhook(tap); // Meta delivers it again
    await settled();
    expect((await conversationOf(from))!.handoffState).toBe('human_requested');
    await expect.poll(() => fake.texts(from).at(-1)).toBe(HANDOFF_TEXTS.nobodyOnlineNoForm);
    let stored = await messagesOf(conversation.id);
    const tapped = stored.filter((m) => m.messageType === 'user' && m.message === 'Talk to a person');
    expect(tapped).toHaveLength(1);
    expect((tapped[0]!.metadata as { message_metadata: object }).message_metadata).toMatchObject({
      for_agents: true,
      message_data: { interactive: { button_reply: { id: PERSON_PAYLOAD } } },
    });
    // The hand-off answered the tap; the bot did not, and showed no "typing…" for it.
    expect(stored.filter((m) => m.seq > tapped[0]!.seq).map((m) => m.messageType)).toEqual(['system']);
    const read = fake.sent.find(
      (s) =>
        s.body.status === 'read' && s.body.message_id === tap.entry[0]!.changes[0]!.value.messages[0]!.id,
    );
    expect(read?.body.typing_indicator).toBeUndefined();

    // Tapped again later (WhatsApp keeps the button): told they are already waiting, not queued twice.
    await fake.postWebhook(
      inboundDelivery({ number, from, message: buttonReply(PERSON_PAYLOAD, 'Talk to a person', wamid) }),
    );
    await settled();
    await expect.poll(() => fake.texts(from).at(-1)).toBe(HANDOFF_TEXTS.alreadyWaiting);
    expect(await handoffRequests(conversation.id)).toBe(1);
    stored = await messagesOf(conversation.id);
    const forCustomer = stored.filter(
      (m) =>
        m.messageType === 'system' ||
        (m.messageType === 'bot' && !(m.metadata as { welcome?: boolean } | null)?.welcome),
    );
    // Every message for the customer went out exactly once.
    expect(fake.texts(from)).toHaveLength(forCustomer.length);
  });

  it('hands over once when the tap’s job runs again after a crash', async () => {
    const { account, number } = await connected();
    const from = `1415${digits(7)}`;
    await customerOf(number, from)('Do you sell gift vouchers?');
    const message = inboundDelivery({
      number,
      from,
      message: buttonReply(PERSON_PAYLOAD, 'Talk to a person'),
    }).entry[0]!.changes[0]!.value.messages[0]!;
    for (let run = 0; run < 2; run += 1) {
      await server.parley.jobs.enqueue(
        WHATSAPP_INBOUND_JOB,
        { accountId: account.id, profileName: 'Customer', message },
        { tenantId: owner.user.tenant_id },
      );
      await settled();
    }
    const conversation = (await conversationOf(from))!;
    expect(conversation.handoffState).toBe('human_requested');
    expect(await handoffRequests(conversation.id)).toBe(1);
    await expect.poll(() => fake.texts(from).at(-1)).toBe(HANDOFF_TEXTS.nobodyOnlineNoForm);
    expect(fake.texts(from).filter((t) => t === HANDOFF_TEXTS.alreadyWaiting)).toEqual([]);
  });

  it('fits the button in 20 characters; a refused button goes once as text, the answer whole; none past the window', async () => {
    const { number } = await connected();
    const spanish = `3460${digits(7)}`;
    await customerOf(number, spanish)('¿Vendéis cheques regalo para una tienda de Madrid?');
    // "Hablar con una persona" is 22 characters: WhatsApp would refuse it, so it is said shorter.
    expect(fake.interactives(spanish).map((i) => i.action?.buttons)).toEqual([
      [{ type: 'reply', reply: { id: PERSON_PAYLOAD, title: 'Hablar con alguien' } }],
    ]);

    const from = `1415${digits(7)}`;
    fake.refuseInteractive({ code: 131051, message: '(#131051) Unsupported message type' });
    try {
      await customerOf(number, from)('Do you sell gift vouchers?');
    } finally {
      fake.refuseInteractive(null);
    }
    const conversation = (await conversationOf(from))!;
    const answer = (await messagesOf(conversation.id)).at(-1)!;
    // One text, the answer's words, which already say how to ask for a person.
    expect(fake.interactives(from)).toEqual([]);
    expect(fake.texts(from)).toEqual([answer.message]);
    expect(answer.message).toMatch(/talk to a person/);
    expect(answer.metadata).toMatchObject({
      delivery: { status: expect.stringMatching(/^(sent|delivered)$/), error: null, plain: true },
    });
    const [job] = await server.database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.name, 'whatsapp.send'), sql`${jobs.data}->>'messageId' = ${String(answer.id)}`));
    expect([job!.status, job!.attempts]).toEqual(['completed', 1]);

    // Past the 24-hour window a button is no more allowed than text: nothing goes, the reason shows.
    const late = `1415${digits(7)}`;
    await fake.postWebhook(
      inboundDelivery({
        number,
        from: late,
        timestamp: Date.now() - 25 * 3_600_000,
        message: textMessage('Do you sell gift vouchers?'),
      }),
    );
    await settled();
    const lateAnswer = (await messagesOf((await conversationOf(late))!.id)).at(-1)!;
    expect(personAction(lateAnswer)).toBe(true);
    expect(fake.sent.filter((s) => s.body.to === late && s.body.type)).toEqual([]);
    expect(lateAnswer.metadata).toMatchObject({
      delivery: { status: 'failed', error: WHATSAPP_TEXTS.windowClosed },
    });
  });

  it('speaks to a customer in the language their words tell, hand-off included', async () => {
    const { number } = await connected();
    const from = `3460${digits(7)}`;
    const say = customerOf(number, from);
    // The bot's sources are English; this customer writes Spanish, after a hello that tells nothing.
    await say('Hola');
    expect((await conversationOf(from))?.visitorLanguage).toBeNull();
    await say('¿Vendéis cheques regalo para una tienda de Madrid?');
    await expect.poll(async () => (await conversationOf(from))?.visitorLanguage).toBe('spanish');
    await expect.poll(() => fake.texts(from).at(-1)).toMatch(/^Lo siento, no sé la respuesta a eso\./);
    await say('sí');
    await expect.poll(async () => (await conversationOf(from))?.handoffState).toBe('human_requested');
    await expect
      .poll(() => fake.texts(from).at(-1))
      .toMatch(/^Ahora mismo no hay nadie de nuestro equipo conectado/);
    // A first message that tells its language sets it at once.
    const other = `3460${digits(7)}`;
    await customerOf(number, other)('Bonjour, est-ce que vous livrez à Lyon ?');
    expect((await conversationOf(other))?.visitorLanguage).toBe('french');
  });

  it('keeps the files customers send for the agents; the bot says it cannot read them, and stays silent on reactions, stickers and unsupported kinds', async () => {
    const { number } = await connected();
    const from = `1415${digits(7)}`;
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(64)]);
    const pdf = Buffer.from('%PDF-1.4 invoice');
    const photo = fake.addMedia(number, jpeg, 'image/jpeg');
    const voice = fake.addMedia(number, randomBytes(32), 'audio/ogg; codecs=opus');
    const invoice = fake.addMedia(number, pdf, 'application/pdf');
    const elsewhere = fake.addMedia(newNumber(), randomBytes(8), 'image/png'); // another number's file
    const kinds = [
      { type: 'image', image: { id: photo, mime_type: 'image/jpeg' } },
      { type: 'audio', audio: { id: voice, mime_type: 'audio/ogg; codecs=opus', voice: true } },
      { type: 'document', document: { id: invoice, mime_type: 'application/pdf', filename: 'invoice.pdf' } },
      { type: 'image', image: { id: elsewhere, mime_type: 'image/png' } },
      { type: 'sticker', sticker: { id: photo, mime_type: 'image/webp' } },
      { type: 'reaction', reaction: { message_id: 'wamid.earlier', emoji: '👍' } },
      { type: 'reaction', reaction: { message_id: 'wamid.earlier', emoji: '' } }, // taken back
      {
        type: 'unsupported',
        unsupported: { type: 'poll_creation' },
        errors: [{ code: 131051, title: 'Message type unknown' }],
      },
    ];
    for (const message of kinds) {
      await fake.postWebhook(inboundDelivery({ number, from, message }));
      await settled();
    }
    const conversation = (await conversationOf(from))!;
    const asked = (
      await server.database.db
        .select()
        .from(messages)
        .where(eq(messages.conversationId, conversation.id))
        .orderBy(messages.seq)
    ).filter((m) => m.messageType === 'user');
    expect(asked.map((m) => m.message)).toEqual([
      '[image]',
      '[voice message]',
      '[document] invoice.pdf',
      '[image] (the file could not be downloaded from WhatsApp)',
      '[sticker]',
      '[reaction] 👍',
      '[unsupported message: poll_creation]',
    ]);
    const files = asked.map(
      (m) => (m.attachments as Array<{ name: string; url: string; content_type: string }>)[0],
    );
    expect(files.slice(0, 3)).toEqual([
      expect.objectContaining({ name: 'image.jpg', content_type: 'image/jpeg', size: jpeg.length }),
      expect.objectContaining({ name: 'audio.ogg', content_type: 'audio/ogg' }),
      expect.objectContaining({ name: 'invoice.pdf', content_type: 'application/pdf', size: pdf.length }),
    ]);
    expect(files[3]).toBeUndefined();
    const image = await fetch(`${server.url}${files[0]!.url}`);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    expect(image.headers.get('content-disposition')).toBe('inline');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await image.arrayBuffer()).equals(jpeg)).toBe(true);
    const document = await fetch(`${server.url}${files[2]!.url}`);
    expect(document.headers.get('content-disposition')).toBe('attachment');
    expect(document.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect((await fetch(`${server.url}/api/social/whatsapp/media/1_${'0'.repeat(32)}.jpg`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/social/whatsapp/media/..%2Fsecret.jpg`)).status).toBe(400);
    // Three wordless files, one "cannot read" each; nothing for the sticker, reactions or the poll.
    await expect
      .poll(() => fake.texts(from))
      .toEqual([
        replyTexts('').mediaUnread,
        replyTexts('').mediaUnread,
        replyTexts('').mediaUnread,
        replyTexts('').mediaUnread,
      ]);
  });

  it('keeps the best status whatever order and however often Meta sends them, and says plainly why a message failed', async () => {
    const { number } = await connected();
    const from = `1415${digits(7)}`;
    fake.autoStatus(false);
    try {
      await customerOf(number, from)('Can I return unused items?');
      const conversation = (await conversationOf(from))!;
      const delivery = async () => {
        const shown = await server.get<{ messages: Array<{ id: number; delivery: unknown }> }>(
          `/api/chat/helpdesk/conversations/${conversation.id}`,
          as(owner),
        );
        return shown.body.messages.filter((m) => m.delivery).map((m) => m.delivery);
      };
      const [row] = (
        await server.database.db.select().from(messages).where(eq(messages.conversationId, conversation.id))
      ).filter((m) => (m.metadata as { delivery?: unknown }).delivery);
      const { wamid } = (row!.metadata as { delivery: { wamid: string } }).delivery;
      for (const kinds of [['read'], ['delivered'], ['sent'], ['delivered']] as const)
        await fake.postWebhook(statusDelivery(number, wamid, from, [...kinds]));
      expect(await delivery()).toEqual([{ status: 'read', error: null }]);

      await customerOf(number, from)('And how long do refunds take?');
      const latest = (
        await server.database.db
          .select()
          .from(messages)
          .where(eq(messages.conversationId, conversation.id))
          .orderBy(messages.seq)
      ).at(-1)!;
      const second = (latest.metadata as { delivery: { wamid: string } }).delivery.wamid;
      await fake.postWebhook({
        object: 'whatsapp_business_account',
        entry: [
          {
            id: number.wabaId,
            changes: [
              {
                field: 'messages',
                value: {
                  messaging_product: 'whatsapp',
                  metadata: { phone_number_id: number.phoneNumberId },
                  statuses: [
                    {
                      id: second,
                      status: 'failed',
                      timestamp: String(Math.floor(Date.now() / 1000)),
                      recipient_id: from,
                      errors: [
                        {
                          code: 131047,
                          title: 'Re-engagement message',
                          message: 'Re-engagement message',
                          error_data: {
                            details: 'Message failed to send because more than 24 hours have passed.',
                          },
                        },
                      ],
                    },
                  ],
                },
              },
            ],
          },
        ],
      });
      expect(await delivery()).toEqual([
        { status: 'read', error: null },
        { status: 'failed', error: `${WHATSAPP_TEXTS.windowClosed} (WhatsApp error 131047)` },
      ]);
      // The same status from a number of another workspace changes nothing here.
      const stranger = await connected(other, {});
      await fake.postWebhook(
        statusDelivery(stranger.number, wamid, from, ['failed'], undefined, { code: 131026, title: 'x' }),
      );
      expect((await delivery())[0]).toEqual({ status: 'read', error: null });
    } finally {
      fake.autoStatus(true);
    }
  });

  it('keeps two numbers of one workspace apart: the same customer has a conversation with each, answered from it', async () => {
    const first = await connected();
    const second = await connected();
    const from = `1415${digits(7)}`;
    await customerOf(first.number, from)('How do I return unused items?');
    await customerOf(second.number, from)('How do I return unused items?');
    const rows = await server.database.db
      .select()
      .from(conversations)
      .where(eq(conversations.visitorId, from));
    expect(rows.map((c) => c.whatsappPhoneNumberId).sort()).toEqual(
      [first.number.phoneNumberId, second.number.phoneNumberId].sort(),
    );
    await expect
      .poll(() =>
        fake.sent
          .filter((s) => s.body.to === from && s.body.type === 'text')
          .map((s) => s.phoneNumberId)
          .sort(),
      )
      .toEqual([first.number.phoneNumberId, second.number.phoneNumberId].sort());
  });

  it('does not answer a reaction left as the last word when the agent hands back', async () => {
    const { number } = await connected();
    const from = `1415${digits(7)}`;
    const say = customerOf(number, from);
    await say('How do I return unused items?');
    const conversation = (await conversationOf(from))!;
    const control = (on: boolean) =>
      server.patch(
        `/api/chat/conversations/${conversation.id}/helpdesk-control`,
        {
          tenant_id: owner.user.tenant_id,
          is_helpdesk_in_control: on,
          whatsapp_phone_number_id: number.phoneNumberId,
        },
        as(owner),
      );
    expect((await control(true)).status).toBe(200);
    const replied = await server.post(
      `/api/chat/helpdesk/conversations/${conversation.id}/reply`,
      { message: 'Use the prepaid label in the box.' },
      as(owner),
    );
    expect(replied.status, JSON.stringify(replied.body)).toBe(201);
    await fake.postWebhook(
      inboundDelivery({
        number,
        from,
        message: { type: 'reaction', reaction: { message_id: 'wamid.x', emoji: '👍' } },
      }),
    );
    await settled();
    const before = fake.texts(from).length;
    expect((await control(false)).status).toBe(200);
    await settled();
    // A question left unanswered still is (the hand-back's promise), the thumbs-up is not.
    await say('How do I return unused items?');
    await expect
      .poll(() => fake.texts(from).slice(before))
      .toEqual([HELPDESK_TEXTS.botBack, expect.stringContaining('thirty days')]);
  });

  it('honours STOP: the contact is opted out and told so', async () => {
    const { account, number } = await connected();
    const from = `1415${digits(7)}`;
    await fake.postWebhook(inboundDelivery({ number, from, message: textMessage('STOP') }));
    await settled();
    const contacts = await server.get<ContactList>(
      `/api/social/whatsapp/contacts?account_id=${account.id}&search=${from}`,
      as(owner),
    );
    expect(contacts.body.contacts).toEqual([expect.objectContaining({ phone: `+${from}`, opted_out: true })]);
    await expect.poll(() => fake.texts(from)).toEqual([WHATSAPP_TEXTS.optedOut]);
  });
});

describe('templates', () => {
  it('refuses what Meta would refuse, before anything is sent', async () => {
    const { account } = await connected(owner, {});
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ name: 'Bad Name' }, /lowercase letters, digits and underscores/],
      [{ body: 'Hi {{1}} and {{3}}.', body_examples: ['a', 'b'] }, /without gaps/],
      [{ body: 'Hi {{1}}, welcome.', body_examples: [] }, /example for every body variable/],
      [{ body: 'x'.repeat(1025) }, /at most 1024/],
      [{ category: 'PROMO' }, /Category must be/],
      [{ header: { format: 'IMAGE' } }, /Upload the header image first/],
      [{ footer: 'Reply {{1}}' }, /footer may not hold variables/],
    ];
    const before = fake.templates.size;
    for (const [change, detail] of cases) {
      const reply = await server.post<{ detail: string }>(
        '/api/social/whatsapp/templates',
        {
          account_id: account.id,
          name: `t_${unique()}`,
          language: 'en',
          category: 'MARKETING',
          body: 'Hello there.',
          ...change,
        },
        as(owner),
      );
      expect(reply.status, JSON.stringify(change)).toBe(400);
      expect(reply.body.detail).toMatch(detail);
    }
    expect(fake.templates.size).toBe(before);
    const listed = await server.get<WhatsAppTemplate[]>(
      `/api/social/whatsapp/templates?account_id=${account.id}`,
      as(owner),
    );
    expect(listed.body).toEqual([]);
  });

  it('is created, edited, submitted, approved by the review webhook, listed from Meta, and deleted at Meta too', async () => {
    const { account } = await connected(owner, {});
    const name = `welcome_${unique()}`;
    const created = await server.post<WhatsAppTemplate>(
      '/api/social/whatsapp/templates',
      {
        account_id: account.id,
        name,
        language: 'en',
        category: 'MARKETING',
        body: 'Hi {{1}}, welcome!',
        body_examples: ['Ada'],
        buttons: [{ type: 'QUICK_REPLY', text: 'Stop promotions' }],
      },
      as(owner),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'DRAFT', variable_count: 1 });
    const duplicate = await server.post(
      '/api/social/whatsapp/templates',
      { account_id: account.id, name, language: 'en', category: 'MARKETING', body: 'Hi.' },
      as(owner),
    );
    expect([duplicate.status, duplicate.body]).toEqual([409, { detail: WHATSAPP_TEXTS.templateNameTaken }]);
    const edited = await server.put<WhatsAppTemplate>(
      `/api/social/whatsapp/templates/${created.body.id}`,
      { footer: 'Parley shop' },
      as(owner),
    );
    expect(edited.body.footer).toBe('Parley shop');
    const submitted = await server.post<WhatsAppTemplate>(
      `/api/social/whatsapp/templates/${created.body.id}/submit`,
      {},
      as(owner),
    );
    expect(submitted.body).toMatchObject({ status: 'PENDING', meta_template_id: expect.any(String) });
    const sentToMeta = [...fake.templates.values()].find((t) => t.name === name)!;
    expect(sentToMeta.components).toEqual([
      { type: 'BODY', text: 'Hi {{1}}, welcome!', example: { body_text: [['Ada']] } },
      { type: 'FOOTER', text: 'Parley shop' },
      { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Stop promotions' }] },
    ]);
    const locked = await server.put(
      `/api/social/whatsapp/templates/${created.body.id}`,
      { footer: 'x' },
      as(owner),
    );
    expect([locked.status, locked.body]).toEqual([409, { detail: WHATSAPP_TEXTS.templateLocked }]);

    await fake.review(name, 'REJECTED', 'INVALID_FORMAT');
    await expect
      .poll(
        async () =>
          (await server.get<WhatsAppTemplate>(`/api/social/whatsapp/templates/${created.body.id}`, as(owner)))
            .body,
      )
      .toMatchObject({ status: 'REJECTED', rejected_reason: 'INVALID_FORMAT' });
    const meta = await server.get<MetaTemplateList>(
      `/api/social/whatsapp/templates/meta?account_id=${account.id}&force_refresh=true`,
      as(owner),
    );
    expect(meta.body.templates).toEqual([
      expect.objectContaining({ name, status: 'REJECTED', rejected_reason: 'INVALID_FORMAT' }),
    ]);
    const foreign = await server.get(`/api/social/whatsapp/templates/${created.body.id}`, as(other));
    expect([foreign.status, foreign.body]).toEqual([404, { detail: WHATSAPP_TEXTS.templateNotFound }]);

    const removed = await server.delete(`/api/social/whatsapp/templates/${created.body.id}`, as(owner));
    expect(removed.body).toEqual({ message: WHATSAPP_TEXTS.templateDeleted });
    expect([...fake.templates.values()].some((t) => t.name === name)).toBe(false);
  });

  it('uploads a header image through Meta’s resumable upload and refuses what is not one', async () => {
    const { account } = await connected(owner, {});
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const form = new FormData();
    form.append('tenant_id', String(owner.user.tenant_id));
    form.append('account_id', String(account.id));
    form.append('media_type', 'image');
    form.append('file', new Blob([png], { type: 'image/png' }), 'header.png');
    const uploaded = await upload<{ handle: string }>('/api/social/whatsapp/templates/media-upload', form);
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    expect(uploaded.body.handle).toMatch(/^4::/);

    const wrong = new FormData();
    wrong.append('media_type', 'image');
    wrong.append('account_id', String(account.id));
    wrong.append('file', new Blob(['not an image'], { type: 'image/png' }), 'fake.png');
    const refused = await upload<{ detail: string }>('/api/social/whatsapp/templates/media-upload', wrong);
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/image must be one of/);
  });
});

describe('contacts', () => {
  it('creates with the spec texts, in E.164, refusing bad numbers and duplicates; deletes; 404 across workspaces', async () => {
    const { account } = await connected(owner, {});
    const created = await server.post<{ message: string; contact: WhatsAppContact }>(
      '/api/social/whatsapp/contacts',
      { account_id: account.id, phone: '+1 (415) 555-0123', name: 'Ada', tags: ['vip'] },
      as(owner),
    );
    expect(created.status).toBe(201);
    expect(created.body.message).toBe(WHATSAPP_TEXTS.contactCreated);
    expect(created.body.contact).toMatchObject({ phone: '+14155550123', tags: ['vip'], opted_out: false });
    const again = await server.post(
      '/api/social/whatsapp/contacts',
      { account_id: account.id, phone: '14155550123' },
      as(owner),
    );
    expect([again.status, again.body]).toEqual([409, { detail: WHATSAPP_TEXTS.contactExists }]);
    const bad = await server.post(
      '/api/social/whatsapp/contacts',
      { account_id: account.id, phone: '12345' },
      as(owner),
    );
    expect([bad.status, bad.body]).toEqual([400, { detail: WHATSAPP_TEXTS.phoneInvalid }]);
    const foreign = await server.delete(
      `/api/social/whatsapp/contacts/${created.body.contact.id}`,
      as(other),
    );
    expect(foreign.status).toBe(404);
    const foreignList = await server.get(`/api/social/whatsapp/contacts?account_id=${account.id}`, as(other));
    expect(foreignList.status).toBe(404);
    const optOut = await server.patch<{ contact: WhatsAppContact }>(
      `/api/social/whatsapp/contacts/${created.body.contact.id}`,
      { opted_out: true },
      as(owner),
    );
    expect(optOut.body.contact.opted_out).toBe(true);
    const deleted = await server.delete(
      `/api/social/whatsapp/contacts/${created.body.contact.id}`,
      as(owner),
    );
    expect(deleted.body).toEqual({ message: WHATSAPP_TEXTS.contactDeleted });
  });

  it('previews the mapping, imports with duplicates merged and every rejected row reported by line', async () => {
    const { account } = await connected(owner, {});
    const csv = [
      'Mobile Number,Full Name,E-mail,Labels,city',
      '+14155550101,Ada,ada@example.com,vip;news,London',
      '14155550102,Grace,,news,',
      'not-a-number,Bad,,,',
      ',Empty,,,',
      '+14155550101,Ada L,,late,Paris',
      '+14155550103,Mail,not-an-email,,',
    ].join('\n');
    const preview = await upload<ImportPreview>(
      '/api/social/whatsapp/contacts/import/preview',
      csvForm(csv, { account_id: String(account.id) }),
    );
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.mapping).toEqual({
      phone: 'Mobile Number',
      name: 'Full Name',
      email: 'E-mail',
      tags: 'Labels',
    });
    expect(preview.body.rows[0]).toEqual(['+14155550101', 'Ada', 'ada@example.com', 'vip;news', 'London']);

    const imported = await upload<ImportResult>(
      `/api/social/whatsapp/contacts/import?whatsapp_account_id=${account.id}&tenant_id=${owner.user.tenant_id}`,
      csvForm(csv),
    );
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({
      imported_contacts: 2,
      created: 2,
      updated: 0,
      rows: 6,
      rejected_count: 3,
    });
    expect(imported.body.rejected).toEqual([
      { line: 4, reason: 'Not a valid phone number with its country code: not-a-number' },
      { line: 5, reason: 'No phone number' },
      { line: 7, reason: 'Not a valid email address: not-an-email' },
    ]);
    const listed = await server.get<ContactList>(
      `/api/social/whatsapp/contacts?account_id=${account.id}`,
      as(owner),
    );
    expect(listed.body.contacts.find((c) => c.phone === '+14155550101')).toMatchObject({
      name: 'Ada L',
      email: 'ada@example.com',
      tags: ['late', 'news', 'vip'],
      attributes: { city: 'Paris' },
    });
    expect(listed.body.tags).toEqual(['late', 'news', 'vip']);

    const noPhone = await upload<{ detail: string }>(
      `/api/social/whatsapp/contacts/import?whatsapp_account_id=${account.id}`,
      csvForm('name,email\nAda,a@b.co\n'),
    );
    expect([noPhone.status, noPhone.body.detail]).toEqual([400, WHATSAPP_TEXTS.importNoPhoneColumn]);
    const foreign = await upload(
      `/api/social/whatsapp/contacts/import?whatsapp_account_id=${account.id}`,
      csvForm(csv),
      other,
    );
    expect(foreign.status).toBe(404);
  });

  it("reads national numbers as the business's country, keeps opt-outs from a file, and says why a row is refused", async () => {
    const { reply } = await onboard(owner, { ...newNumber(), displayPhoneNumber: '+91 98765 00000' });
    const account = reply.body.account;
    const csv = [
      'phone,name,opted_out',
      '98765 43210,Asha,',
      '+91 98765 43210,Asha K,',
      '09876543211,Ravi,',
      '6624130486,Meena,',
      "'+14155550123,Sam,",
      '9.19877E+11,Lost,',
      '0044 7911 123456,Olly,true',
    ].join('\n');
    const imported = await upload<ImportResult>(
      `/api/social/whatsapp/contacts/import?whatsapp_account_id=${account.id}`,
      csvForm(csv),
    );
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({
      message: '5 contacts imported, 1 duplicate row merged, 1 row rejected',
      rows: 7,
      created: 5,
      rejected_count: 1,
    });
    expect(imported.body.rejected).toEqual([
      {
        line: 7,
        reason:
          'A spreadsheet turned this number into 9.19877E+11, losing its digits; format the column as text and export again',
      },
    ]);
    const listed = await server.get<ContactList>(
      `/api/social/whatsapp/contacts?account_id=${account.id}`,
      as(owner),
    );
    expect(listed.body.contacts.map((c) => [c.phone, c.name, c.opted_out])).toEqual([
      ['+919876543210', 'Asha K', false],
      ['+919876543211', 'Ravi', false],
      // Read internationally, this would have been a Thai number.
      ['+916624130486', 'Meena', false],
      ['+14155550123', 'Sam', false],
      ['+447911123456', 'Olly', true],
    ]);
    // A later file without the column never opts anyone back in.
    await upload<ImportResult>(
      `/api/social/whatsapp/contacts/import?whatsapp_account_id=${account.id}`,
      csvForm('phone,name\n+447911123456,Oliver\n'),
    );
    const again = await server.get<ContactList>(
      `/api/social/whatsapp/contacts?account_id=${account.id}&search=Oliver`,
      as(owner),
    );
    expect(again.body.contacts).toMatchObject([{ phone: '+447911123456', opted_out: true }]);
    const single = await server.post<{ contact: WhatsAppContact }>(
      '/api/social/whatsapp/contacts',
      { account_id: account.id, phone: '91234 56789', name: 'Typed' },
      as(owner),
    );
    expect(single.body.contact.phone).toBe('+919123456789');
  });

  it('pages, searches and filters by tag; the total counts every match, the tags every contact', async () => {
    const { account } = await connected(owner, {});
    const csv = [
      'phone,name,email,tags,city',
      '+14155550201,Ann,ann@example.com,vip,Oslo',
      '+14155550202,Bob,,news,',
      '+14155550203,Cy,cy@shop.example,vip;news,Lima',
      '+14155550204,Dee,,,',
    ].join('\n');
    const imported = await upload<ImportResult>(
      `/api/social/whatsapp/contacts/import?whatsapp_account_id=${account.id}`,
      csvForm(csv),
    );
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    // Bob opted out: his time is shown, to the millisecond.
    await server.database.db
      .update(whatsappContacts)
      .set({ optedOutAt: new Date('2026-01-05T10:00:00.123Z') })
      .where(and(eq(whatsappContacts.accountId, account.id), eq(whatsappContacts.phone, '+14155550202')));
    const rows = await server.database.db
      .select()
      .from(whatsappContacts)
      .where(eq(whatsappContacts.accountId, account.id))
      .orderBy(asc(whatsappContacts.id));
    const list = async (query: string) => {
      const reply = await server.get<ContactList>(
        `/api/social/whatsapp/contacts?account_id=${account.id}&${query}`,
        as(owner),
      );
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return reply.body;
    };
    const tags = ['news', 'vip'];
    expect(await list('skip=1&limit=2')).toEqual({ contacts: rows.slice(1, 3).map(viewOf), total: 4, tags });
    const vip = rows.filter((row) => row.tags.includes('vip'));
    expect(await list('tag=vip&limit=1')).toEqual({ contacts: [viewOf(vip[0]!)], total: 2, tags });
    expect(await list('search=SHOP.example')).toEqual({
      contacts: [viewOf(rows.find((row) => row.name === 'Cy')!)],
      total: 1,
      tags,
    });
    expect(await list('skip=10')).toEqual({ contacts: [], total: 4, tags });
  });

  it('imports 10,000 contacts and exports them back identical, named with the account and the date', async () => {
    const { account } = await connected(owner, {});
    const lines = ['phone,name,email,tags'];
    for (let i = 0; i < 10_000; i++) {
      const n = String(i).padStart(4, '0');
      lines.push(`+1212555${n},Person ${n},p${n}@example.com,${i % 2 ? 'odd' : 'even'}`);
    }
    const csv = `${lines.join('\n')}\n`;
    const imported = await upload<ImportResult>(
      `/api/social/whatsapp/contacts/import?whatsapp_account_id=${account.id}`,
      csvForm(csv),
    );
    expect(imported.body).toMatchObject({ imported_contacts: 10_000, created: 10_000, rejected_count: 0 });
    const exported = await fetch(
      `${server.url}/api/social/whatsapp/contacts/export?account_id=${account.id}`,
      {
        headers: { authorization: `Bearer ${owner.access_token}` },
      },
    );
    expect(exported.headers.get('content-disposition')).toBe(
      `attachment; filename="whatsapp-contacts-${account.id}-${new Date().toISOString().slice(0, 10)}.csv"`,
    );
    expect(await exported.text()).toBe(csv);
  });
});

describe('campaigns', () => {
  async function audience(accountId: number, count: number, tag = 'launch') {
    const lines = ['phone,name,tags'];
    for (let i = 0; i < count; i++) lines.push(`+1646555${String(1000 + i)},Buyer ${i},${tag}`);
    const imported = await upload<ImportResult>(
      `/api/social/whatsapp/contacts/import?whatsapp_account_id=${accountId}`,
      csvForm(lines.join('\n')),
    );
    expect(imported.body.imported_contacts).toBe(count);
  }

  async function waitForStatus(id: number, status: string, timeout = 30_000) {
    await expect
      .poll(
        async () =>
          (
            await server.get<WhatsAppCampaign[]>(
              `/api/social/whatsapp/campaigns?account_id=${campaignAccount}`,
              as(owner),
            )
          ).body.find((c) => c.id === id)?.status,
        { timeout, interval: 100 },
      )
      .toBe(status);
  }
  let campaignAccount = 0;

  it('needs an approved template and someone to send to; opted-out contacts are never sent', async () => {
    const { account } = await connected(owner, {});
    campaignAccount = account.id;
    const draft = await server.post<WhatsAppTemplate>(
      '/api/social/whatsapp/templates',
      {
        account_id: account.id,
        name: `draft_${unique()}`,
        language: 'en',
        category: 'MARKETING',
        body: 'Hi.',
      },
      as(owner),
    );
    const notApproved = await server.post(
      '/api/social/whatsapp/campaigns',
      { account_id: account.id, name: 'X', template_id: draft.body.id },
      as(owner),
    );
    expect([notApproved.status, notApproved.body]).toEqual([
      409,
      { detail: WHATSAPP_TEXTS.templateNotApproved },
    ]);
    const template = await approvedTemplate(account.id, 'Hi {{1}}, our sale starts today.');
    const unmapped = await server.post(
      '/api/social/whatsapp/campaigns',
      { account_id: account.id, name: 'X', template_id: template.id },
      as(owner),
    );
    expect(unmapped.status).toBe(400);
    const pictured = await server.post<WhatsAppTemplate>(
      '/api/social/whatsapp/templates',
      {
        account_id: account.id,
        name: `pictured_${unique()}`,
        language: 'en',
        category: 'MARKETING',
        header: { format: 'IMAGE', media_handle: '4::handle' },
        body: 'Our new season is here.',
      },
      as(owner),
    );
    expect(pictured.status, JSON.stringify(pictured.body)).toBe(201);
    await server.post(`/api/social/whatsapp/templates/${pictured.body.id}/submit`, {}, as(owner));
    await fake.review(pictured.body.name, 'APPROVED');
    await expect
      .poll(
        async () =>
          (
            await server.get<WhatsAppTemplate>(
              `/api/social/whatsapp/templates/${pictured.body.id}`,
              as(owner),
            )
          ).body.status,
      )
      .toBe('APPROVED');
    const noLink = await server.post<{ detail: string }>(
      '/api/social/whatsapp/campaigns',
      { account_id: account.id, name: 'Pictured', template_id: pictured.body.id },
      as(owner),
    );
    expect([noLink.status, noLink.body.detail]).toEqual([
      400,
      "This template's header needs the https link of its image",
    ]);
    const withLink = await server.post(
      '/api/social/whatsapp/campaigns',
      {
        account_id: account.id,
        name: 'Pictured',
        template_id: pictured.body.id,
        header_value: 'https://cdn.example/season.jpg',
      },
      as(owner),
    );
    expect(withLink.status).toBe(201);
    const created = await server.post<{ campaign: WhatsAppCampaign }>(
      '/api/social/whatsapp/campaigns',
      {
        account_id: account.id,
        name: 'Nobody',
        template_id: template.id,
        audience_tags: ['ghosts'],
        variables: [{ type: 'field', field: 'name' }],
      },
      as(owner),
    );
    const empty = await server.post(
      `/api/social/whatsapp/campaigns/${created.body.campaign.id}/send`,
      {},
      as(owner),
    );
    expect([empty.status, empty.body]).toEqual([400, { detail: WHATSAPP_TEXTS.campaignNoRecipients }]);
    const [row] = await server.database.db
      .select()
      .from(whatsappCampaigns)
      .where(eq(whatsappCampaigns.id, created.body.campaign.id));
    expect(row!.status).toBe('draft'); // nothing changed
  });

  it('sends, pauses, resumes and completes; logs and analytics follow the status webhooks; no one gets it twice', async () => {
    const { account } = await connected(owner, {});
    campaignAccount = account.id;
    await audience(account.id, 300);
    const optedOut = await server.post<{ contact: WhatsAppContact }>(
      '/api/social/whatsapp/contacts',
      { account_id: account.id, phone: '+16465559999', name: 'Opted', tags: ['launch'] },
      as(owner),
    );
    await server.patch(
      `/api/social/whatsapp/contacts/${optedOut.body.contact.id}`,
      { opted_out: true },
      as(owner),
    );
    const template = await approvedTemplate(account.id, 'Hi {{1}}, our sale starts today.');
    fake.failNextSends(2, { code: 130429, status: 429, message: 'Rate limit hit' });
    fake.delay(15);
    const created = await server.post<{ message: string; campaign: WhatsAppCampaign }>(
      '/api/social/whatsapp/campaigns',
      {
        account_id: account.id,
        name: 'Launch',
        template_id: template.id,
        audience_tags: ['launch'],
        variables: [{ type: 'field', field: 'name' }],
      },
      as(owner),
    );
    expect(created.body.message).toBe(WHATSAPP_TEXTS.campaignCreated);
    const id = created.body.campaign.id;
    const started = await server.post<{ message: string }>(
      `/api/social/whatsapp/campaigns/${id}/send`,
      {},
      as(owner),
    );
    expect(started.body.message).toBe(WHATSAPP_TEXTS.campaignStarted);
    const again = await server.post(`/api/social/whatsapp/campaigns/${id}/send`, {}, as(owner));
    expect([again.status, again.body]).toEqual([409, { detail: WHATSAPP_TEXTS.campaignNotSendable }]);
    await expect
      .poll(() => fake.templateSends().filter((s) => s.name === template.name).length)
      .toBeGreaterThan(10);
    const paused = await server.post(`/api/social/whatsapp/campaigns/${id}/pause`, {}, as(owner));
    expect(paused.body).toEqual({ message: WHATSAPP_TEXTS.campaignPaused });
    await settled();
    const sendsWhilePaused = fake.templateSends().filter((s) => s.name === template.name).length;
    await new Promise((r) => setTimeout(r, 300));
    expect(fake.templateSends().filter((s) => s.name === template.name).length).toBe(sendsWhilePaused);
    expect(sendsWhilePaused).toBeLessThan(300);
    const notPaused = await server.post(`/api/social/whatsapp/campaigns/${id}/pause`, {}, as(owner));
    expect([notPaused.status, notPaused.body]).toEqual([409, { detail: WHATSAPP_TEXTS.campaignNotRunning }]);
    fake.delay(0);
    const resumed = await server.post(`/api/social/whatsapp/campaigns/${id}/resume`, {}, as(owner));
    expect(resumed.body).toEqual({ message: WHATSAPP_TEXTS.campaignResumed });
    await waitForStatus(id, 'completed');

    const sends = fake.templateSends().filter((s) => s.name === template.name);
    expect(sends).toHaveLength(300);
    expect(new Set(sends.map((s) => s.to)).size).toBe(300);
    expect(sends.some((s) => s.to === '16465559999')).toBe(false);
    await expect
      .poll(
        async () =>
          (await server.get<CampaignAnalytics>(`/api/social/whatsapp/campaigns/${id}/analytics`, as(owner)))
            .body.counts,
        {
          timeout: 15_000,
        },
      )
      .toMatchObject({ recipients: 300, delivered: 300, failed: 0, queued: 0 });
    const analytics = await server.get<CampaignAnalytics>(
      `/api/social/whatsapp/campaigns/${id}/analytics`,
      as(owner),
    );
    expect(analytics.body.rates.delivery).toBe(1);
    expect(analytics.body.timeline.reduce((n, t) => n + t.delivered, 0)).toBe(300);
    const logs = await server.get<CampaignLogList>(
      `/api/social/whatsapp/campaigns/${id}/logs?limit=5`,
      as(owner),
    );
    expect(logs.body.total).toBe(300);
    expect(logs.body.logs[0]).toMatchObject({
      status: 'delivered',
      name: 'Buyer 0',
      wa_message_id: expect.stringMatching(/^wamid\./),
    });
    expect(templateSent('16465551000', template.name)).toEqual({
      name: template.name,
      language: { code: 'en_US' },
      components: [{ type: 'body', parameters: [{ type: 'text', text: 'Buyer 0' }] }],
    });

    // A reply and a late failure webhook land on the log.
    const number = (
      await server.database.db.select().from(whatsappAccounts).where(eq(whatsappAccounts.id, account.id))
    )[0]!;
    await fake.postWebhook(
      inboundDelivery({
        number: { wabaId: number.wabaId, phoneNumberId: number.phoneNumberId, displayPhoneNumber: '' },
        from: '16465551000',
        message: textMessage('Is the sale online too?'),
      }),
    );
    await settled();
    const replied = await server.get<CampaignAnalytics>(
      `/api/social/whatsapp/campaigns/${id}/analytics`,
      as(owner),
    );
    expect(replied.body.counts.replied).toBe(1);

    const foreign = await server.get(`/api/social/whatsapp/campaigns/${id}/logs`, as(other));
    expect(foreign.status).toBe(404);
    const deleted = await server.delete(`/api/social/whatsapp/campaigns/${id}`, as(owner));
    expect(deleted.body).toEqual({ message: WHATSAPP_TEXTS.campaignDeleted });
  });

  it('waits for its scheduled time, and refuses to delete while sending', async () => {
    const { account } = await connected(owner, {});
    campaignAccount = account.id;
    await audience(account.id, 5, 'later');
    const template = await approvedTemplate(account.id, 'Hi {{1}}, see you soon.');
    const at = new Date(Date.now() + 2000).toISOString();
    const created = await server.post<{ campaign: WhatsAppCampaign }>(
      '/api/social/whatsapp/campaigns',
      {
        account_id: account.id,
        name: 'Later',
        template_id: template.id,
        audience_tags: ['later'],
        variables: [{ type: 'text', text: 'friend' }],
        scheduled_at: at,
      },
      as(owner),
    );
    const id = created.body.campaign.id;
    const scheduled = await server.post<{ message: string; campaign: WhatsAppCampaign }>(
      `/api/social/whatsapp/campaigns/${id}/send`,
      {},
      as(owner),
    );
    expect(scheduled.body.message).toBe(WHATSAPP_TEXTS.campaignScheduled);
    expect(scheduled.body.campaign).toMatchObject({ status: 'scheduled', scheduled_at: at });
    expect(fake.templateSends().filter((s) => s.name === template.name)).toEqual([]);
    await waitForStatus(id, 'completed');
    const sends = fake.templateSends().filter((s) => s.name === template.name);
    expect(sends).toHaveLength(5);
    expect(templateSent(sends[0]!.to, template.name)).toMatchObject({
      components: [{ type: 'body', parameters: [{ type: 'text', text: 'friend' }] }],
    });
    await server.database.db
      .update(whatsappCampaigns)
      .set({ status: 'sending' })
      .where(eq(whatsappCampaigns.id, id));
    const busy = await server.delete(`/api/social/whatsapp/campaigns/${id}`, as(owner));
    expect([busy.status, busy.body]).toEqual([409, { detail: WHATSAPP_TEXTS.campaignRunning }]);
  });

  it('settles a dead run’s claims from their status webhooks or as interrupted, and never sends them again', async () => {
    const { account, number } = await connected(owner, {});
    campaignAccount = account.id;
    await audience(account.id, 20, 'crash');
    const template = await approvedTemplate(account.id, 'Hi {{1}}, thanks for your order.');
    const created = await server.post<{ campaign: WhatsAppCampaign }>(
      '/api/social/whatsapp/campaigns',
      {
        account_id: account.id,
        name: 'Crash',
        template_id: template.id,
        audience_tags: ['crash'],
        variables: [{ type: 'field', field: 'name' }],
      },
      as(owner),
    );
    const id = created.body.campaign.id;
    // As a worker killed mid-send leaves it: two recipients claimed by a run that died 30 s ago.
    await server.database.db.execute(
      sql`INSERT INTO whatsapp_campaign_recipients (tenant_id, campaign_id, contact_id, phone, name, fields, status,
                                                    attempts, claimed_by, claimed_at)
          SELECT tenant_id, ${id}, id, phone, name, jsonb_build_object('name', name), 'sending', 1, 'dead-run:1',
                 now() - interval '30 seconds'
            FROM whatsapp_contacts WHERE account_id = ${account.id} ORDER BY id LIMIT 2`,
    );
    const claimed = await server.database.db
      .select()
      .from(whatsappRecipients)
      .where(eq(whatsappRecipients.campaignId, id));
    expect(claimed).toHaveLength(2);
    // Meta had accepted the first before the crash: its status webhook names the recipient.
    await fake.postWebhook(
      statusDelivery(
        number,
        'wamid.before-crash',
        claimed[0]!.phone.slice(1),
        ['sent', 'delivered'],
        `parley-recipient:${claimed[0]!.id}`,
      ),
    );
    const started = await server.post(`/api/social/whatsapp/campaigns/${id}/send`, {}, as(owner));
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    await waitForStatus(id, 'completed');
    const sends = fake.templateSends().filter((s) => s.name === template.name);
    expect(sends).toHaveLength(18);
    expect(
      sends.some((s) => s.to === claimed[0]!.phone.slice(1) || s.to === claimed[1]!.phone.slice(1)),
    ).toBe(false);
    const logs = await server.get<CampaignLogList>(
      `/api/social/whatsapp/campaigns/${id}/logs?limit=2`,
      as(owner),
    );
    expect(logs.body.logs.map((l) => [l.status, l.error])).toEqual([
      ['delivered', null],
      ['failed', WHATSAPP_TEXTS.interrupted],
    ]);
  });
});
