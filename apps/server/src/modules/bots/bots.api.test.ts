import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BOT, type Bot, MESSAGES, type PublicBot, type QnA, WIDGET_TEXTS_ENGLISH } from '@parley/contracts';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  botFileGroups,
  botNotionWorkspaces,
  bots,
  botWebSources,
  calendarBookings,
  conversations,
  documents,
  fileGroups,
  notionWorkspaces,
  socialAccounts,
  webSources,
} from '../../core/db/schema.js';
import { addTeammate, createRole, signupOwner, tokenFromText } from '../../test/factories.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';

let server: TestServer;
let owner: Account;
let other: Account;
const as = (account: Account) => ({ token: account.access_token });

/** A 1×1 PNG: real image bytes, so the type is judged from content. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

type Reply<T> = { status: number; body: T };

async function send<T = Bot>(
  method: 'POST' | 'PUT',
  urlPath: string,
  account: Account,
  fields: Record<string, unknown>,
  image?: { bytes: Uint8Array; name: string },
): Promise<Reply<T>> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    form.append(key, typeof value === 'string' ? value : JSON.stringify(value));
  }
  if (image) form.append('profile_image', new Blob([image.bytes as BlobPart]), image.name);
  const response = await fetch(`${server.url}/api${urlPath}`, {
    method,
    body: form,
    headers: { authorization: `Bearer ${account.access_token}` },
  });
  return { status: response.status, body: (await response.json()) as T };
}

const create = (
  account: Account,
  fields: Record<string, unknown>,
  image?: { bytes: Uint8Array; name: string },
) => send('POST', '/chat/bots', account, fields, image);
const uniqueName = () => `Bot ${Math.random().toString(36).slice(2, 8)}`;
const imageDir = () => path.join(dataDir, 'bot-images');
let dataDir: string;
const storedImages = () => (existsSync(imageDir()) ? readdirSync(imageDir()) : []);
const botCount = async (account: Account) =>
  (await server.get<Bot[]>(`/api/chat/bots/user/${account.user.id}`, as(account))).body.length;

beforeAll(async () => {
  dataDir = path.join(tmpdir(), `parley-bots-${process.pid}-${Date.now()}`);
  server = await startTestServer({ env: { DATA_DIR: dataDir } });
  owner = await signupOwner(server);
  other = await signupOwner(server);
});
afterAll(() => server.close());

describe('creating a bot', () => {
  it('stores every field, its sources and a profile image judged from its bytes', async () => {
    const created = await create(
      owner,
      {
        bot_name: uniqueName(),
        description: 'Answers shipping questions',
        temperature: '0.4',
        prompt: 'Be brief.',
        internet: 'true',
        brand_color: '#1a2b3c',
        suggestion_questions: ['Do you ship abroad?'],
        lead_form_config: { enabled: true, title: 'Stay in touch', fields: [] },
      },
      { bytes: PNG, name: 'logo.png' },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const bot = created.body;
    expect(bot).toMatchObject({
      description: 'Answers shipping questions',
      temperature: 0.4,
      prompt: 'Be brief.',
      internet: true,
      analytics: false,
      is_public: false,
      brand_color: '#1a2b3c',
      // No greeting sent: a sentence naming the business (the workspace's name, chosen at sign-up).
      welcome_message: expect.stringMatching(/^Welcome to Acme [0-9a-f]{8}! How can I help you today\?$/),
      suggestion_questions: ['Do you ship abroad?'],
      lead_form_config: { enabled: true, title: 'Stay in touch', fields: [] },
      user_id: owner.user.id,
      file_groups: [],
      llm_model: null,
    });
    expect(bot.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(bot.profile_image).toMatch(/^\/api\/chat\/bots\/images\/[0-9a-f]{32}\.png$/);

    const image = await fetch(`${server.url}${bot.profile_image}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);

    const fetched = await server.get<Bot>(`/api/chat/bots/${bot.bot_id}`, as(owner));
    expect(fetched.body).toEqual(bot);
  });

  it('applies the playground defaults: a visible brand colour and a greeting that names the business', async () => {
    const created = await create(owner, { bot_name: uniqueName() });
    expect(created.body).toMatchObject({
      temperature: 1,
      brand_color: BOT.defaultBrandColor,
      profile_image: null,
    });
    // Not white: a white launcher disappears on a white page.
    expect(BOT.defaultBrandColor).not.toBe('#ffffff');
    expect(created.body.welcome_message).toMatch(/^Welcome to Acme [0-9a-f]{8}! How can I help you today\?$/);
  });

  it('names the bot in its greeting when the workspace has the automatic name, and keeps a greeting sent', async () => {
    // The name a sign-up without a company name gets ("Ada's workspace") names no business.
    const unnamed = await signupOwner(server, { company_name: "Ada's workspace" });
    const bot = await create(unnamed, { bot_name: 'Blue_Fern Bakery' });
    expect(bot.status, JSON.stringify(bot.body)).toBe(201);
    expect(bot.body.welcome_message).toBe('Welcome to Blue Fern Bakery! How can I help you today?');
    const own = await create(owner, { bot_name: uniqueName(), welcome_message: 'Hello there!' });
    expect(own.body.welcome_message).toBe('Hello there!');
    // An update without a greeting leaves it as it is.
    const updated = await send('PUT', `/chat/bots/${own.body.bot_id}`, owner, { description: 'Changed' });
    expect(updated.body.welcome_message).toBe('Hello there!');
  });

  it('refuses bad input with the spec texts and writes nothing', async () => {
    const before = await botCount(owner);
    const images = storedImages().length;
    for (const [fields, detail] of [
      [{}, MESSAGES.bots.nameRequired],
      [{ bot_name: '   ' }, MESSAGES.bots.nameRequired],
      [{ bot_name: 'bad-name!' }, MESSAGES.bots.nameChars],
      [{ bot_name: 'x'.repeat(51) }, 'Bot name must be at most 50 characters'],
      [{ bot_name: 'Fine', temperature: 'warm' }, 'Temperature must be a number'],
      [{ bot_name: 'Fine', temperature: '3' }, 'Temperature must be between 0 and 2'],
      [{ bot_name: 'Fine', brand_color: 'red' }, 'Brand colour must be a colour like #1a2b3c'],
      [
        { bot_name: 'Fine', suggestion_questions: '[not json' },
        'suggestion_questions: Invalid input: expected array, received string',
      ],
      [
        { bot_name: 'Fine', llm_model: '12345' },
        'llm_model: choose one of your active models in LLM settings',
      ],
    ] as const) {
      const reply = await create(owner, fields);
      expect([reply.status, reply.body], JSON.stringify(fields)).toEqual([400, { detail }]);
    }
    const text = await create(
      owner,
      { bot_name: uniqueName() },
      { bytes: Buffer.from('<svg onload=alert(1)>'), name: 'x.png' },
    );
    expect(text.status).toBe(415);
    const huge = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
    const tooLarge = await create(owner, { bot_name: uniqueName() }, { bytes: huge, name: 'big.png' });
    expect([tooLarge.status, tooLarge.body]).toEqual([
      413,
      { detail: 'The profile image must be at most 2 MB' },
    ]);
    const json = await server.post('/api/chat/bots', { bot_name: 'Json' }, as(owner));
    expect([json.status, json.body]).toEqual([
      400,
      { detail: 'The bot must be sent as multipart/form-data' },
    ]);

    expect(await botCount(owner)).toBe(before);
    expect(storedImages().length).toBe(images);
  });

  it('refuses a name the workspace already uses, in any case', async () => {
    const name = uniqueName();
    expect((await create(owner, { bot_name: name })).status).toBe(201);
    const again = await create(owner, { bot_name: name.toUpperCase() });
    expect([again.status, again.body]).toEqual([409, { detail: 'A bot with this name already exists' }]);
    // Another workspace may use it.
    expect((await create(other, { bot_name: name })).status).toBe(201);
  });

  it("never links another workspace's sources or roles", async () => {
    const foreignRole = await createRole(server, other, {});
    const reply = await create(owner, { bot_name: uniqueName(), role_ids: [foreignRole.id] });
    expect([reply.status, reply.body]).toEqual([404, { detail: 'Role not found' }]);
    const group = await create(owner, { bot_name: uniqueName(), file_group_ids: [99_999_999] });
    expect([group.status, group.body]).toEqual([404, { detail: 'File group not found' }]);
  });
});

describe('updating a bot', () => {
  it('changes only the fields sent, replaces lists and the image', async () => {
    const role = await createRole(server, owner, {});
    const created = (
      await create(owner, { bot_name: uniqueName(), prompt: 'Keep me' }, { bytes: PNG, name: 'a.png' })
    ).body;
    const oldImage = path.basename(created.profile_image!);
    const updated = await send(
      'PUT',
      `/chat/bots/${created.bot_id}`,
      owner,
      {
        description: 'New description',
        role_ids: [role.id],
      },
      { bytes: PNG, name: 'b.png' },
    );
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject({
      bot_name: created.bot_name,
      prompt: 'Keep me',
      description: 'New description',
      roles: [{ id: role.id, name: role.name }],
    });
    expect(updated.body.profile_image).not.toBe(created.profile_image);
    expect(storedImages()).not.toContain(oldImage);

    const cleared = await send('PUT', `/chat/bots/${created.bot_id}`, owner, {
      role_ids: [],
      description: '',
    });
    expect(cleared.body).toMatchObject({ roles: [], description: null, prompt: 'Keep me' });

    const bad = await send('PUT', `/chat/bots/${created.bot_id}`, owner, { bot_name: 'no-dashes' });
    expect([bad.status, bad.body]).toEqual([400, { detail: MESSAGES.bots.nameChars }]);
  });
});

describe('who sees which bots', () => {
  it('an owner sees every bot; a member sees theirs, their roles’ and those assigned to them', async () => {
    const role = await createRole(server, owner, { 'Create Bot': { create: true, read: true, write: true } });
    const member = await addTeammate(server, owner, role, (email) =>
      outboxText(server.database, email).then(tokenFromText),
    );
    const byRole = (await create(owner, { bot_name: uniqueName(), role_ids: [role.id] })).body;
    const assigned = (await create(owner, { bot_name: uniqueName() })).body;
    const hidden = (await create(owner, { bot_name: uniqueName() })).body;
    const own = (await create(member, { bot_name: uniqueName() })).body;

    const put = await server.put<Bot[]>(
      `/api/auth/bots-assigned/${member.user.id}`,
      { bot_ids: [assigned.bot_id] },
      as(owner),
    );
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.map((b) => b.bot_id)).toEqual([assigned.bot_id]);

    const mine = await server.get<Bot[]>(`/api/chat/bots/user/${member.user.id}`, as(member));
    expect(mine.body.map((b) => b.bot_id).sort()).toEqual(
      [byRole.bot_id, assigned.bot_id, own.bot_id].sort(),
    );
    const all = await server.get<Bot[]>(`/api/chat/bots/user/${owner.user.id}`, as(owner));
    expect(all.body.map((b) => b.bot_id)).toEqual(
      expect.arrayContaining([byRole.bot_id, hidden.bot_id, own.bot_id]),
    );

    const ofRole = await server.post<Bot[]>('/api/chat/bots/role', { role_id: role.id }, as(owner));
    expect(ofRole.body.map((b) => b.bot_id)).toEqual([byRole.bot_id]);

    const assignedToMe = await server.get<Bot[]>(
      `/api/auth/bots-assigned/${member.user.id}/tenant/${member.user.tenant_id}`,
      as(member),
    );
    expect(assignedToMe.body.map((b) => b.bot_id)).toEqual([assigned.bot_id]);
    // Someone else's assignments need read on Roles, which this member lacks.
    const theirs = await server.get(
      `/api/auth/bots-assigned/${owner.user.id}/tenant/${owner.user.tenant_id}`,
      as(member),
    );
    expect(theirs.status).toBe(403);
    // Assigning needs Roles write.
    expect(
      (await server.put(`/api/auth/bots-assigned/${member.user.id}`, { bot_ids: [] }, as(member))).status,
    ).toBe(403);
  });
});

describe('the bots list', () => {
  it('lists every bot newest first with its links, each as GET /chat/bots/:id maps it', async () => {
    const team = await signupOwner(server);
    const role = await createRole(server, team, {});
    const db = server.database.db;
    const tenantId = team.user.tenant_id;
    const plain = (await create(team, { bot_name: uniqueName() })).body;
    const linked = (
      await create(
        team,
        {
          bot_name: uniqueName(),
          temperature: '0.7',
          role_ids: [role.id],
          suggestion_questions: ['Open on Sundays?'],
          allowed_origins: ['https://shop.example'],
          lead_form_config: {
            enabled: true,
            title: 'Stay in touch',
            fields: [{ name: 'email', label: 'Email', type: 'email', required: true }],
            show_when: 'after_messages',
            after_messages: 2,
          },
        },
        { bytes: PNG, name: 'logo.png' },
      )
    ).body;
    const legacy = (await create(team, { bot_name: uniqueName() })).body;
    const broken = (await create(team, { bot_name: uniqueName() })).body;
    // Sources linked in the database: two of each kind, listed by id.
    const groups = await db
      .insert(fileGroups)
      .values([
        { tenantId, groupName: 'Manuals' },
        { tenantId, groupName: 'Price lists' },
      ])
      .returning();
    const sites = await db
      .insert(webSources)
      .values([
        { tenantId, baseUrl: `https://a-${tenantId}.example`, name: 'Shop', description: 'The shop' },
        { tenantId, baseUrl: `https://b-${tenantId}.example`, name: 'Blog' },
      ])
      .returning();
    const spaces = await db
      .insert(notionWorkspaces)
      .values([{ tenantId, workspaceId: `ws-${tenantId}`, workspaceName: 'Wiki', accessTokenSealed: 'x' }])
      .returning();
    const botId = linked.bot_id;
    await db
      .insert(botFileGroups)
      .values([...groups].reverse().map((g) => ({ tenantId, botId, fileGroupId: g.id })));
    await db.insert(botWebSources).values(sites.map((w) => ({ tenantId, botId, webSourceId: w.id })));
    await db.insert(botNotionWorkspaces).values({ tenantId, botId, notionWorkspaceId: spaces[0]!.id });
    const account = (channel: 'instagram' | 'messenger', username: string | null) => ({
      tenantId,
      channel,
      botId,
      username,
      externalId: `${channel}-${tenantId}-${username}`,
      pageId: `page-${tenantId}`,
      pageName: 'Page',
      accessToken: 'sealed',
    });
    await db
      .insert(socialAccounts)
      .values([account('instagram', 'shop'), account('instagram', null), account('messenger', 'page')]);
    // A form saved before title, show_when and after_messages existed gets their defaults and loses
    // fields the contract does not show; one of the wrong shape is read as no form.
    await db
      .update(bots)
      .set({
        leadFormConfig: {
          enabled: true,
          fields: [{ name: 'name', label: 'Name', type: 'text', required: false, hint: 'old' }],
          colour: 'red',
        },
        welcomeMessage: null,
      })
      .where(eq(bots.id, legacy.bot_id));
    await db
      .update(bots)
      .set({ leadFormConfig: { enabled: 'yes', fields: [] } })
      .where(eq(bots.id, broken.bot_id));
    // Newest first, then the higher id: plain and legacy share a time, linked is the oldest.
    // Microseconds as PostgreSQL keeps them: the reply shows milliseconds, as Date.toISOString does.
    const at = (minute: number) => sql`${`2026-01-05T10:0${minute}:00.123789Z`}::timestamptz`;
    await db
      .update(bots)
      .set({ createdAt: at(1) })
      .where(eq(bots.id, linked.bot_id));
    await db
      .update(bots)
      .set({ createdAt: at(5) })
      .where(inArray(bots.id, [plain.bot_id, legacy.bot_id]));
    await db
      .update(bots)
      .set({ createdAt: at(3) })
      .where(eq(bots.id, broken.bot_id));

    const list = await server.get<Bot[]>(`/api/chat/bots/user/${team.user.id}`, as(team));
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    const order = [legacy, plain, broken, linked].map((bot) => bot.bot_id);
    expect(list.body.map((bot) => bot.bot_id)).toEqual(order);
    const one = async (id: number) => (await server.get<Bot>(`/api/chat/bots/${id}`, as(team))).body;
    expect(list.body).toEqual(await Promise.all(order.map(one)));

    const [newest, , wrong, oldest] = list.body;
    expect(oldest).toMatchObject({
      temperature: 0.7,
      file_group_ids: groups.map((g) => g.id).sort((a, b) => a - b),
      web_source_ids: sites.map((w) => w.id),
      notion_workspace_ids: [spaces[0]!.id],
      web_sources: [
        { source_id: sites[0]!.id, base_url: sites[0]!.baseUrl, name: 'Shop', description: 'The shop' },
        { source_id: sites[1]!.id, base_url: sites[1]!.baseUrl, name: 'Blog', description: null },
      ],
      roles: [{ id: role.id, name: role.name }],
      instagram_accounts: [
        { id: expect.any(Number), username: 'shop' },
        { id: expect.any(Number), username: '' },
      ],
      lead_form_config: linked.lead_form_config,
      profile_image: linked.profile_image,
    });
    expect(oldest!.file_groups.map((g) => g.name)).toEqual(['Manuals', 'Price lists']);
    expect(newest).toMatchObject({
      welcome_message: '',
      file_groups: [],
      roles: [],
      instagram_accounts: [],
      created_at: '2026-01-05T10:05:00.123Z',
      lead_form_config: {
        enabled: true,
        title: 'Leave your details',
        fields: [{ name: 'name', label: 'Name', type: 'text', required: false }],
        show_when: 'no_answer',
        after_messages: 3,
      },
    });
    expect(wrong!.lead_form_config).toBeNull();

    // Another workspace lists its own bots only, and cannot list this one's.
    const stranger = await signupOwner(server);
    expect((await server.get<Bot[]>(`/api/chat/bots/user/${stranger.user.id}`, as(stranger))).body).toEqual(
      [],
    );
    const theirs = (await create(stranger, { bot_name: uniqueName() })).body;
    const strangers = await server.get<Bot[]>(`/api/chat/bots/user/${stranger.user.id}`, as(stranger));
    expect(strangers.body.map((bot) => bot.bot_id)).toEqual([theirs.bot_id]);
    expect((await server.get(`/api/chat/bots/user/${team.user.id}`, as(stranger))).status).toBe(404);
    expect((await server.get(`/api/chat/bots/user/${stranger.user.id}`, as(team))).status).toBe(404);
  });

  it('lists a restricted teammate their bots in the same order', async () => {
    const team = await signupOwner(server);
    const role = await createRole(server, team, { 'Create Bot': { read: true } });
    const member = await addTeammate(server, team, role, (email) =>
      outboxText(server.database, email).then(tokenFromText),
    );
    const byRole = (await create(team, { bot_name: uniqueName(), role_ids: [role.id] })).body;
    const assigned = (await create(team, { bot_name: uniqueName() })).body;
    await create(team, { bot_name: uniqueName() });
    const everyone = await server.get<Bot[]>(`/api/chat/bots/user/${member.user.id}`, as(member));
    expect(everyone.body).toHaveLength(3);
    const put = await server.put(
      `/api/auth/bots-assigned/${member.user.id}`,
      { bot_ids: [assigned.bot_id] },
      as(team),
    );
    expect(put.status).toBe(200);
    const mine = await server.get<Bot[]>(`/api/chat/bots/user/${member.user.id}`, as(member));
    expect(mine.body).toEqual(
      everyone.body.filter((bot) => [byRole.bot_id, assigned.bot_id].includes(bot.bot_id)),
    );
    // The owner still sees all of them.
    const all = await server.get<Bot[]>(`/api/chat/bots/user/${team.user.id}`, as(team));
    expect(all.body.map((bot) => bot.bot_id)).toEqual(everyone.body.map((bot) => bot.bot_id));
  });
});

describe('deleting a bot', () => {
  it('is refused while users are assigned or conversations exist, with the spec text', async () => {
    const bot = (await create(owner, { bot_name: uniqueName() })).body;
    await server.put(`/api/auth/bots-assigned/${owner.user.id}`, { bot_ids: [bot.bot_id] }, as(owner));
    const refused = await server.delete(`/api/chat/bots/${bot.bot_id}`, as(owner));
    expect([refused.status, refused.body]).toEqual([
      409,
      { detail: MESSAGES.bots.deleteBlocked, conversations: 0, assigned_users: 1 },
    ]);
    await server.put(`/api/auth/bots-assigned/${owner.user.id}`, { bot_ids: [] }, as(owner));

    const [conversation] = await server.database.db
      .insert(conversations)
      .values({ tenantId: owner.user.tenant_id, botId: bot.bot_id })
      .returning();
    const stillRefused = await server.delete(`/api/chat/bots/${bot.bot_id}`, as(owner));
    expect([stillRefused.status, stillRefused.body]).toEqual([
      409,
      { detail: MESSAGES.bots.deleteBlocked, conversations: 1, assigned_users: 0 },
    ]);
    await server.database.db.delete(conversations).where(eq(conversations.id, conversation!.id));
  });

  it('removes the bot, its Q&A index and its image', async () => {
    const bot = (await create(owner, { bot_name: uniqueName() }, { bytes: PNG, name: 'a.png' })).body;
    const pair = await server.post<QnA>(
      '/api/qna/',
      { bot_id: bot.bot_id, question: 'Q?', answer: 'A.' },
      as(owner),
    );
    expect(pair.status).toBe(201);
    const task = await server.post<{ task_id: string }>(
      `/api/training/train/qna/${bot.bot_id}`,
      undefined,
      as(owner),
    );
    await expect
      .poll(
        async () =>
          (
            await server.get<{ status: string }>(
              `/api/training/train/progress/${task.body.task_id}`,
              as(owner),
            )
          ).body.status,
        { timeout: 15_000 },
      )
      .toBe('completed');
    const indexed = await server.database.db
      .select()
      .from(documents)
      .where(eq(documents.collectionId, bot.bot_id));
    expect(indexed.filter((d) => d.sourceType === 'qna')).toHaveLength(1);
    const deleted = await server.delete(`/api/chat/bots/${bot.bot_id}`, as(owner));
    expect([deleted.status, deleted.body]).toEqual([200, { message: MESSAGES.bots.deleted }]);
    expect((await server.get(`/api/chat/bots/${bot.bot_id}`, as(owner))).status).toBe(404);
    expect(storedImages()).not.toContain(path.basename(bot.profile_image!));
    const left = await server.database.db
      .select()
      .from(documents)
      .where(eq(documents.collectionId, bot.bot_id));
    expect(left.filter((d) => d.sourceType === 'qna')).toEqual([]);
  });
});

describe('public bots', () => {
  it('show visitors what the widget needs and nothing else', async () => {
    const listed = (
      await create(
        owner,
        { bot_name: uniqueName(), is_public: 'true', prompt: 'SECRET PROMPT' },
        { bytes: PNG, name: 'a.png' },
      )
    ).body;
    const unlisted = (await create(owner, { bot_name: uniqueName(), prompt: 'SECRET PROMPT' })).body;
    await server.database.db.insert(calendarBookings).values({
      botId: listed.bot_id,
      tenantId: owner.user.tenant_id,
      title: 'Book a demo',
      message: 'Pick a time',
      url: 'https://cal.com/acme',
      provider: 'cal',
    });

    const list = await server.get<PublicBot[]>('/api/auth/public-bots');
    expect(list.status).toBe(200);
    expect(list.body.map((b) => b.bot_id)).toContain(listed.bot_id);
    expect(list.body.map((b) => b.bot_id)).not.toContain(unlisted.bot_id);

    const byId = await server.get<PublicBot>(`/api/auth/bot/${listed.bot_id}`);
    expect(byId.body).toEqual({
      bot_id: listed.bot_id,
      uuid: listed.uuid,
      bot_name: listed.bot_name,
      description: null,
      profile_image: listed.profile_image,
      brand_color: BOT.defaultBrandColor,
      welcome_message: listed.welcome_message,
      suggestion_questions: [],
      lead_form_config: null,
      human_button: 'after_miss',
      // No sources yet: the widget speaks English.
      language: 'english',
      texts: WIDGET_TEXTS_ENGLISH,
      booking: { title: 'Book a demo', message: 'Pick a time', url: 'https://cal.com/acme', provider: 'cal' },
      // Plans limit nothing in this suite (PLAN_LIMITS off): every feature, custom branding included.
      show_branding: false,
    });
    expect(JSON.stringify(byId.body)).not.toContain('SECRET');

    // An unlisted bot is reachable by its uuid (its widget) but not by a guessable id.
    expect((await server.get(`/api/auth/bot/${unlisted.bot_id}`)).status).toBe(404);
    const byUuid = await server.get<PublicBot>(`/api/auth/bot/uuid/${unlisted.uuid}`);
    expect(byUuid.status).toBe(200);
    expect(JSON.stringify(byUuid.body)).not.toMatch(/SECRET|tenant/);
    expect((await server.get('/api/auth/bot/uuid/not-a-uuid')).status).toBe(400);
    expect((await server.get('/api/auth/bot/uuid/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await server.get('/api/chat/bots/images/..%2F..%2Fetc%2Fpasswd')).status).toBe(400);
  });
});

describe('allowed sites', () => {
  const visitorFrom = async (uuid: string, origin: string) =>
    (await server.post('/api/chat/visitor', { bot_uuid: uuid }, { headers: { origin } })).status;

  it('keeps origins as browsers send them and matches www, subdomain wildcards, scheme and port', async () => {
    const bot = (
      await create(owner, {
        bot_name: uniqueName(),
        allowed_origins: [
          ' https://Shop.example:443/ ',
          'https://shop.example',
          'https://*.Brand.example',
          'http://localhost:3000',
        ],
      })
    ).body;
    expect(bot.allowed_origins).toEqual([
      'https://shop.example',
      'https://*.brand.example',
      'http://localhost:3000',
    ]);
    const verdicts = async (origins: string[]) =>
      Promise.all(origins.map(async (origin) => [origin, await visitorFrom(bot.uuid, origin)]));
    expect(
      await verdicts([
        'https://shop.example',
        'https://www.shop.example',
        'https://eu.brand.example',
        'https://a.b.brand.example',
        'http://localhost:3000',
      ]),
    ).toEqual([
      ['https://shop.example', 200],
      ['https://www.shop.example', 200],
      ['https://eu.brand.example', 200],
      ['https://a.b.brand.example', 200],
      ['http://localhost:3000', 200],
    ]);
    expect(
      await verdicts([
        'http://shop.example',
        'https://shop.example:8443',
        'https://shop.example.evil.example',
        'https://evilshop.example',
        'https://brand.example',
        'https://evilbrand.example',
        'http://localhost:3001',
        'null',
      ]),
    ).toEqual([
      ['http://shop.example', 403],
      ['https://shop.example:8443', 403],
      ['https://shop.example.evil.example', 403],
      ['https://evilshop.example', 403],
      ['https://brand.example', 403],
      ['https://evilbrand.example', 403],
      ['http://localhost:3001', 403],
      ['null', 403],
    ]);
  });

  it('refuses what is not an origin, and a change applies to the very next visitor', async () => {
    for (const origin of [
      'shop.example',
      'https://shop.example/shop',
      'https://user@shop.example',
      'https://*',
      'ftp://shop.example',
      'https://shop.example:99999',
    ]) {
      const refused = await create(owner, { bot_name: uniqueName(), allowed_origins: [origin] });
      expect([origin, refused.status, (refused.body as unknown as { detail: string }).detail]).toEqual([
        origin,
        400,
        'An allowed origin looks like https://shop.example (no path)',
      ]);
    }
    const bot = (await create(owner, { bot_name: uniqueName(), allowed_origins: ['https://shop.example'] }))
      .body;
    expect(await visitorFrom(bot.uuid, 'https://other.example')).toBe(403);
    await send('PUT', `/chat/bots/${bot.bot_id}`, owner, { allowed_origins: ['https://other.example'] });
    expect(await visitorFrom(bot.uuid, 'https://other.example')).toBe(200);
    expect(await visitorFrom(bot.uuid, 'https://shop.example')).toBe(403);
    await send('PUT', `/chat/bots/${bot.bot_id}`, owner, { allowed_origins: [] });
    expect(await visitorFrom(bot.uuid, 'https://shop.example')).toBe(200);
  });
});

describe("another workspace's bots and permissions", () => {
  it('answer 404 to another workspace and 403 without the Create Bot grant', async () => {
    const bot = (await create(owner, { bot_name: uniqueName() })).body;
    expect((await server.get(`/api/chat/bots/${bot.bot_id}`, as(other))).status).toBe(404);
    expect((await send('PUT', `/chat/bots/${bot.bot_id}`, other, { description: 'x' })).status).toBe(404);
    expect((await server.delete(`/api/chat/bots/${bot.bot_id}`, as(other))).status).toBe(404);
    expect((await server.get(`/api/chat/bots/user/${owner.user.id}`, as(other))).status).toBe(404);
    expect(
      (await server.put(`/api/auth/bots-assigned/${other.user.id}`, { bot_ids: [bot.bot_id] }, as(other)))
        .status,
    ).toBe(404);
    expect(
      (await server.put(`/api/auth/bots-assigned/${owner.user.id}`, { bot_ids: [] }, as(other))).status,
    ).toBe(404);
    expect(
      (await server.get(`/api/auth/bots-assigned/${owner.user.id}/tenant/${owner.user.tenant_id}`, as(other)))
        .status,
    ).toBe(404);
    const ownerRole = await createRole(server, owner, {});
    expect((await server.post('/api/chat/bots/role', { role_id: ownerRole.id }, as(other))).status).toBe(404);
    expect((await server.get<Bot>(`/api/chat/bots/${bot.bot_id}`, as(owner))).body.description).toBeNull();

    const noBots = await createRole(server, owner, { Inbox: { read: true } });
    const member = await addTeammate(server, owner, noBots, (email) =>
      outboxText(server.database, email).then(tokenFromText),
    );
    expect((await server.get(`/api/chat/bots/${bot.bot_id}`, as(member))).status).toBe(403);
    expect((await create(member, { bot_name: uniqueName() })).status).toBe(403);
    expect((await server.delete(`/api/chat/bots/${bot.bot_id}`, as(member))).status).toBe(403);
  });
});
