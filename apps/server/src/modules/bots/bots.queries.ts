import {
  type Bot,
  LEAD_FORM_TRIGGERS,
  LeadFormConfig,
  LeadFormField,
  type PublicBot,
  WIDGET_TEXTS,
  welcomeIn,
} from '@parley/contracts';
import {
  type AnyColumn,
  and,
  count,
  eq,
  getTableName,
  inArray,
  or,
  type Placeholder,
  type SQL,
  sql,
} from 'drizzle-orm';
import { type DbOrTx, queryPrepared } from '../../core/db/database.js';
import { isoTime, jsonPickEach } from '../../core/db/json-sql.js';
import { roles, userRoles } from '../../core/db/schema.js';
import { notFound } from '../../core/errors.js';
import { conversations } from '../chat/chat.schema.js';
import { webSources } from '../crawler/crawler.schema.js';
import { fileGroups } from '../files/files.schema.js';
import { notionWorkspaces } from '../notion/notion.schema.js';
import { socialAccounts } from '../social/social.schema.js';
import { IMAGE_URL_PREFIX } from './bots.images.js';
import {
  botFileGroups,
  botNotionWorkspaces,
  botRoles,
  bots,
  botUsers,
  botWebSources,
  calendarBookings,
  offeredBooking,
} from './bots.schema.js';
import { sourceLanguageCountsOf, widgetLanguageOf } from './visitor-language.js';

export type BotRow = typeof bots.$inferSelect;

/** The tenant's bot, or a 404 (another tenant's bot looks exactly like one that does not exist). */
export async function requireBot(db: DbOrTx, tenantId: number, botId: number) {
  const [bot] = await db
    .select()
    .from(bots)
    .where(and(eq(bots.id, botId), eq(bots.tenantId, tenantId)));
  if (!bot) throw notFound('Bot not found');
  return bot;
}

/**
 * The tenant's bot as one teammate works with it: a teammate the owner restricted to some bots
 * (all_bots false) gets a 404 for any bot outside botsOfRestricted (theirs, assigned to them, or
 * carrying one of their roles: the bots their list shows), like for a bot that does not exist.
 * Owners see all.
 */
export async function requireWorkingBot(db: DbOrTx, auth: BotWorker, botId: number) {
  const bot = await requireBot(db, auth.tenantId, botId);
  if (
    restrictedToSomeBots(auth) &&
    (await db.$count(bots, and(eq(bots.id, botId), botsOfRestricted(auth.userId)))) === 0
  )
    throw notFound('Bot not found');
  return bot;
}

/** Who works with bots: enough of AuthContext to know which ones (the inbox's reader too). */
export type BotWorker = {
  tenantId: number;
  userId: number;
  user: { all_bots?: boolean; roles: Array<{ is_owner: boolean }> };
};

/** A teammate the owner restricted to some bots (owners always see every bot). */
export const restrictedToSomeBots = (auth: BotWorker) =>
  auth.user.all_bots === false && !auth.user.roles.some((role) => role.is_owner);

/** The bots a restricted teammate works with (botsOfRestricted), as a subquery of bot ids. */
export const workedBots = (tenantId: number, userId: number): SQL =>
  sql`(select ${bots.id} from ${bots} where ${bots.tenantId} = ${tenantId} and ${botsOfRestricted(userId)})`;

/**
 * For rows that each belong to one bot (`botColumn`), the condition that keeps those of bots the
 * teammate works with by requireWorkingBot's rule; undefined (no condition) when they see every bot.
 * The caller still filters by tenant.
 */
export function ofWorkingBots(auth: BotWorker, botColumn: SQL | AnyColumn): SQL | undefined {
  if (!restrictedToSomeBots(auth)) return undefined;
  return sql`${botColumn} in ${workedBots(auth.tenantId, auth.userId)}`;
}

/** The names of the tenant's bots among `ids` (for lists that show which bot each row is linked to). */
export async function botNamesOf(
  db: DbOrTx,
  tenantId: number,
  ids: ReadonlyArray<number | null>,
): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ id: bots.id, name: bots.botName })
    .from(bots)
    .where(and(eq(bots.tenantId, tenantId), inArray(bots.id, wanted)));
  return new Map(rows.map((bot) => [bot.id, bot.name]));
}

/** A stored form read with today's defaults (forms saved before a field existed get its default). */
const leadForm = (stored: unknown): LeadFormConfig | null => {
  const parsed = LeadFormConfig.safeParse(stored);
  return parsed.success ? parsed.data : null;
};

const imageUrl = (name: string | null) => (name ? `${IMAGE_URL_PREFIX}${name}` : null);

/**
 * A bot's attached sources, roles and Instagram accounts, each a JSON list built by the database
 * (ordered by id), so a list of bots and their links is one statement rather than one per link table.
 */
const links = {
  file_groups: jsonList<Bot['file_groups'][number]>(
    sql`json_build_object('id', ${fileGroups.id}, 'name', ${fileGroups.groupName})`,
    sql`${botFileGroups} join ${fileGroups} on ${fileGroups.id} = ${botFileGroups.fileGroupId}
      where ${botFileGroups.botId} = ${bots.id}`,
    fileGroups.id,
  ),
  web_sources: jsonList<Bot['web_sources'][number]>(
    sql`json_build_object('source_id', ${webSources.id}, 'base_url', ${webSources.baseUrl},
      'name', ${webSources.name}, 'description', ${webSources.description})`,
    sql`${botWebSources} join ${webSources} on ${webSources.id} = ${botWebSources.webSourceId}
      where ${botWebSources.botId} = ${bots.id}`,
    webSources.id,
  ),
  notion_workspaces: jsonList<Bot['notion_workspaces'][number]>(
    sql`json_build_object('id', ${notionWorkspaces.id}, 'name', ${notionWorkspaces.workspaceName})`,
    sql`${botNotionWorkspaces} join ${notionWorkspaces}
      on ${notionWorkspaces.id} = ${botNotionWorkspaces.notionWorkspaceId}
      where ${botNotionWorkspaces.botId} = ${bots.id}`,
    notionWorkspaces.id,
  ),
  roles: jsonList<Bot['roles'][number]>(
    sql`json_build_object('id', ${roles.id}, 'name', ${roles.name})`,
    sql`${botRoles} join ${roles} on ${roles.id} = ${botRoles.roleId} where ${botRoles.botId} = ${bots.id}`,
    roles.id,
  ),
  instagram_accounts: jsonList<Bot['instagram_accounts'][number]>(
    sql`json_build_object('id', ${socialAccounts.id}, 'username', coalesce(${socialAccounts.username}, ''))`,
    sql`${socialAccounts} where ${socialAccounts.botId} = ${bots.id} and ${socialAccounts.channel} = 'instagram'`,
    socialAccounts.id,
  ),
};
type Links = { [K in keyof typeof links]: Bot[K] };

/** `select json_agg(item order by id) from ...` as a column, an empty list when nothing matches. */
function jsonList<T>(item: SQL, from: SQL, id: AnyColumn) {
  return sql<T[]>`coalesce((select json_agg(${item} order by ${qualified(id)}) from ${from}), '[]'::json)`;
}

/**
 * A column with its table's name: Drizzle leaves a bare column of a one-table select unqualified,
 * which inside a subquery would name the subquery's own column of that name.
 */
function qualified(column: AnyColumn): SQL {
  return sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;
}

/** A link table's rows of bot `bots` as a JSON list (`list`) and their ids (`ids`), ordered by id. */
const linkList = (item: string, id: string, from: string) =>
  `(select coalesce(json_agg(${item} order by ${id}), '[]'::json) as list,
    coalesce(json_agg(${id} order by ${id}), '[]'::json) as ids from ${from})`;

/** The bot's links as toBot lists them, one lateral row each: fg, ws, nw, ro, ig. */
const LINKS_SQL = [
  [
    'fg',
    linkList(
      `json_build_object('id', g.id, 'name', g.group_name)`,
      'g.id',
      'bot_file_groups l join file_groups g on g.id = l.file_group_id where l.bot_id = bots.id',
    ),
  ],
  [
    'ws',
    linkList(
      `json_build_object('source_id', w.id, 'base_url', w.base_url, 'name', w.name, 'description', w.description)`,
      'w.id',
      'bot_web_sources l join web_sources w on w.id = l.web_source_id where l.bot_id = bots.id',
    ),
  ],
  [
    'nw',
    linkList(
      `json_build_object('id', n.id, 'name', n.workspace_name)`,
      'n.id',
      'bot_notion_workspaces l join notion_workspaces n on n.id = l.notion_workspace_id where l.bot_id = bots.id',
    ),
  ],
  [
    'ro',
    linkList(
      `json_build_object('id', r.id, 'name', r.name)`,
      'r.id',
      'bot_roles l join roles r on r.id = l.role_id where l.bot_id = bots.id',
    ),
  ],
  [
    'ig',
    linkList(
      `json_build_object('id', s.id, 'username', coalesce(s.username, ''))`,
      's.id',
      `social_accounts s where s.bot_id = bots.id and s.channel = 'instagram'`,
    ),
  ],
]
  .map(([alias, list]) => `cross join lateral ${list} ${alias}`)
  .join('\n  ');

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
const jsonIn = (value: string, options: readonly string[]) =>
  `${value} in (${options.map((option) => `${literal(JSON.stringify(option))}::jsonb`).join(', ')})`;
const typed = (value: string, type: string) => `jsonb_typeof(${value}) = '${type}'`;
/** What LeadFormConfig gives the fields a stored form may lack (those added since it was saved). */
const LEAD_FORM_DEFAULTS = Object.fromEntries(
  Object.entries(LeadFormConfig.parse({ enabled: false, fields: [] })).filter(
    ([key]) => key !== 'enabled' && key !== 'fields',
  ),
);
/** The stored form `f` (its defaults filled in) has the contract's types: else leadForm gives null. */
const LEAD_FORM_TYPED = [
  typed("f->'enabled'", 'boolean'),
  typed("f->'title'", 'string'),
  typed("f->'fields'", 'array'),
  jsonIn("f->'show_when'", LEAD_FORM_TRIGGERS),
  typed("f->'after_messages'", 'number'),
  // Guarded: SQL does not promise to stop at the first false condition.
  `not exists (select 1 from jsonb_array_elements(case when ${typed("f->'fields'", 'array')} then f->'fields'
    else '[]'::jsonb end) e where not coalesce(${[
      typed('e', 'object'),
      typed("e->'name'", 'string'),
      typed("e->'label'", 'string'),
      jsonIn("e->'type'", LeadFormField.shape.type.options),
      typed("e->'required'", 'boolean'),
    ].join(' and ')}, false))`,
].join(' and ');
/**
 * A bot's stored lead form as leadForm reads it: the defaults of fields added since it was saved
 * filled in, cut to the contract's fields, null unless it has the contract's types. Forms are
 * stored as LeadFormConfig parsed them, so lengths and patterns are not checked again here (outside
 * production the serializer's zod check would refuse a reply that broke them).
 */
const LEAD_FORM_PICKED = `jsonb_build_object(${Object.keys(LeadFormConfig.shape)
  .map((key) =>
    key === 'fields'
      ? `'fields', ${jsonPickEach("f->'fields'", Object.keys(LeadFormField.shape))}`
      : `'${key}', f->'${key}'`,
  )
  .join(', ')})`;
const LEAD_FORM_JSON = `case when ${typed('bots.lead_form_config', 'object')} then (select case when ${LEAD_FORM_TYPED}
    then ${LEAD_FORM_PICKED} end
  from (select ${literal(JSON.stringify(LEAD_FORM_DEFAULTS))}::jsonb || bots.lead_form_config as f) form) end`;

/** A bot `bots` with its links (LINKS_SQL) as JSON, as toBot maps it, in its order of fields. */
const BOT_JSON = `json_build_object(
    'bot_id', bots.id, 'uuid', bots.uuid, 'tenant_id', bots.tenant_id, 'user_id', bots.user_id,
    'bot_name', bots.bot_name, 'description', bots.description,
    'profile_image', case when bots.profile_image <> '' then ${literal(IMAGE_URL_PREFIX)} || bots.profile_image end,
    'temperature', bots.temperature, 'prompt', bots.prompt, 'llm_model', bots.llm_model,
    'internet', bots.internet, 'max_citations', bots.max_citations, 'human_button', bots.human_button,
    'visitor_language', bots.visitor_language,
    'handoff_confidence', bots.handoff_confidence, 'analytics', bots.analytics, 'is_public', bots.is_public,
    'brand_color', bots.brand_color, 'welcome_message', coalesce(bots.welcome_message, ''),
    'suggestion_questions', bots.suggestion_questions, 'lead_form_config', ${LEAD_FORM_JSON},
    'allowed_origins', bots.allowed_origins, 'shopify_store_id', bots.shopify_store_id,
    'woocommerce_store_id', bots.woocommerce_store_id,
    'file_group_ids', fg.ids, 'web_source_ids', ws.ids, 'notion_workspace_ids', nw.ids,
    'file_groups', fg.list, 'web_sources', ws.list, 'notion_workspaces', nw.list, 'roles', ro.list,
    'instagram_accounts', ig.list,
    'created_at', ${isoTime('bots.created_at')}, 'updated_at', ${isoTime('bots.updated_at')})`;

/**
 * A user's bots list (GET /chat/bots/user/:id) as the reply's JSON text, newest first, in one named
 * prepared statement that also reads the user's scope: every bot of the tenant for an owner or a
 * user not restricted to some bots, otherwise botsOfRestricted's. Null when the user is not the
 * tenant's. The JSON is built in the database (json_build_object keeps float4's own digits, as the
 * driver reads them), so the reply costs no mapping or zod check per bot.
 */
export async function botListOf(db: DbOrTx, tenantId: number, userId: number): Promise<string | null> {
  const [row] = await queryPrepared<{ body: string }>(
    db,
    sql`select (select coalesce(json_agg(${sql.raw(BOT_JSON)} order by bots.created_at desc, bots.id desc),
          '[]'::json)
        from bots
        ${sql.raw(LINKS_SQL)}
        where bots.tenant_id = viewer.tenant_id and (viewer.sees_all or ${botsOfRestricted(userId)}))::text as body
      from (select u.tenant_id, not u.bots_restricted or exists (select 1 from user_roles ur
              join roles r on r.id = ur.role_id where ur.user_id = u.id and r.is_owner) as sees_all
            from users u where u.id = ${userId} and u.tenant_id = ${tenantId}) viewer`,
  );
  return row?.body ?? null;
}

/**
 * The bots a user restricted to some bots works with: their own, those assigned to them and those
 * carrying one of their roles (the bots list, the home page). `userId` may be a placeholder.
 */
export function botsOfRestricted(userId: number | Placeholder): SQL | undefined {
  return or(
    eq(bots.userId, userId),
    sql`${bots.id} in (select ${botUsers.botId} from ${botUsers} where ${botUsers.userId} = ${userId})`,
    sql`${bots.id} in (select ${botRoles.botId} from ${botRoles}
      join ${userRoles} on ${userRoles.roleId} = ${botRoles.roleId} where ${userRoles.userId} = ${userId})`,
  );
}

/** Bots already read, with their links, in the order given: one statement for all their links. */
export async function withLinks(db: DbOrTx, rows: BotRow[]): Promise<Bot[]> {
  if (rows.length === 0) return [];
  const found = await db
    .select({ id: bots.id, ...links })
    .from(bots)
    .where(
      inArray(
        bots.id,
        rows.map((row) => row.id),
      ),
    );
  const byBot = new Map(found.map(({ id, ...rest }) => [id, rest]));
  return rows.map((row) => toBot(row, byBot.get(row.id) ?? noLinks()));
}

const noLinks = (): Links => ({
  file_groups: [],
  web_sources: [],
  notion_workspaces: [],
  roles: [],
  instagram_accounts: [],
});

function toBot(row: BotRow, links: Links): Bot {
  return {
    bot_id: row.id,
    uuid: row.uuid,
    tenant_id: row.tenantId,
    user_id: row.userId,
    bot_name: row.botName,
    description: row.description,
    profile_image: imageUrl(row.profileImage),
    temperature: row.temperature,
    prompt: row.prompt,
    llm_model: row.llmModel,
    internet: row.internet,
    max_citations: row.maxCitations,
    human_button: row.humanButton,
    visitor_language: row.visitorLanguage,
    handoff_confidence: row.handoffConfidence,
    analytics: row.analytics,
    is_public: row.isPublic,
    brand_color: row.brandColor,
    welcome_message: row.welcomeMessage ?? '',
    suggestion_questions: row.suggestionQuestions,
    lead_form_config: leadForm(row.leadFormConfig),
    allowed_origins: row.allowedOrigins,
    shopify_store_id: row.shopifyStoreId,
    woocommerce_store_id: row.woocommerceStoreId,
    file_group_ids: links.file_groups.map((ref) => ref.id),
    web_source_ids: links.web_sources.map((ref) => ref.source_id),
    notion_workspace_ids: links.notion_workspaces.map((ref) => ref.id),
    ...links,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * What a visitor's widget may know of a bot: no prompt, model, keys, sources or tenant. Its words
 * are in the visitor's language (widgetLanguageOf, from the browser's `acceptLanguage`).
 */
export async function publicView(
  db: DbOrTx,
  row: BotRow,
  showBranding: boolean,
  acceptLanguage?: string,
): Promise<PublicBot> {
  const sources =
    row.visitorLanguage === 'auto' ? await sourceLanguageCountsOf(db, row.tenantId, row.id) : [];
  const [booking] = await db
    .select({
      title: calendarBookings.title,
      message: calendarBookings.message,
      url: calendarBookings.url,
      provider: calendarBookings.provider,
    })
    .from(calendarBookings)
    .where(and(eq(calendarBookings.botId, row.id), offeredBooking));
  const language = widgetLanguageOf(row.visitorLanguage, sources, acceptLanguage);
  return {
    bot_id: row.id,
    uuid: row.uuid,
    bot_name: row.botName,
    description: row.description,
    profile_image: imageUrl(row.profileImage),
    brand_color: row.brandColor,
    welcome_message: welcomeIn(row.welcomeMessage, row.botName, WIDGET_TEXTS[language]),
    suggestion_questions: row.suggestionQuestions,
    lead_form_config: leadForm(row.leadFormConfig),
    human_button: row.humanButton,
    language,
    texts: WIDGET_TEXTS[language],
    booking: booking ?? null,
    show_branding: showBranding,
  };
}

/** Why a bot cannot be deleted yet: its conversations and the users assigned to it. */
export async function botUsage(db: DbOrTx, botId: number) {
  const [[chats], [assigned]] = await Promise.all([
    db.select({ n: count() }).from(conversations).where(eq(conversations.botId, botId)),
    db.select({ n: count() }).from(botUsers).where(eq(botUsers.botId, botId)),
  ]);
  return { conversations: chats?.n ?? 0, assigned_users: assigned?.n ?? 0 };
}

/**
 * Whether the user in column `user` works with the bot in column `bot` (SQL): not restricted, an
 * owner, or the bot among botsOfRestricted's (their own, assigned to them, or carrying their role).
 */
export const worksWithBotSql = (user: SQL, bot: SQL): SQL => sql`exists (select 1 from users wu
  where wu.id = ${user} and (not wu.bots_restricted
    or exists (select 1 from user_roles wur join roles wr on wr.id = wur.role_id
               where wur.user_id = wu.id and wr.is_owner)
    or exists (select 1 from bots wb where wb.id = ${bot} and wb.tenant_id = wu.tenant_id
               and (wb.user_id = wu.id
                 or wb.id in (select bu.bot_id from bot_users bu where bu.user_id = wu.id)
                 or wb.id in (select br.bot_id from bot_roles br join user_roles bur
                              on bur.role_id = br.role_id where bur.user_id = wu.id)))))`;
