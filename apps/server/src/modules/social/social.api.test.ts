import { randomBytes } from 'node:crypto';
import {
  type ConversationWithMessages,
  type ExchangeTokenResult,
  HANDOFF_TEXTS,
  type HelpdeskControlStatus,
  SOCIAL_TEXTS,
  type SocialAccount,
  type SocialAuthorize,
} from '@parley/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../core/db/schema.js';
import { createBotViaApi } from '../../test/bots.js';
import { addTeammate, createRole, signupOwner, tokenFromText } from '../../test/factories.js';
import {
  instagramText,
  instagramUnsend,
  type MetaGraphFake,
  messengerEcho,
  messengerEdit,
  messengerPostback,
  messengerText,
  quickReplyTap,
  startMetaGraphFake,
} from '../../test/fakes/meta-graph.js';
import { attachDocument } from '../../test/knowledge.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { appendMessage } from '../chat/chat.queries.js';
import { conversationEvents, conversations, messages } from '../chat/chat.schema.js';
import { replyTexts } from '../chat/reply-texts.js';
import { VISITOR_NOTICES } from '../handoff/visitor-notices.js';
import { PERSON_PAYLOAD } from './channel-actions.js';
import { SOCIAL_INBOUND_JOB } from './messaging.service.js';
import { socialAccounts, socialDeliveries } from './social.schema.js';

const APP = { appId: '1234567890', appSecret: 'meta-app-secret-for-tests' };
const VERIFY = 'verify-me-please';
let server: TestServer;
let fake: MetaGraphFake;
let owner: Account;
let other: Account;
let botId: number;
/** Every page token the fake issued, by page id. */
const pageTokens: Record<string, string> = {};
const as = (account: Account) => ({ token: account.access_token });
const unique = () => randomBytes(4).toString('hex');

const SHIPPING =
  'Parcels to Canada arrive in five to seven working days. Express delivery to Canada takes two days and costs twelve dollars.';

beforeAll(async () => {
  fake = await startMetaGraphFake(APP);
  server = await startTestServer({
    env: {
      META_APP_ID: APP.appId,
      META_APP_SECRET: APP.appSecret,
      META_VERIFY_TOKEN: VERIFY,
      META_GRAPH_URL: fake.url,
    },
  });
  owner = await signupOwner(server);
  other = await signupOwner(server);
  botId = (await createBotViaApi(server, owner, { bot_name: 'Social helper' })).bot_id;
  await attachDocument(server, owner, botId, {
    title: 'Shipping guide',
    url: 'https://shop.example/shipping',
    text: SHIPPING,
  });
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

/** Facebook Login end to end: the console's authorize call, the fake's code, the exchange. */
async function connect(
  account: Account,
  channel: 'messenger' | 'instagram',
  pages: Array<{ id: string; name: string; instagram?: { id: string; username: string } }>,
  extra: Record<string, unknown> = {},
) {
  const code = `code-${unique()}`;
  Object.assign(pageTokens, fake.addLogin({ code, pages }));
  const authorize = await server.get<SocialAuthorize>(`/api/social/${channel}/authorize`, as(account));
  expect(authorize.status).toBe(200);
  const state = new URL(authorize.body.url).searchParams.get('state')!;
  return server.post<ExchangeTokenResult & { detail?: string }>(
    `/api/social/${channel}/exchange-token`,
    { code, state, ...extra },
    as(account),
  );
}

async function connectPage(account: Account, bot?: number) {
  const page = { id: `page-${unique()}`, name: `Shop ${unique()}` };
  const reply = await connect(account, 'messenger', [page], bot ? { bot_id: bot } : {});
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return { page, account: reply.body.accounts[0]! };
}

const WEBHOOKS = { messenger: '/api/social/messenger/webhook', instagram: '/api/social/instagram/webhook' };
const webhook = (channel: 'messenger' | 'instagram') => `${server.url}${WEBHOOKS[channel]}`;

async function messagesOf(conversationId: number) {
  return server.database.db
    .select()
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(messages.seq);
}

async function conversationOf(userId: string) {
  const [row] = await server.database.db
    .select()
    .from(conversations)
    .where(eq(conversations.visitorId, userId));
  return row;
}

/** Waits for the queue to leave no send or inbound job queued or running. */
async function settled() {
  await expect
    .poll(
      async () => {
        const [row] = await server.database.db
          .select({ n: sql<number>`count(*)::int` })
          .from(jobs)
          .where(
            and(
              sql`${jobs.name} in ('social.inbound', 'channel.send')`,
              sql`${jobs.status} in ('queued', 'active')`,
            ),
          );
        return row!.n;
      },
      { timeout: 20_000, interval: 50 },
    )
    .toBe(0);
}

describe('connecting accounts', () => {
  it('exchanges the Facebook Login code, subscribes the page and never returns its token', async () => {
    const page = { id: `page-${unique()}`, name: 'Corner Shop' };
    const reply = await connect(owner, 'messenger', [page]);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.message).toBe(SOCIAL_TEXTS.exchanged.messenger);
    expect(reply.body.accounts).toEqual([
      expect.objectContaining({
        channel: 'messenger',
        page_id: page.id,
        page_name: 'Corner Shop',
        is_active: true,
      }),
    ]);
    expect(fake.subscriptions.get(page.id)).toEqual([
      'messages',
      'messaging_postbacks',
      'message_echoes',
      'message_reads',
      'message_edits',
    ]);
    const [row] = await server.database.db
      .select()
      .from(socialAccounts)
      .where(eq(socialAccounts.pageId, page.id));
    expect(row!.accessToken.startsWith('v1:')).toBe(true); // sealed at rest
    expect(row!.accessToken).not.toContain(pageTokens[page.id]!);
    const listed = await server.get<SocialAccount[]>('/api/social/messenger/accounts', as(owner));
    expect(JSON.stringify(listed.body)).not.toContain('access_token');
    const one = await server.get<SocialAccount>(`/api/social/messenger/accounts/${row!.id}`, as(owner));
    expect(one.body.page_id).toBe(page.id);
  });

  it('connects the Instagram professional account linked to a page', async () => {
    const ig = { id: `ig-${unique()}`, username: 'cornershop' };
    const reply = await connect(owner, 'instagram', [
      { id: `page-${unique()}`, name: 'With IG', instagram: ig },
      { id: `page-${unique()}`, name: 'Without IG' },
    ]);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.accounts).toEqual([
      expect.objectContaining({ channel: 'instagram', instagram_account_id: ig.id, username: 'cornershop' }),
    ]);
  });

  it('refuses with the spec texts: no code, a refused code, a used state, no Instagram account', async () => {
    const noCode = await server.post('/api/social/messenger/exchange-token', {}, as(owner));
    expect([noCode.status, noCode.body]).toEqual([400, { detail: SOCIAL_TEXTS.codeMissing }]);

    const authorize = await server.get<SocialAuthorize>('/api/social/messenger/authorize', as(owner));
    const state = new URL(authorize.body.url).searchParams.get('state')!;
    const refused = await server.post(
      '/api/social/messenger/exchange-token',
      { code: 'nope', state },
      as(owner),
    );
    expect([refused.status, refused.body]).toEqual([400, { detail: SOCIAL_TEXTS.messengerExchangeFailed }]);
    const replayed = await server.post(
      '/api/social/messenger/exchange-token',
      { code: 'nope', state },
      as(owner),
    );
    expect([replayed.status, replayed.body]).toEqual([400, { detail: SOCIAL_TEXTS.stateUsed }]);

    const forged = await server.post(
      '/api/social/messenger/exchange-token',
      { code: 'x', state: 'e30.bad' },
      as(owner),
    );
    expect([forged.status, forged.body]).toEqual([400, { detail: SOCIAL_TEXTS.stateInvalid }]);

    const noInstagram = await connect(owner, 'instagram', [{ id: `page-${unique()}`, name: 'Plain page' }]);
    expect([noInstagram.status, noInstagram.body]).toEqual([400, { detail: SOCIAL_TEXTS.noInstagram }]);
  });

  it('refuses a page another workspace connected, and changes nothing', async () => {
    const { page } = await connectPage(owner);
    const before = await server.database.db
      .select()
      .from(socialAccounts)
      .where(eq(socialAccounts.pageId, page.id));
    const taken = await connect(other, 'messenger', [page]);
    expect([taken.status, taken.body]).toEqual([409, { detail: SOCIAL_TEXTS.takenByAnother }]);
    const after = await server.database.db
      .select()
      .from(socialAccounts)
      .where(eq(socialAccounts.pageId, page.id));
    expect(after).toEqual(before);
  });

  it('links and unlinks a bot, and disconnects with the spec texts (unsubscribing the page)', async () => {
    const { page, account } = await connectPage(owner);
    const linked = await server.post(
      '/api/social/messenger/link-bot',
      { account_id: account.id, bot_id: botId },
      as(owner),
    );
    expect(linked.body).toEqual({ message: SOCIAL_TEXTS.linked.messenger });
    const shown = await server.get<SocialAccount>(`/api/social/messenger/accounts/${account.id}`, as(owner));
    expect(shown.body).toMatchObject({ bot_id: botId, bot_name: 'Social helper' });
    const unlinked = await server.post(
      '/api/social/messenger/unlink-bot',
      { account_id: account.id },
      as(owner),
    );
    expect(unlinked.body).toEqual({ message: SOCIAL_TEXTS.unlinked.messenger });
    const removed = await server.delete(`/api/social/messenger/accounts/${account.id}`, as(owner));
    expect(removed.body).toEqual({ message: SOCIAL_TEXTS.disconnected.messenger });
    expect(fake.subscriptions.has(page.id)).toBe(false);
  });

  it("answers 404 for another tenant's accounts and bots, and 403 without Create Bot", async () => {
    const { account } = await connectPage(owner);
    const attempts = [
      server.get(`/api/social/messenger/accounts/${account.id}`, as(other)),
      server.delete(`/api/social/messenger/accounts/${account.id}`, as(other)),
      server.post('/api/social/messenger/link-bot', { account_id: account.id, bot_id: botId }, as(other)),
      server.post('/api/social/messenger/unlink-bot', { account_id: account.id }, as(other)),
      // The Instagram set does not reach a Messenger account either.
      server.get(`/api/social/instagram/accounts/${account.id}`, as(owner)),
    ];
    for (const reply of await Promise.all(attempts)) expect(reply.status).toBe(404);
    const foreignBot = await server.post(
      '/api/social/messenger/link-bot',
      {
        account_id: account.id,
        bot_id: (await createBotViaApi(server, other, { bot_name: 'Theirs' })).bot_id,
      },
      as(owner),
    );
    expect([foreignBot.status, foreignBot.body]).toEqual([404, { detail: SOCIAL_TEXTS.botNotFound }]);
    const listedByOther = await server.get<SocialAccount[]>('/api/social/messenger/accounts', as(other));
    expect(listedByOther.body.map((a) => a.id)).not.toContain(account.id);

    const role = await createRole(server, owner, { Inbox: { read: true } });
    const member = await addTeammate(server, owner, role, (email) =>
      outboxText(server.database, email).then(tokenFromText),
    );
    const refused = [
      server.get('/api/social/instagram/authorize', as(member)),
      server.post('/api/social/instagram/exchange-token', { code: 'x' }, as(member)),
      server.get('/api/social/instagram/accounts', as(member)),
      server.post('/api/social/instagram/accounts', { page_id: 'p', access_token: 't' }, as(member)),
      server.get(`/api/social/instagram/accounts/${account.id}`, as(member)),
      server.delete(`/api/social/instagram/accounts/${account.id}`, as(member)),
      server.post('/api/social/instagram/link-bot', { account_id: account.id, bot_id: botId }, as(member)),
      server.post('/api/social/instagram/unlink-bot', { account_id: account.id }, as(member)),
      server.get('/api/social/messenger/authorize', as(member)),
      server.post('/api/social/messenger/exchange-token', { code: 'x' }, as(member)),
      server.get('/api/social/messenger/accounts', as(member)),
      server.post('/api/social/messenger/accounts', { page_id: 'p', access_token: 't' }, as(member)),
      server.get(`/api/social/messenger/accounts/${account.id}`, as(member)),
      server.delete(`/api/social/messenger/accounts/${account.id}`, as(member)),
      server.post('/api/social/messenger/link-bot', { account_id: account.id, bot_id: botId }, as(member)),
      server.post('/api/social/messenger/unlink-bot', { account_id: account.id }, as(member)),
    ];
    for (const reply of await Promise.all(refused)) expect(reply.status).toBe(403);
  });

  it('connects one page with a pasted page token, refusing a token that is not the page’s', async () => {
    const page = { id: `page-${unique()}`, name: 'Pasted' };
    const tokens = fake.addLogin({ code: `unused-${unique()}`, pages: [page] });
    const wrong = await server.post(
      '/api/social/messenger/accounts',
      { page_id: page.id, access_token: 'not-a-token' },
      as(owner),
    );
    expect([wrong.status, wrong.body]).toEqual([400, { detail: SOCIAL_TEXTS.pageTokenRefused }]);
    const created = await server.post<SocialAccount>(
      '/api/social/messenger/accounts',
      { page_id: page.id, access_token: tokens[page.id], bot_id: botId },
      as(owner),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ page_id: page.id, bot_id: botId });
  });
});

describe('the webhook', () => {
  it("answers Meta's verification with the challenge, and refuses a wrong verify token", async () => {
    const ok = await fetch(
      `${webhook('messenger')}?hub.mode=subscribe&hub.verify_token=${VERIFY}&hub.challenge=42xyz`,
    );
    expect([ok.status, await ok.text()]).toEqual([200, '42xyz']);
    const wrong = await fetch(
      `${webhook('instagram')}?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1`,
    );
    expect(wrong.status).toBe(403);
  });

  it('refuses a missing or wrong signature with 401 and stores nothing', async () => {
    const { page } = await connectPage(owner, botId);
    const user = `user-${unique()}`;
    const payload = messengerText({ pageId: page.id, senderId: user, text: 'Hello?' });
    const missing = await fake.postWebhook(webhook('messenger'), payload, { signature: null });
    const wrong = await fake.postWebhook(webhook('messenger'), payload, {
      signature: `sha256=${'0'.repeat(64)}`,
    });
    expect([missing.status, wrong.status]).toEqual([401, 401]);
    await settled();
    expect(await conversationOf(user)).toBeUndefined();
  });

  it('answers a direct message with the sources as links, once even when Meta replays it', async () => {
    const { page } = await connectPage(owner, botId);
    const user = `user-${unique()}`;
    fake.addUser({
      id: user,
      name: 'Ada Lovelace',
      first_name: 'Ada',
      last_name: 'Lovelace',
      profile_pic: 'https://pics.example/ada.jpg',
    });
    const payload = messengerText({
      pageId: page.id,
      senderId: user,
      text: 'How long do parcels to Canada take?',
    });
    const first = await fake.postWebhook(webhook('messenger'), payload);
    expect([first.status, await first.text()]).toEqual([200, 'EVENT_RECEIVED']);
    const replay = await fake.postWebhook(webhook('messenger'), payload);
    expect(replay.status).toBe(200);
    await settled();

    const conversation = (await conversationOf(user))!;
    expect(conversation).toMatchObject({ channel: 'messenger', messengerAccountId: page.id, botId });
    expect(conversation.userProfile).toMatchObject({
      name: 'Ada Lovelace',
      profile_picture_url: 'https://pics.example/ada.jpg',
    });
    const stored = await messagesOf(conversation.id);
    const kinds = stored.map((m) => m.messageType);
    expect(kinds.filter((k) => k === 'user')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'bot')).toHaveLength(2); // the welcome (not sent) and the answer
    const question = stored.find((m) => m.messageType === 'user')!;
    expect(question.messageSource).toBe('messenger');
    expect((question.metadata as { message_metadata: object }).message_metadata).toMatchObject({
      sender: { id: user },
      recipient: { id: page.id },
      messenger_account_id: page.id,
    });
    const texts = fake.texts(user);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toContain('Parcels to Canada arrive in five to seven working days.');
    expect(texts[0]).toContain('Sources:\n1. Shipping guide https://shop.example/shipping');
    expect(texts[0]).not.toMatch(/\[\d\]|\*\*/);
    const answer = stored.at(-1)!;
    expect(answer.metadata).toMatchObject({ delivery: { status: 'sent', error: null } });
    // A second message reuses the cached profile.
    const fetches = fake.profileFetches;
    await fake.postWebhook(
      webhook('messenger'),
      messengerText({ pageId: page.id, senderId: user, text: 'Thanks!' }),
    );
    await settled();
    expect(fake.profileFetches).toBe(fetches);
    expect(fake.sent.some((s) => (s.body as { sender_action?: string }).sender_action === 'typing_on')).toBe(
      true,
    );
  });

  it('stores and answers once a message whose job runs again after a crash, as the crash left it', async () => {
    const { page } = await connectPage(owner, botId);
    const user = `user-${unique()}`;
    fake.addUser({
      id: user,
      name: 'Grace Hopper',
      first_name: 'Grace',
      last_name: 'Hopper',
      profile_pic: '',
    });
    await fake.postWebhook(
      webhook('messenger'),
      messengerText({ pageId: page.id, senderId: user, text: 'Hello' }),
    );
    await settled();
    const conversation = (await conversationOf(user))!;
    const [account] = await server.database.db
      .select()
      .from(socialAccounts)
      .where(eq(socialAccounts.externalId, page.id));
    const rerun = async (payload: ReturnType<typeof messengerText>) => {
      const item = payload.entry[0]!.messaging[0]!;
      await server.parley.jobs.enqueue(
        SOCIAL_INBOUND_JOB,
        { accountId: account!.id, channel: 'messenger', item },
        { tenantId: account!.tenantId },
      );
      await settled();
    };
    const questions = async (text: string) =>
      (await messagesOf(conversation.id)).filter((m) => m.messageType === 'user' && m.message === text);

    // A run that stored the question and died before answering: the next run answers it, once.
    const question = 'How long do parcels to Canada take?';
    const diedMid = `m_${unique()}${unique()}`;
    const died = messengerText({ pageId: page.id, senderId: user, text: question, mid: diedMid });
    await appendMessage(server.database.db, conversation.id, {
      messageType: 'user',
      messageSource: 'messenger',
      message: question,
      senderId: user,
      recipientId: page.id,
      metadata: { client_id: diedMid },
    });
    await rerun(died);
    await rerun(died);
    expect(await questions(question)).toHaveLength(1);
    const after = await messagesOf(conversation.id);
    expect(after.at(-1)).toMatchObject({ messageType: 'bot', messageSource: 'messenger' });
    expect(after.at(-1)!.message).toContain('Parcels to Canada arrive in five to seven working days.');
    expect(fake.texts(user).filter((t) => t.includes('Parcels to Canada'))).toHaveLength(1);

    // A run that finished, run again: nothing more is stored or sent.
    const done = messengerText({ pageId: page.id, senderId: user, text: 'Do you ship to Peru?' });
    await rerun(done);
    const sent = fake.texts(user).length;
    await rerun(done);
    expect(await questions('Do you ship to Peru?')).toHaveLength(1);
    expect(fake.texts(user)).toHaveLength(sent);
  });

  it('files a user’s messages that arrive together in one conversation', async () => {
    const { page } = await connectPage(owner, botId);
    const user = `user-${unique()}`;
    const words = ['one', 'two', 'three', 'four'];
    // Separate deliveries at once: each becomes its own job, and workers take them together.
    await Promise.all(
      words.map((text) =>
        fake.postWebhook(webhook('messenger'), messengerText({ pageId: page.id, senderId: user, text })),
      ),
    );
    await settled();
    const rows = await server.database.db
      .select()
      .from(conversations)
      .where(eq(conversations.visitorId, user));
    expect(rows).toHaveLength(1);
    const texts = (await messagesOf(rows[0]!.id))
      .filter((m) => m.messageType === 'user')
      .map((m) => m.message);
    expect(texts.sort()).toEqual([...words].sort());
  });

  it('forgets delivery ids after a week, keeping recent ones', async () => {
    const old = `m_old_${unique()}`;
    const recent = `m_new_${unique()}`;
    await server.database.db.insert(socialDeliveries).values([
      { channel: 'messenger', eventId: old, receivedAt: new Date(Date.now() - 8 * 86_400_000) },
      { channel: 'messenger', eventId: recent },
    ]);
    await server.parley.scheduler.tick();
    const kept = await server.database.db
      .select({ id: socialDeliveries.eventId })
      .from(socialDeliveries)
      .where(sql`${socialDeliveries.eventId} in (${old}, ${recent})`);
    expect(kept.map((row) => row.id)).toEqual([recent]);
  });

  it('takes a burst together, answering each user once though every message comes twice, in one delivery and in others', async () => {
    const { page } = await connectPage(owner, botId);
    const users = Array.from({ length: 12 }, () => `user-${unique()}`);
    const payloads = users.map((user) =>
      messengerText({ pageId: page.id, senderId: user, text: 'Canada parcels?' }),
    );
    const items = payloads.map((payload) => payload.entry[0]!.messaging[0]!);
    const stray = messengerText({ pageId: `page-${unique()}`, senderId: `user-${unique()}`, text: 'Hello?' });
    // One delivery holding every message twice (taken in one statement), beside each message
    // posted again on its own at the same time, as Meta's retries can overlap the first attempt.
    const together = {
      object: 'page',
      entry: [{ id: page.id, time: Date.now(), messaging: [...items, ...items] }],
    };
    const replies = await Promise.all(
      [together, ...payloads, stray].map((payload) => fake.postWebhook(webhook('messenger'), payload)),
    );
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200));
    await settled();
    for (const user of users) expect(fake.texts(user)).toHaveLength(1);
  });

  it('drops messages for a page nobody connected, and files each page under its own workspace', async () => {
    const user = `user-${unique()}`;
    const stray = await fake.postWebhook(
      webhook('messenger'),
      messengerText({ pageId: `page-${unique()}`, senderId: user, text: 'Anyone?' }),
    );
    expect(stray.status).toBe(200);
    const theirBot = (await createBotViaApi(server, other, { bot_name: 'Other helper' })).bot_id;
    const { page } = await connectPage(other, theirBot);
    const theirUser = `user-${unique()}`;
    await fake.postWebhook(
      webhook('messenger'),
      messengerText({ pageId: page.id, senderId: theirUser, text: 'Hi' }),
    );
    await settled();
    expect(await conversationOf(user)).toBeUndefined();
    expect((await conversationOf(theirUser))!.tenantId).toBe(other.user.tenant_id);
  });

  it('leaves an unlinked account’s messages to agents: stored, never answered', async () => {
    const { page, account } = await connectPage(owner, botId);
    await server.post('/api/social/messenger/unlink-bot', { account_id: account.id }, as(owner));
    const user = `user-${unique()}`;
    await fake.postWebhook(
      webhook('messenger'),
      messengerText({ pageId: page.id, senderId: user, text: 'Hello there' }),
    );
    await settled();
    const stored = await messagesOf((await conversationOf(user))!.id);
    expect(stored.map((m) => m.messageType)).toEqual(['bot', 'user']); // the welcome, then the question
    expect(fake.texts(user)).toEqual([]);
  });

  it('stores postbacks, attachments and story replies as the channel gave them', async () => {
    const { page } = await connectPage(owner, botId);
    const user = `user-${unique()}`;
    await fake.postWebhook(
      webhook('messenger'),
      messengerPostback({ pageId: page.id, senderId: user, title: 'Shipping times', payload: 'SHIPPING' }),
    );
    await settled();
    await fake.postWebhook(
      webhook('messenger'),
      messengerText({
        pageId: page.id,
        senderId: user,
        text: '',
        attachments: [{ type: 'image', payload: { url: 'https://cdn.example/parcel.jpg' } }],
      }),
    );
    await settled();
    const questions = (await messagesOf((await conversationOf(user))!.id)).filter(
      (m) => m.messageType === 'user',
    );
    expect(questions[0]).toMatchObject({ message: 'Shipping times' });
    expect(questions[0]!.metadata).toMatchObject({ message_metadata: { postback: { payload: 'SHIPPING' } } });
    expect(questions[1]).toMatchObject({ message: '[image]' });
    expect(questions[1]!.attachments).toEqual([
      expect.objectContaining({ url: 'https://cdn.example/parcel.jpg', content_type: 'image/*' }),
    ]);

    const ig = { id: `ig-${unique()}`, username: `story${unique()}` };
    await connect(owner, 'instagram', [{ id: `page-${unique()}`, name: 'Stories', instagram: ig }], {
      bot_id: botId,
    });
    const fan = `igsid-${unique()}`;
    await fake.postWebhook(
      webhook('instagram'),
      instagramText({
        igId: ig.id,
        senderId: fan,
        text: 'Love this!',
        storyUrl: 'https://cdn.example/story.mp4',
      }),
    );
    await settled();
    const [reply] = (await messagesOf((await conversationOf(fan))!.id)).filter(
      (m) => m.messageType === 'user',
    );
    expect(reply!.metadata).toMatchObject({
      message_metadata: { story: { url: 'https://cdn.example/story.mp4' }, instagram_account_id: ig.id },
    });
  });

  it('answers on Instagram through the linked page', async () => {
    const ig = { id: `ig-${unique()}`, username: `shop${unique()}` };
    const connected = await connect(
      owner,
      'instagram',
      [{ id: `page-${unique()}`, name: 'IG page', instagram: ig }],
      {
        bot_id: botId,
      },
    );
    expect(connected.status).toBe(200);
    const user = `igsid-${unique()}`;
    fake.addUser({ id: user, name: 'Grace', username: 'grace.h' });
    await fake.postWebhook(
      webhook('instagram'),
      instagramText({ igId: ig.id, senderId: user, text: 'Express to Canada?' }),
    );
    await settled();
    expect((await conversationOf(user))!).toMatchObject({ channel: 'instagram', instagramAccountId: ig.id });
    expect(fake.texts(user)[0]).toContain('Express delivery to Canada takes two days');
  });
});

describe('edits and unsends', () => {
  const thread = async (conversationId: number) =>
    (
      await server.get<ConversationWithMessages>(
        `/api/chat/helpdesk/conversations/${conversationId}`,
        as(owner),
      )
    ).body;

  it('follows an edit in Messenger: the text, its copy and the name change, once, and the bot does not answer again', async () => {
    const { page } = await connectPage(owner, botId);
    const user = `user-${unique()}`;
    const mid = `m_${unique()}`;
    await fake.postWebhook(
      webhook('messenger'),
      messengerText({ pageId: page.id, senderId: user, mid, text: 'How long do parcels to Canda take?' }),
    );
    await settled();
    const conversation = (await conversationOf(user))!;
    expect(conversation.name).toBe('How long do parcels to Canda take?');

    const edit = messengerEdit({
      pageId: page.id,
      senderId: user,
      mid,
      text: 'How long do parcels to Canada take?',
      count: 2,
    });
    expect((await fake.postWebhook(webhook('messenger'), edit)).status).toBe(200);
    await fake.postWebhook(webhook('messenger'), edit); // Meta's replay
    // An earlier edit that arrives late does not undo the later one.
    await fake.postWebhook(
      webhook('messenger'),
      messengerEdit({ pageId: page.id, senderId: user, mid, text: 'How long do parcels take?', count: 1 }),
    );
    await settled();

    const question = (await messagesOf(conversation.id)).find((m) => m.messageType === 'user')!;
    expect(question.message).toBe('How long do parcels to Canada take?');
    expect(question.metadata).toMatchObject({
      edited: { count: 2 },
      message_metadata: { message: 'How long do parcels to Canada take?' },
    });
    expect((await conversationOf(user))!.name).toBe('How long do parcels to Canada take?');
    const shown = (await thread(conversation.id)).messages.find((m) => m.message_type === 'user')!;
    expect(shown).toMatchObject({ message: 'How long do parcels to Canada take?', edited: { count: 2 } });
    expect(fake.texts(user)).toHaveLength(1); // the first answer, and no second
    expect((await messagesOf(conversation.id)).filter((m) => m.messageType === 'user')).toHaveLength(1);
  });

  it('wipes a message unsent on Instagram, its attachments and the name it gave, for good', async () => {
    const ig = { id: `ig-${unique()}`, username: `unsend${unique()}` };
    await connect(owner, 'instagram', [{ id: `page-${unique()}`, name: 'Unsend', instagram: ig }], {
      bot_id: botId,
    });
    const fan = `igsid-${unique()}`;
    const mid = `ig_${unique()}`;
    const secret = 'my card is 4111 1111 1111 1111, express to Canada?';
    const photo = 'https://cdn.example/card-photo.jpg';
    await fake.postWebhook(
      webhook('instagram'),
      instagramText({
        igId: ig.id,
        senderId: fan,
        mid,
        text: secret,
        attachments: [{ type: 'image', payload: { url: photo } }],
      }),
    );
    await settled();
    const conversation = (await conversationOf(fan))!;
    expect(conversation.name).toBe(secret);
    expect((await messagesOf(conversation.id)).find((m) => m.messageType === 'user')!.attachments).toEqual([
      expect.objectContaining({ url: photo }),
    ]);

    // Somebody else's unsend of that mid, and an unsend of a mid never stored, change nothing.
    const stranger = `igsid-${unique()}`;
    await fake.postWebhook(webhook('instagram'), instagramUnsend({ igId: ig.id, senderId: stranger, mid }));
    await fake.postWebhook(
      webhook('instagram'),
      instagramUnsend({ igId: ig.id, senderId: fan, mid: `ig_${unique()}` }),
    );
    await settled();
    expect((await messagesOf(conversation.id)).find((m) => m.messageType === 'user')!.message).toBe(secret);
    expect(await conversationOf(stranger)).toBeUndefined();

    await fake.postWebhook(webhook('instagram'), instagramUnsend({ igId: ig.id, senderId: fan, mid }));
    await settled();
    // An edit that comes after it does not bring text back.
    const edit = messengerEdit({ pageId: ig.id, senderId: fan, mid, text: 'edited after', count: 1 });
    await fake.postWebhook(webhook('instagram'), { ...edit, object: 'instagram' });
    await settled();

    const stored = await messagesOf(conversation.id);
    const question = stored.find((m) => m.messageType === 'user')!;
    expect(question.message).toBe('');
    expect(question.attachments).toEqual([]);
    expect(question.metadata).toHaveProperty('unsent_at');
    expect(JSON.stringify(stored)).not.toContain('4111');
    expect(JSON.stringify(stored)).not.toContain(photo);
    expect((await conversationOf(fan))!.name).toBe('New Chat');
    const shown = (await thread(conversation.id)).messages.find((m) => m.message_type === 'user')!;
    expect(shown).toMatchObject({ message: '', unsent_at: expect.any(String) });
    expect(JSON.stringify(await thread(conversation.id))).not.toContain('4111');
    // The bot's answer to it stands: the business said it.
    expect(stored.filter((m) => m.messageType === 'bot')).toHaveLength(2);
  });

  it('takes an unsent question the bot could not answer off the Q&A screen, leaving the others', async () => {
    const ig = { id: `ig-${unique()}`, username: `queue${unique()}` };
    await connect(owner, 'instagram', [{ id: `page-${unique()}`, name: 'Queue', instagram: ig }], {
      bot_id: botId,
    });
    const queue = async () =>
      (await server.get<Array<{ question: string }>>(`/api/unanswered/bot/${botId}`, as(owner))).body.map(
        (group) => group.question,
      );
    const fan = `igsid-${unique()}`;
    const mid = `ig_${unique()}`;
    const secret = 'do you sell gift vouchers? call me on 0161 496 0000';
    await fake.postWebhook(
      webhook('instagram'),
      instagramText({ igId: ig.id, senderId: fan, mid, text: secret }),
    );
    await fake.postWebhook(
      webhook('instagram'),
      instagramText({ igId: ig.id, senderId: fan, text: 'do you repair bicycles?' }),
    );
    await settled();
    expect(await queue()).toEqual(expect.arrayContaining([secret, 'do you repair bicycles?']));

    await fake.postWebhook(webhook('instagram'), instagramUnsend({ igId: ig.id, senderId: fan, mid }));
    await settled();
    const left = await queue();
    expect(left).toContain('do you repair bicycles?');
    expect(JSON.stringify(left)).not.toContain('0161');
  });
});

describe('agents on the channel', () => {
  async function conversationWithUser() {
    const { page, account } = await connectPage(owner, botId);
    const user = `user-${unique()}`;
    await fake.postWebhook(
      webhook('messenger'),
      messengerText({ pageId: page.id, senderId: user, text: 'Canada parcels?' }),
    );
    await settled();
    return { page, account, user, conversation: (await conversationOf(user))! };
  }

  async function takeOver(conversationId: number) {
    const taken = await server.patch<HelpdeskControlStatus>(
      `/api/chat/conversations/${conversationId}/helpdesk-control`,
      { tenant_id: owner.user.tenant_id, is_helpdesk_in_control: true },
      as(owner),
    );
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
  }

  const reply = (conversationId: number, message: string) =>
    server.post(`/api/chat/helpdesk/conversations/${conversationId}/reply`, { message }, as(owner));

  it('sends an agent’s reply; past 24 hours with the HUMAN_AGENT tag; past 7 days refuses with the reason', async () => {
    const { user, conversation } = await conversationWithUser();
    await takeOver(conversation.id);
    await settled();
    expect((await reply(conversation.id, 'Hi, Sam here.')).status).toBe(201);
    await settled();
    const sent = fake.sent.filter((s) => (s.body as { recipient: { id: string } }).recipient.id === user);
    expect(sent.at(-1)!.body).toMatchObject({
      messaging_type: 'RESPONSE',
      message: { text: 'Hi, Sam here.' },
    });
    // The person took over: the bot says nothing more to the next message.
    const before = fake.texts(user).length;
    await age(conversation.id, 2);
    expect((await reply(conversation.id, 'Still there?')).status).toBe(201);
    await settled();
    expect(fake.sent.at(-1)!.body).toMatchObject({ messaging_type: 'MESSAGE_TAG', tag: 'HUMAN_AGENT' });
    expect(fake.texts(user).length).toBe(before + 1);

    const shown = () =>
      server.get<ConversationWithMessages>(`/api/chat/helpdesk/conversations/${conversation.id}`, as(owner));
    expect((await shown()).body.reply_window).toMatchObject({
      state: 'tagged',
      reason: SOCIAL_TEXTS.windowTagged,
    });
    await age(conversation.id, 8);
    const closed = await reply(conversation.id, 'Too late');
    expect([closed.status, closed.body]).toEqual([409, { detail: SOCIAL_TEXTS.windowClosed }]);
    expect((await shown()).body.reply_window).toEqual({
      state: 'closed',
      until: null,
      reason: SOCIAL_TEXTS.windowClosed,
    });
  });

  it("runs the window from Meta's time for the message: a bot answer past it fails, shown on the message", async () => {
    const { page } = await connectPage(owner, botId);
    const user = `user-${unique()}`;
    const eightDaysAgo = Date.now() - 8 * 86_400_000;
    await fake.postWebhook(
      webhook('messenger'),
      messengerText({ pageId: page.id, senderId: user, text: 'Canada parcels?', timestamp: eightDaysAgo }),
    );
    await settled();
    expect(fake.texts(user)).toEqual([]);
    const conversation = (await conversationOf(user))!;
    const thread = await server.get<ConversationWithMessages>(
      `/api/chat/helpdesk/conversations/${conversation.id}`,
      as(owner),
    );
    expect(thread.body.reply_window).toMatchObject({ state: 'closed' });
    expect(thread.body.messages.at(-1)!.delivery).toEqual({
      status: 'failed',
      error: SOCIAL_TEXTS.windowClosed,
    });
  });

  it("steps the bot aside when the page answers from Meta's inbox (an echo)", async () => {
    const { page, user, conversation } = await conversationWithUser();
    const answered = fake.texts(user).length;
    await fake.postWebhook(
      webhook('messenger'),
      messengerEcho({ pageId: page.id, recipientId: user, text: 'Human here', appId: '999' }),
    );
    await settled();
    const [row] = await server.database.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, conversation.id));
    expect(row!.handoffState).toBe('human');
    await fake.postWebhook(
      webhook('messenger'),
      messengerText({ pageId: page.id, senderId: user, text: 'And to Canada?' }),
    );
    await settled();
    expect(fake.texts(user).length).toBe(answered + 1); // only the hand-off notice, no bot answer
    const stored = await messagesOf(conversation.id);
    expect(stored.some((m) => m.messageType === 'helpdesk' && m.message === 'Human here')).toBe(true);
    // Our own sends come back as echoes with our app id: ignored.
    await fake.postWebhook(
      webhook('messenger'),
      messengerEcho({ pageId: page.id, recipientId: user, text: 'ours', appId: APP.appId }),
    );
    await settled();
    expect((await messagesOf(conversation.id)).some((m) => m.message === 'ours')).toBe(false);
  });

  it('retries a throttled send, and fails a permanent error at once, shown on the message', async () => {
    const { page } = await connectPage(owner, botId);
    const user = `user-${unique()}`;
    fake.failNextSends(1, { code: 613, message: 'Calls to this api have exceeded the rate limit.' });
    await fake.postWebhook(
      webhook('messenger'),
      messengerText({ pageId: page.id, senderId: user, text: 'Canada parcels?' }),
    );
    await settled();
    expect(fake.texts(user)).toHaveLength(1);

    const blocked = `user-${unique()}`;
    fake.failNextSends(1, { code: 551, message: 'This person isn’t available right now.' });
    await fake.postWebhook(
      webhook('messenger'),
      messengerText({ pageId: page.id, senderId: blocked, text: 'Canada parcels?' }),
    );
    await settled();
    const stored = await messagesOf((await conversationOf(blocked))!.id);
    expect(stored.at(-1)!.metadata).toMatchObject({ delivery: { status: 'failed' } });
    const [job] = await server.database.db
      .select()
      .from(jobs)
      .where(
        and(eq(jobs.name, 'channel.send'), sql`${jobs.data}->>'messageId' = ${String(stored.at(-1)!.id)}`),
      );
    expect([job!.status, job!.attempts]).toEqual(['failed', 1]);
  });

  it('marks the account inactive and tells the owner when Facebook refuses its token', async () => {
    const { page, account } = await connectPage(owner, botId);
    const [row] = await server.database.db
      .select()
      .from(socialAccounts)
      .where(eq(socialAccounts.id, account.id));
    fake.expireToken(pageTokens[page.id]!);
    const user = `user-${unique()}`;
    await fake.postWebhook(
      webhook('messenger'),
      messengerText({ pageId: page.id, senderId: user, text: 'Canada?' }),
    );
    await settled();
    const shown = await server.get<SocialAccount>(`/api/social/messenger/accounts/${row!.id}`, as(owner));
    expect(shown.body).toMatchObject({ is_active: false, inactive_reason: SOCIAL_TEXTS.tokenExpired });
    expect(await outboxText(server.database, owner.user.email)).toContain(SOCIAL_TEXTS.tokenExpired);
  });
});

describe('the person button', () => {
  const UNKNOWN = 'Do you sell gift vouchers?';
  const sentTo = (user: string) =>
    fake.sent
      .map(
        (s) => s.body as { recipient: { id: string }; message?: { text: string; quick_replies?: unknown } },
      )
      .filter((body) => body.recipient.id === user && body.message);

  async function handoffEvents(conversationId: number) {
    return server.database.db
      .select()
      .from(conversationEvents)
      .where(
        and(
          eq(conversationEvents.conversationId, conversationId),
          eq(conversationEvents.toState, 'human_requested'),
        ),
      );
  }

  it('offers "Talk to a person" as a quick reply under an answer it could not give; a tap hands over once', async () => {
    const { page } = await connectPage(owner, botId);
    const user = `user-${unique()}`;
    const tap = (mid?: string) =>
      fake.postWebhook(
        webhook('messenger'),
        quickReplyTap({
          channel: 'messenger',
          accountId: page.id,
          senderId: user,
          title: 'Talk to a person',
          payload: PERSON_PAYLOAD,
          mid,
        }),
      );
    await fake.postWebhook(
      webhook('messenger'),
      messengerText({ pageId: page.id, senderId: user, text: 'How long do parcels to Canada take?' }),
    );
    await settled();
    expect(sentTo(user)).toHaveLength(1);
    expect(sentTo(user)[0]!.message!.quick_replies).toBeUndefined(); // an answer with its sources offers nothing

    await fake.postWebhook(
      webhook('messenger'),
      messengerText({ pageId: page.id, senderId: user, text: UNKNOWN }),
    );
    await settled();
    const conversation = (await conversationOf(user))!;
    const answer = (await messagesOf(conversation.id)).at(-1)!;
    expect((answer.metadata as { actions: unknown }).actions).toEqual([
      { type: 'human', title: 'Talk to a person' },
    ]);
    expect(
      fake.sent.filter((s) => (s.body as { recipient: { id: string } }).recipient.id === user).at(-1)!.body,
    ).toEqual({
      recipient: { id: user },
      messaging_type: 'RESPONSE',
      // The answer's words as they are, one message, with the button under them.
      message: {
        text: answer.message,
        quick_replies: [{ content_type: 'text', title: 'Talk to a person', payload: PERSON_PAYLOAD }],
      },
    });

    const mid = `m_${unique()}`;
    await tap(mid);
    await tap(mid); // Meta delivers it again
    await settled();
    expect((await conversationOf(user))!.handoffState).toBe('human_requested');
    expect(fake.texts(user).at(-1)).toBe(HANDOFF_TEXTS.nobodyOnlineNoForm);
    let stored = await messagesOf(conversation.id);
    const tapped = stored.filter((m) => m.messageType === 'user' && m.message === 'Talk to a person');
    expect(tapped).toHaveLength(1);
    expect((tapped[0]!.metadata as { message_metadata: object }).message_metadata).toMatchObject({
      quick_reply: { payload: PERSON_PAYLOAD },
      for_agents: true,
    });
    // The hand-off answered the tap; the bot did not.
    expect(stored.filter((m) => m.seq > tapped[0]!.seq).map((m) => m.messageType)).toEqual(['system']);

    // Tapped again: told they are already waiting, not queued twice.
    await tap();
    await settled();
    expect(fake.texts(user).at(-1)).toBe(HANDOFF_TEXTS.alreadyWaiting);
    expect(await handoffEvents(conversation.id)).toHaveLength(1);
    stored = await messagesOf(conversation.id);
    const forUser = stored.filter(
      (m) =>
        m.messageType === 'system' ||
        (m.messageType === 'bot' && !(m.metadata as { welcome?: boolean } | null)?.welcome),
    );
    // Every message for the user went out exactly once.
    expect(fake.texts(user)).toHaveLength(forUser.length);
    expect(fake.texts(user).slice(-2)).toEqual(forUser.slice(-2).map((m) => m.message));
  });

  it('says the button in the visitor’s language within 20 characters on Instagram; its tap hands over whatever its words', async () => {
    const ig = { id: `ig-${unique()}`, username: `shop${unique()}` };
    const connected = await connect(
      owner,
      'instagram',
      [{ id: `page-${unique()}`, name: 'IG page', instagram: ig }],
      { bot_id: botId },
    );
    expect(connected.status).toBe(200);
    const user = `igsid-${unique()}`;
    await fake.postWebhook(
      webhook('instagram'),
      instagramText({ igId: ig.id, senderId: user, text: 'Vendete buoni regalo per un negozio di Roma?' }),
    );
    await settled();
    const [sent] = fake.quickReplies(user);
    expect(sent!.text).toMatch(new RegExp(`^${replyTexts('', [], 'italian').notFound}`));
    // "Parla con una persona" is 21 characters: said shorter, not cut.
    expect(sent!.quick_replies).toEqual([
      { content_type: 'text', title: 'Parla con qualcuno', payload: PERSON_PAYLOAD },
    ]);

    // These words alone would not reach a person if typed; the tap's payload does.
    await fake.postWebhook(
      webhook('instagram'),
      quickReplyTap({
        channel: 'instagram',
        accountId: ig.id,
        senderId: user,
        title: 'Parla con qualcuno',
        payload: PERSON_PAYLOAD,
      }),
    );
    await settled();
    expect((await conversationOf(user))!.handoffState).toBe('human_requested');
    expect(fake.texts(user).at(-1)).toBe(VISITOR_NOTICES.italian.nobodyOnlineNoForm);
    const stored = await messagesOf((await conversationOf(user))!.id);
    expect(stored.at(-2)).toMatchObject({ messageType: 'user', message: 'Parla con qualcuno' });
    expect(stored.at(-1)!.messageType).toBe('system'); // no answer from the bot to the tap
  });

  it('asks for the person once when a tap’s job runs again, whether its first run died before asking or not', async () => {
    const { page } = await connectPage(owner, botId);
    const user = `user-${unique()}`;
    await fake.postWebhook(
      webhook('messenger'),
      messengerText({ pageId: page.id, senderId: user, text: UNKNOWN }),
    );
    await settled();
    const conversation = (await conversationOf(user))!;
    const [account] = await server.database.db
      .select()
      .from(socialAccounts)
      .where(eq(socialAccounts.externalId, page.id));
    const mid = `m_${unique()}${unique()}`;
    const tap = quickReplyTap({
      channel: 'messenger',
      accountId: page.id,
      senderId: user,
      title: 'Talk to a person',
      payload: PERSON_PAYLOAD,
      mid,
    });
    const rerun = async () => {
      await server.parley.jobs.enqueue(
        SOCIAL_INBOUND_JOB,
        { accountId: account!.id, channel: 'messenger', item: tap.entry[0]!.messaging[0]! },
        { tenantId: account!.tenantId },
      );
      await settled();
    };
    // A run that stored the tap and died before asking: the next run asks, once.
    await appendMessage(server.database.db, conversation.id, {
      messageType: 'user',
      messageSource: 'messenger',
      message: 'Talk to a person',
      senderId: user,
      recipientId: page.id,
      metadata: { client_id: mid, message_metadata: { for_agents: true } },
    });
    await rerun();
    await rerun();
    expect((await conversationOf(user))!.handoffState).toBe('human_requested');
    expect(await handoffEvents(conversation.id)).toHaveLength(1);
    const stored = await messagesOf(conversation.id);
    expect(stored.filter((m) => m.message === 'Talk to a person')).toHaveLength(1);
    expect(stored.at(-1)!.message).toBe(HANDOFF_TEXTS.nobodyOnlineNoForm);
    expect(fake.texts(user).filter((t) => t === HANDOFF_TEXTS.nobodyOnlineNoForm)).toHaveLength(1);
    expect(fake.texts(user)).not.toContain(HANDOFF_TEXTS.alreadyWaiting);
  });

  it('retries a throttled quick reply as it was; a refused one goes once as text, the answer whole', async () => {
    const { page } = await connectPage(owner, botId);
    const throttled = `user-${unique()}`;
    fake.failNextSends(1, { code: 613, message: 'Calls to this api have exceeded the rate limit.' });
    await fake.postWebhook(
      webhook('messenger'),
      messengerText({ pageId: page.id, senderId: throttled, text: UNKNOWN }),
    );
    await settled();
    expect(sentTo(throttled)).toHaveLength(1);
    expect(fake.quickReplies(throttled)).toHaveLength(1);

    const user = `user-${unique()}`;
    fake.refuseQuickReplies({ code: 100, message: '(#100) Invalid parameter' });
    try {
      await fake.postWebhook(
        webhook('messenger'),
        messengerText({ pageId: page.id, senderId: user, text: UNKNOWN }),
      );
      await settled();
    } finally {
      fake.refuseQuickReplies(null);
    }
    const conversation = (await conversationOf(user))!;
    const answer = (await messagesOf(conversation.id)).at(-1)!;
    // One message, the answer's words, which already say how to ask for a person; no button.
    expect(sentTo(user)).toEqual([
      { recipient: { id: user }, messaging_type: 'RESPONSE', message: { text: answer.message } },
    ]);
    expect(answer.message).toMatch(/talk to a person/);
    expect(answer.metadata).toMatchObject({ delivery: { status: 'sent', error: null, plain: true } });
    const [job] = await server.database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.name, 'channel.send'), sql`${jobs.data}->>'messageId' = ${String(answer.id)}`));
    expect([job!.status, job!.attempts]).toEqual(['completed', 1]);
    // Typed, the request still works.
    await fake.postWebhook(
      webhook('messenger'),
      messengerText({ pageId: page.id, senderId: user, text: 'I want to talk to a person' }),
    );
    await settled();
    expect((await conversationOf(user))!.handoffState).toBe('human_requested');
  });
});

/** Moves the user's messages of a conversation `days` into the past (the reply window reads them). */
async function age(conversationId: number, days: number) {
  await server.database.db
    .update(messages)
    .set({
      createdAt: sql`now() - make_interval(days => ${days})`,
      // Meta's own time for the message, which the window runs from.
      metadata: sql`jsonb_set(${messages.metadata}, '{message_metadata,timestamp}', to_jsonb(${Date.now() - days * 86_400_000}::bigint))`,
    })
    .where(and(eq(messages.conversationId, conversationId), eq(messages.messageType, 'user')));
}
