import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type {
  Bot,
  ChatExchange,
  ChecklistStep,
  FileGroupUploadResponse,
  HomeSummary,
  LeadFormConfig,
  LeadList,
  Role,
  VisitorIdentity,
} from '@parley/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { addTeammate, createRole, signupOwner, tokenFromText } from '../../test/factories.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { leads } from '../bots/bots.schema.js';
import { conversations } from '../chat/chat.schema.js';
import { webSources } from '../crawler/crawler.schema.js';
import { recordQuestion } from '../unanswered/unanswered.service.js';

let server: TestServer;
let dataDir: string;
const as = (account: Account) => ({ token: account.access_token });
const readToken = (email: string) => outboxText(server.database, email).then(tokenFromText);

async function summaryOf(account: Account): Promise<HomeSummary> {
  const reply = await server.get<HomeSummary>('/api/home/summary', as(account));
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  expect(reply.headers.get('cache-control')).toBe('no-store');
  return reply.body;
}

/** Each step's state, by step, for short assertions. */
async function ticks(account: Account): Promise<Record<string, boolean>> {
  const { checklist } = await summaryOf(account);
  expect(checklist).not.toBeNull();
  return Object.fromEntries(checklist!.map((item) => [item.step, item.done]));
}

const NOTHING_DONE: Record<ChecklistStep, boolean> = {
  create_bot: false,
  add_knowledge: false,
  try_bot: false,
  embed_widget: false,
  invite_teammate: false,
};

/** Multipart, as the bot wizard sends it. */
async function createBot(account: Account, name: string): Promise<Bot> {
  const form = new FormData();
  form.append('bot_name', name);
  form.append('description', `${name} answers questions`);
  const response = await fetch(`${server.url}/api/chat/bots`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${account.access_token}` },
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Bot;
}

async function assign(owner: Account, user: Account, bots: Bot[]) {
  const reply = await server.put(
    `/api/auth/bots-assigned/${user.user.id}`,
    { bot_ids: bots.map((b) => b.bot_id) },
    as(owner),
  );
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
}

async function memberRole(owner: Account): Promise<Role> {
  const roles = await server.get<Role[]>(`/api/role/roles/${owner.user.tenant_id}`, as(owner));
  return roles.body.find((role) => role.name === 'Member')!;
}

/** A widget's visitor identity for the bot (what the widget holds in the browser). */
async function visitorOf(bot: Bot): Promise<VisitorIdentity> {
  const identity = await server.post<VisitorIdentity>(
    '/api/chat/visitor',
    { bot_uuid: bot.uuid },
    { headers: { origin: 'https://shop.example.com' } },
  );
  expect(identity.status).toBe(200);
  return identity.body;
}

/** A visitor of the bot's widget: an identity (a new one unless given), then one message over the chat socket. */
async function visitorAsks(bot: Bot, message: string, identity?: VisitorIdentity) {
  const visitor = identity ?? (await visitorOf(bot));
  const socket = new WebSocket(
    `${server.url.replace('http', 'ws')}/api/chat/stream?visitor_token=${visitor.visitor_token}`,
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.send(
    JSON.stringify({
      content: { bot_id: bot.bot_id, conversation_id: 0, message, message_type: 'user' },
      elements: [],
    }),
  );
  return socket;
}

async function uploadTrainedFile(account: Account) {
  const form = new FormData();
  form.append('group_name', `help_${Date.now().toString(36)}`);
  form.append('user_id', String(account.user.id));
  form.append('files', new Blob(['Opening hours are nine to five.']), 'hours.txt');
  const response = await fetch(`${server.url}/api/file/upload-multiple`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${account.access_token}` },
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as FileGroupUploadResponse;
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'parley-home-'));
  // Behind a proxy, so each visitor leaving a lead has an address (and per-IP limit) of its own.
  server = await startTestServer({ env: { DATA_DIR: dataDir, TRUST_PROXY: 'true' } });
});
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('GET /api/home/summary', () => {
  it('needs a session', async () => {
    const reply = await server.get('/api/home/summary');
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ detail: expect.any(String) });
  });

  it("gives a new workspace's owner empty lists, the month's usage and an open checklist", async () => {
    const owner = await signupOwner(server);
    const summary = await summaryOf(owner);
    expect(summary).toMatchObject({
      bots_scope: 'workspace',
      bots: [],
      bot_count: 0,
      conversations: [],
      usage: { used: 0, limit: 10_000, remaining: 10_000 },
      questions: { items: [], total: 0 },
      leads: { last_7_days: 0, per_day: [0, 0, 0, 0, 0, 0, 0], items: [], form_enabled: false },
    });
    expect(summary.checklist).toEqual(
      Object.keys(NOTHING_DONE).map((step) => ({ step, done: false, allowed: true })),
    );
  });
});

describe('the getting-started checklist', () => {
  it('ticks each step after the real action, and only that step', async () => {
    const owner = await signupOwner(server);
    expect(await ticks(owner)).toEqual(NOTHING_DONE);

    const bot = await createBot(owner, 'Harbour_helper');
    expect(await ticks(owner)).toEqual({ ...NOTHING_DONE, create_bot: true });
    const { bots, bot_count } = await summaryOf(owner);
    expect(bot_count).toBe(1);
    expect(bots).toEqual([
      {
        bot_id: bot.bot_id,
        bot_name: 'Harbour_helper',
        description: 'Harbour_helper answers questions',
        profile_image: null,
        brand_color: bot.brand_color,
      },
    ]);

    const pair = await server.post(
      '/api/qna/',
      { bot_id: bot.bot_id, question: 'When do you open?', answer: 'At nine.' },
      as(owner),
    );
    expect(pair.status).toBe(201);
    const step2 = { ...NOTHING_DONE, create_bot: true, add_knowledge: true };
    expect(await ticks(owner)).toEqual(step2);

    // The console's own test chat is trying it, not putting it on a website.
    const chat = await server.post('/api/chat/chats', { bot_id: bot.bot_id, message: 'Hello?' }, as(owner));
    expect(chat.status, JSON.stringify(chat.body)).toBe(200);
    const step3 = { ...step2, try_bot: true };
    expect(await ticks(owner)).toEqual(step3);

    const socket = await visitorAsks(bot, 'When do you open?');
    try {
      await expect.poll(async () => (await ticks(owner)).embed_widget, { timeout: 10_000 }).toBe(true);
    } finally {
      socket.close();
    }
    expect(await ticks(owner)).toEqual({ ...step3, embed_widget: true });

    const invited = await server.post(
      '/api/auth/invite-user',
      { email: `invitee-${Date.now()}@example.com`, role_id: (await memberRole(owner)).id },
      as(owner),
    );
    expect(invited.status).toBe(201);
    expect(Object.values(await ticks(owner))).toEqual([true, true, true, true, true]);
  });

  it('counts a visitor on the website as trying it too', async () => {
    const owner = await signupOwner(server);
    const bot = await createBot(owner, 'Widget_only');
    const socket = await visitorAsks(bot, 'Hi there');
    try {
      await expect.poll(async () => (await ticks(owner)).embed_widget, { timeout: 10_000 }).toBe(true);
    } finally {
      socket.close();
    }
    expect(await ticks(owner)).toMatchObject({ try_bot: true, embed_widget: true });
  });

  it('counts knowledge from a trained file or a web source, not from a bot alone', async () => {
    const withFile = await signupOwner(server);
    await uploadTrainedFile(withFile);
    await expect.poll(async () => (await ticks(withFile)).add_knowledge, { timeout: 20_000 }).toBe(true);

    const withSite = await signupOwner(server);
    await createBot(withSite, 'No_knowledge');
    expect((await ticks(withSite)).add_knowledge).toBe(false);
    // A crawl's web source (the crawl itself needs a site to fetch; its row is what counts).
    await server.database.db.insert(webSources).values({
      tenantId: withSite.user.tenant_id,
      userId: withSite.user.id,
      baseUrl: 'https://docs.example.com',
      name: 'Docs',
    });
    expect((await ticks(withSite)).add_knowledge).toBe(true);
  });

  it('ticks "invite a teammate" once a second person has joined', async () => {
    const owner = await signupOwner(server);
    await addTeammate(server, owner, await memberRole(owner), readToken);
    expect((await ticks(owner)).invite_teammate).toBe(true);
  });
});

describe('permissions', () => {
  let owner: Account;
  let bots: Bot[];
  beforeAll(async () => {
    owner = await signupOwner(server);
    bots = [];
    for (const name of ['Alpha_bot', 'Beta_bot', 'Gamma_bot']) bots.push(await createBot(owner, name));
    const chat = await server.post('/api/chat/chats', { bot_id: bots[0]!.bot_id, message: 'Hi' }, as(owner));
    expect(chat.status).toBe(200);
  });

  it('shows a Member without Manage Bots or Inbox every bot until the owner restricts them: no conversations, usage or checklist', async () => {
    const member = await addTeammate(server, owner, await memberRole(owner), readToken);
    // Issue 31: a new teammate works with every bot, new ones included, with no "Assign bots" step.
    expect((await summaryOf(member)).bots.map((b) => b.bot_name)).toEqual([
      'Alpha_bot',
      'Beta_bot',
      'Gamma_bot',
    ]);
    await assign(owner, member, [bots[1]!]);
    const summary = await summaryOf(member);
    expect(summary).toEqual({
      bots_scope: 'assigned',
      bots: [expect.objectContaining({ bot_id: bots[1]!.bot_id, bot_name: 'Beta_bot' })],
      bot_count: 1,
      conversations: null,
      usage: null,
      checklist: null,
      analytics: null,
      questions: null,
      leads: null,
    });
    // The same as the routes behind each part answer this Member on their own.
    const tenantId = owner.user.tenant_id;
    expect((await server.get(`/api/chat/helpdesk/grouped/${tenantId}`, as(member))).status).toBe(403);
    expect((await server.get(`/api/chat/message-limit/${tenantId}`, as(member))).status).toBe(403);
  });

  it('shows an agent (Inbox only) the conversations and their assigned bots', async () => {
    const role = await createRole(server, owner, { Inbox: { read: true, write: true } });
    const agent = await addTeammate(server, owner, role, readToken);
    await assign(owner, agent, [bots[2]!, bots[0]!]);
    // A visitor's conversation is listed; the owner's playground chat of beforeAll ('Hi') is a test,
    // which the inbox leaves out, and so does Home.
    const socket = await visitorAsks(bots[0]!, 'Do you deliver?');
    try {
      await expect
        .poll(async () => (await summaryOf(agent)).conversations?.length, { timeout: 10_000 })
        .toBe(1);
    } finally {
      socket.close();
    }
    const summary = await summaryOf(agent);
    expect(summary.bots_scope).toBe('assigned');
    expect(summary.bots.map((b) => b.bot_name)).toEqual(['Alpha_bot', 'Gamma_bot']);
    expect(summary.conversations).toEqual([
      expect.objectContaining({ bot_id: bots[0]!.bot_id, bot_name: 'Alpha_bot', name: 'Do you deliver?' }),
    ]);
    // The same conversations as the inbox lists.
    const inbox = await server.get<{ conversations: { conversation_id: number }[] }[]>(
      `/api/chat/helpdesk/grouped/${owner.user.tenant_id}`,
      as(agent),
    );
    expect(inbox.body.flatMap((g) => g.conversations.map((c) => c.conversation_id))).toEqual(
      summary.conversations!.map((c) => c.conversation_id),
    );
    expect(summary.usage).toBeNull();
    expect(summary.checklist).toBeNull();
  });

  it('shows a bot manager who is not an owner the bots they work with, as the bots list does', async () => {
    const role = await createRole(server, owner, { 'Create Bot': { create: true, read: true, write: true } });
    const manager = await addTeammate(server, owner, role, readToken);
    await assign(owner, manager, [bots[1]!]);
    const own = await createBot(manager, 'Managers_own');
    const summary = await summaryOf(manager);
    const expected = await server.get<Bot[]>(`/api/chat/bots/user/${manager.user.id}`, as(manager));
    expect(summary.bots_scope).toBe('workspace');
    expect(summary.bots.map((b) => b.bot_id)).toEqual(expected.body.map((b) => b.bot_id));
    expect(summary.bots.map((b) => b.bot_id).sort()).toEqual([bots[1]!.bot_id, own.bot_id].sort());
    expect(summary.conversations).toBeNull();
    expect(summary.usage).toMatchObject({ limit: 10_000 });
    // The questions waiting are those of the bots they work with, not the rest of the workspace's.
    const queue = (bot: Bot, question: string) =>
      recordQuestion(server.database.db, {
        tenantId: owner.user.tenant_id,
        botId: bot.bot_id,
        question,
        reason: 'not_found',
      });
    await queue(bots[0]!, 'Do you ship to Canada?');
    await queue(bots[1]!, 'Can I pay with PayPal?');
    expect((await summaryOf(manager)).questions).toEqual({
      items: [
        {
          id: expect.any(Number),
          bot_id: bots[1]!.bot_id,
          bot_name: 'Beta_bot',
          question: 'Can I pay with PayPal?',
          asked_count: 1,
        },
      ],
      total: 1,
    });
    // Every bot step is theirs; inviting is not, so it is shown but not theirs to do.
    expect(summary.checklist!.map((item) => [item.step, item.allowed])).toEqual([
      ['create_bot', true],
      ['add_knowledge', true],
      ['try_bot', true],
      ['embed_widget', true],
      ['invite_teammate', false],
    ]);
  });

  it("shows someone who reads Analytics the last 30 days' conversations, answer rate and revenue", async () => {
    const role = await createRole(server, owner, { Analytics: { read: true } });
    const analyst = await addTeammate(server, owner, role, readToken);
    const { analytics } = await summaryOf(analyst);
    const today = new Date().toISOString().slice(0, 10);
    expect(analytics).toEqual({
      period: { from: new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10), to: today },
      // The visitor's of the agent's test (the playground chat of beforeAll is a test, left out):
      // nothing to answer with.
      conversations: 1,
      answer_rate: 0,
      revenue: [],
    });
    expect((await summaryOf(owner)).analytics).toEqual(analytics);
  });

  it('gives someone who may only invite the checklist with only that step theirs', async () => {
    const role = await createRole(server, owner, { Roles: { create: true, read: true } });
    const inviter = await addTeammate(server, owner, role, readToken);
    const summary = await summaryOf(inviter);
    expect(summary.checklist!.filter((item) => item.allowed).map((item) => item.step)).toEqual([
      'invite_teammate',
    ]);
    // The workspace's progress, whoever looks: a bot exists and was tried, a visitor asked it (the
    // agent's test), a teammate has joined.
    expect(summary.checklist!.filter((item) => item.done).map((item) => item.step)).toEqual([
      'create_bot',
      'try_bot',
      'embed_widget',
      'invite_teammate',
    ]);
  });

  it('lists the three most asked questions waiting for an answer, with how many wait in all', async () => {
    const mine = await signupOwner(server);
    const shop = await createBot(mine, 'Shop_bot');
    const ask = (question: string) =>
      recordQuestion(server.database.db, {
        tenantId: mine.user.tenant_id,
        botId: shop.bot_id,
        question,
        reason: 'unsure',
      });
    for (const question of ['Do you ship to Canada?', 'Shipping to Canada?', 'do you ship to canada'])
      await ask(question);
    for (const question of [
      'Can I pay with PayPal?',
      'Is there a student discount?',
      'Do you sell gift cards?',
    ])
      await ask(question);
    await ask('can i pay with paypal');
    const { questions } = await summaryOf(mine);
    expect(questions!.total).toBe(4);
    expect(questions!.items.map((q) => [q.question, q.asked_count, q.bot_name])).toEqual([
      ['Do you ship to Canada?', 3, 'Shop_bot'],
      ['Can I pay with PayPal?', 2, 'Shop_bot'],
      ['Do you sell gift cards?', 1, 'Shop_bot'],
    ]);
  });

  it('lists at most six bots, newest first, with the full count', async () => {
    const busy = await signupOwner(server);
    const made: Bot[] = [];
    for (let i = 1; i <= 8; i++) made.push(await createBot(busy, `Bot_${i}`));
    const summary = await summaryOf(busy);
    expect(summary.bot_count).toBe(8);
    expect(summary.bots.map((b) => b.bot_name)).toEqual(
      made
        .slice(2)
        .reverse()
        .map((b) => b.bot_name),
    );
  });
});

describe('tenancy', () => {
  it("never shows another workspace's bots or conversations, nor ticks for its actions", async () => {
    const mine = await signupOwner(server);
    const theirs = await signupOwner(server);
    const theirBot = await createBot(theirs, 'Their_bot');
    await server.post('/api/chat/chats', { bot_id: theirBot.bot_id, message: 'Secret plans' }, as(theirs));
    await server.post('/api/qna/', { bot_id: theirBot.bot_id, question: 'Q?', answer: 'A.' }, as(theirs));
    const socket = await visitorAsks(theirBot, 'Visitor of theirs');
    try {
      await expect.poll(async () => (await ticks(theirs)).embed_widget, { timeout: 10_000 }).toBe(true);
    } finally {
      socket.close();
    }

    const summary = await summaryOf(mine);
    expect(summary.bots).toEqual([]);
    expect(summary.bot_count).toBe(0);
    expect(summary.conversations).toEqual([]);
    expect(summary.usage!.used).toBe(0);
    expect(summary.questions).toEqual({ items: [], total: 0 });
    expect(await ticks(mine)).toEqual(NOTHING_DONE);
    expect((await summaryOf(theirs)).usage!.used).toBeGreaterThan(0);
  });

  it('ignores tenant ids a caller adds to the query: the summary is always their own', async () => {
    const mine = await signupOwner(server);
    const theirs = await signupOwner(server);
    await createBot(theirs, 'Not_yours');
    const reply = await server.get<HomeSummary>(
      `/api/home/summary?tenant_id=${theirs.user.tenant_id}&user_id=${theirs.user.id}`,
      as(mine),
    );
    expect(reply.status).toBe(200);
    expect(reply.body.bots).toEqual([]);
  });
});

const LEAD_FORM: LeadFormConfig = {
  enabled: true,
  title: 'Leave your details',
  show_when: 'before_chat',
  after_messages: 3,
  fields: [
    { name: 'name', label: 'Name', type: 'text', required: false },
    { name: 'email', label: 'Email', type: 'email', required: true },
  ],
};

/** Multipart, as the bot's Appearance tab saves it. */
async function updateBot(account: Account, bot: Bot, fields: Record<string, string>) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  const response = await fetch(`${server.url}/api/chat/bots/${bot.bot_id}`, {
    method: 'PUT',
    body: form,
    headers: { authorization: `Bearer ${account.access_token}` },
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

async function botWithForm(account: Account, name: string): Promise<Bot> {
  const bot = await createBot(account, name);
  await updateBot(account, bot, { lead_form_config: JSON.stringify(LEAD_FORM) });
  return bot;
}

let visitorIp = 0;
/** A visitor's answers through the public lead endpoint, as the widget sends them: the lead's id. */
async function leaveLead(bot: Bot, fields: Record<string, string>, extra: Record<string, unknown> = {}) {
  const reply = await server.post<{ id: number }>(
    `/api/auth/bot/uuid/${bot.uuid}/lead`,
    { fields, ...extra },
    { headers: { 'x-forwarded-for': `203.0.113.${++visitorIp}` } },
  );
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.id;
}

const DAY_MS = 86_400_000;
/** Moves a lead back in time (a visitor cannot send one dated in the past). */
const backdate = (leadId: number, ms: number) =>
  server.database.db
    .update(leads)
    .set({ createdAt: new Date(Date.now() - ms) })
    .where(eq(leads.id, leadId));

const leadsOf = async (account: Account) => {
  const summary = await summaryOf(account);
  expect(summary.leads).not.toBeNull();
  return summary.leads!;
};

/** What the leads page (GET /chat/bots/:id/leads) lists of the bot for this person: its lead ids, or the status. */
async function leadPageIds(account: Account, botId: number): Promise<number[] | number> {
  const reply = await server.get<LeadList>(`/api/chat/bots/${botId}/leads`, as(account));
  return reply.status === 200 ? reply.body.items.map((lead) => lead.id) : reply.status;
}

describe('new leads', () => {
  it("counts the last 7 days' leads by day and lists the three newest, whatever their age", async () => {
    const owner = await signupOwner(server);
    const shop = await botWithForm(owner, 'Shop_leads');
    const older = await leaveLead(shop, { name: 'Old Olga', email: 'olga@example.com' });
    await backdate(older, 8 * DAY_MS); // outside the week: listed while newer ones are few, not counted
    const midweek = await leaveLead(shop, { email: 'mid@example.com' });
    await backdate(midweek, 3 * DAY_MS + 3_600_000);
    expect(await leadsOf(owner)).toEqual({
      last_7_days: 1,
      per_day: [0, 0, 0, 1, 0, 0, 0],
      items: [
        expect.objectContaining({ id: midweek, name: null, email: 'mid@example.com' }),
        expect.objectContaining({ id: older, name: 'Old Olga' }),
      ],
      form_enabled: true,
    });

    const ada = await leaveLead(shop, { name: 'Ada Visitor', email: 'ada@example.com' });
    const bea = await leaveLead(shop, { name: 'Bea Visitor', email: 'bea@example.com' });
    const card = await leadsOf(owner);
    expect(card.last_7_days).toBe(3);
    expect(card.per_day).toEqual([0, 0, 0, 1, 0, 0, 2]);
    expect(card.items).toEqual([
      {
        id: bea,
        bot_id: shop.bot_id,
        bot_name: 'Shop_leads',
        name: 'Bea Visitor',
        email: 'bea@example.com',
        created_at: expect.any(String),
      },
      expect.objectContaining({ id: ada, name: 'Ada Visitor' }),
      expect.objectContaining({ id: midweek }),
    ]);
    expect(Date.now() - Date.parse(card.items[0]!.created_at)).toBeLessThan(60_000);
    // The same leads the leads page lists first.
    expect(await leadPageIds(owner, shop.bot_id)).toEqual([bea, ada, midweek, older]);
  });

  it("leaves out leads from the console's test chats, and counts a visitor's linked to their conversation", async () => {
    const owner = await signupOwner(server);
    const bot = await botWithForm(owner, 'Tested_bot');
    // The owner tries the form in the playground: the lead is linked to the test chat.
    const chat = await server.post<ChatExchange>(
      '/api/chat/chats',
      { bot_id: bot.bot_id, message: 'Testing the form' },
      as(owner),
    );
    expect(chat.status).toBe(200);
    const test = await server.post<{ id: number }>(
      `/api/auth/bot/uuid/${bot.uuid}/lead`,
      {
        fields: { name: 'Owner Testing', email: 'me@example.com' },
        conversation_id: chat.body.conversation_id,
      },
      { token: owner.access_token, headers: { 'x-forwarded-for': `203.0.113.${++visitorIp}` } },
    );
    expect(test.status).toBe(201);
    const [stored] = await server.database.db.select().from(leads).where(eq(leads.id, test.body.id));
    expect(stored!.conversationId).toBe(chat.body.conversation_id);
    expect(await leadsOf(owner)).toMatchObject({ last_7_days: 0, items: [] });

    // A visitor of the website, with the identity the widget holds and their own conversation.
    const visitor = await visitorOf(bot);
    const socket = await visitorAsks(bot, 'I would like a quote', visitor);
    const conversationOfVisitor = () =>
      server.database.db
        .select({ id: conversations.id, isTest: conversations.isTest })
        .from(conversations)
        .where(eq(conversations.visitorId, visitor.visitor_id));
    try {
      await expect.poll(async () => (await conversationOfVisitor()).length, { timeout: 10_000 }).toBe(1);
    } finally {
      socket.close();
    }
    const [conversation] = await conversationOfVisitor();
    expect(conversation!.isTest).toBe(false);
    const visitorLead = await leaveLead(
      bot,
      { name: 'Real Visitor', email: 'real@example.com' },
      { conversation_id: conversation!.id, visitor_token: visitor.visitor_token },
    );
    const [linked] = await server.database.db.select().from(leads).where(eq(leads.id, visitorLead));
    expect(linked!.conversationId).toBe(conversation!.id);
    const card = await leadsOf(owner);
    expect(card.last_7_days).toBe(1);
    expect(card.items.map((item) => item.id)).toEqual([visitorLead]);
  });

  it('is null for someone who may not read Leads, and shown to a role that may (without managing bots)', async () => {
    const owner = await signupOwner(server);
    const bot = await botWithForm(owner, 'Perm_bot');
    const lead = await leaveLead(bot, { name: 'Pat Lead', email: 'pat@example.com' });
    const member = await addTeammate(server, owner, await memberRole(owner), readToken);
    expect((await summaryOf(member)).leads).toBeNull();
    expect((await server.get(`/api/chat/bots/${bot.bot_id}/leads`, as(member))).status).toBe(403);

    const role = await createRole(server, owner, { Leads: { read: true } });
    const reader = await addTeammate(server, owner, role, readToken);
    expect(await leadsOf(reader)).toMatchObject({
      last_7_days: 1,
      items: [{ id: lead, bot_name: 'Perm_bot' }],
      form_enabled: true,
    });
  });

  it('shows a teammate restricted to some bots the leads of the bots they work with, each one the leads page opens', async () => {
    const owner = await signupOwner(server);
    const theirs = await botWithForm(owner, 'Assigned_bot');
    const other = await botWithForm(owner, 'Other_bot');
    const viaRole = await botWithForm(owner, 'Role_bot');
    const role = await createRole(server, owner, { Leads: { read: true }, Inbox: { read: true } });
    // The teammate's role is on Role_bot: they work with it, as their bots list and the inbox say.
    await updateBot(owner, viaRole, { role_ids: JSON.stringify([role.id]) });
    const mine = await leaveLead(theirs, { name: 'Mine', email: 'mine@example.com' });
    await leaveLead(other, { name: 'Not mine', email: 'other@example.com' });
    const byRole = await leaveLead(viaRole, { name: 'Role lead', email: 'role@example.com' });
    const agent = await addTeammate(server, owner, role, readToken);
    expect((await leadsOf(agent)).last_7_days).toBe(3);

    const put = await server.put(
      `/api/auth/bots-assigned/${agent.user.id}`,
      { bot_ids: [theirs.bot_id], all_bots: false },
      as(owner),
    );
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const card = await leadsOf(agent);
    expect(card.last_7_days).toBe(2);
    expect(card.per_day).toEqual([0, 0, 0, 0, 0, 0, 2]);
    expect(card.items.map((item) => item.id).sort()).toEqual([mine, byRole].sort());
    // Each lead Home shows opens on the leads page; the bot it leaves out answers 404 there.
    expect(await leadPageIds(agent, theirs.bot_id)).toEqual([mine]);
    expect(await leadPageIds(agent, viaRole.bot_id)).toEqual([byRole]);
    expect(await leadPageIds(agent, other.bot_id)).toBe(404);
    // The owner still sees all three.
    expect((await leadsOf(owner)).last_7_days).toBe(3);
  });

  it("says whether a lead form is on among the reader's bots", async () => {
    const owner = await signupOwner(server);
    const bot = await createBot(owner, 'Formless');
    expect(await leadsOf(owner)).toMatchObject({ last_7_days: 0, items: [], form_enabled: false });
    await updateBot(owner, bot, { lead_form_config: JSON.stringify({ ...LEAD_FORM, enabled: false }) });
    expect((await leadsOf(owner)).form_enabled).toBe(false);
    await updateBot(owner, bot, { lead_form_config: JSON.stringify(LEAD_FORM) });
    expect((await leadsOf(owner)).form_enabled).toBe(true);
  });

  it("never shows another workspace's leads, nor counts them", async () => {
    const mine = await signupOwner(server);
    await botWithForm(mine, 'My_quiet_bot');
    const theirs = await signupOwner(server);
    const theirBot = await botWithForm(theirs, 'Their_busy_bot');
    const lead = await leaveLead(theirBot, { name: 'Their Customer', email: 'theirs@example.com' });
    expect(await leadsOf(mine)).toEqual({
      last_7_days: 0,
      per_day: [0, 0, 0, 0, 0, 0, 0],
      items: [],
      form_enabled: true,
    });
    expect((await leadsOf(theirs)).items.map((item) => item.id)).toEqual([lead]);
  });
});
