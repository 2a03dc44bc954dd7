import { type Bot, LeadFormConfig, type PublicBot } from '@parley/contracts';
import {
  type AnyColumn,
  and,
  count,
  desc,
  eq,
  getTableName,
  inArray,
  or,
  type Placeholder,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { Db, DbOrTx } from '../../core/db/database.js';
import { roles, userRoles, users } from '../../core/db/schema.js';
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
} from './bots.schema.js';

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
 * The tenant's bot as one teammate works with it: a teammate the owner restricted to their assigned
 * bots (all_bots false) gets a 404 for the others, like for a bot that does not exist. Owners see all.
 */
export async function requireWorkingBot(
  db: DbOrTx,
  auth: {
    tenantId: number;
    userId: number;
    user: { all_bots?: boolean; roles: Array<{ is_owner: boolean }> };
  },
  botId: number,
) {
  const bot = await requireBot(db, auth.tenantId, botId);
  const restricted = auth.user.all_bots === false && !auth.user.roles.some((role) => role.is_owner);
  if (
    restricted &&
    (await db.$count(botUsers, and(eq(botUsers.botId, botId), eq(botUsers.userId, auth.userId)))) === 0
  )
    throw notFound('Bot not found');
  return bot;
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

/**
 * The statements of a user's bots list (GET /chat/bots/user/:id), built and prepared once per
 * database: the list is read often, and Drizzle's building of the statement (with its five link
 * subqueries) cost more CPU than the database's work. Parameters are placeholders.
 */
export function prepareBotLists(db: Db) {
  const tenant = eq(bots.tenantId, sql.placeholder('tenantId'));
  const userId = sql.placeholder('userId');
  const list = (name: string, where: SQL | undefined) =>
    db
      .select({ bot: bots, ...links })
      .from(bots)
      .where(where)
      .orderBy(desc(bots.createdAt), desc(bots.id))
      .prepare(name);
  return {
    /** Whether the user is restricted to some bots, and whether they own the workspace (never so). */
    viewer: db
      .select({
        restricted: users.botsRestricted,
        owner: sql<boolean>`exists (select 1 from ${userRoles} join ${roles} on ${roles.id} = ${userRoles.roleId}
          where ${userRoles.userId} = ${qualified(users.id)} and ${roles.isOwner})`,
      })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.tenantId, sql.placeholder('tenantId'))))
      .prepare('bots_list_viewer'),
    all: list('bots_list_all', tenant),
    restricted: list('bots_list_restricted', and(tenant, botsOfRestricted(userId))),
  };
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

/** Rows of a bots list statement as the API answers them. */
export const botsOfRows = (rows: Array<{ bot: BotRow } & Links>): Bot[] =>
  rows.map(({ bot, ...rest }) => toBot(bot, rest));

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

/** What a visitor's widget may know of a bot: no prompt, model, keys, sources or tenant. */
export async function publicView(db: DbOrTx, row: BotRow, showBranding: boolean): Promise<PublicBot> {
  const [booking] = await db
    .select({
      title: calendarBookings.title,
      message: calendarBookings.message,
      url: calendarBookings.url,
      provider: calendarBookings.provider,
    })
    .from(calendarBookings)
    .where(eq(calendarBookings.botId, row.id));
  return {
    bot_id: row.id,
    uuid: row.uuid,
    bot_name: row.botName,
    description: row.description,
    profile_image: imageUrl(row.profileImage),
    brand_color: row.brandColor,
    welcome_message: row.welcomeMessage ?? '',
    suggestion_questions: row.suggestionQuestions,
    lead_form_config: leadForm(row.leadFormConfig),
    human_button: row.humanButton,
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
