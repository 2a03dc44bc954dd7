import { type Bot, LeadFormConfig, type PublicBot } from '@parley/contracts';
import { and, count, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/database.js';
import { roles } from '../../core/db/schema.js';
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

/** Bots with their attached sources and roles, in the order given: one query per link table. */
export async function withLinks(db: DbOrTx, rows: BotRow[]): Promise<Bot[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [groups, sources, workspaces, botRoleRows, instagram] = await Promise.all([
    db
      .select({ botId: botFileGroups.botId, id: fileGroups.id, name: fileGroups.groupName })
      .from(botFileGroups)
      .innerJoin(fileGroups, eq(fileGroups.id, botFileGroups.fileGroupId))
      .where(inArray(botFileGroups.botId, ids)),
    db
      .select({
        botId: botWebSources.botId,
        source_id: webSources.id,
        base_url: webSources.baseUrl,
        name: webSources.name,
        description: webSources.description,
      })
      .from(botWebSources)
      .innerJoin(webSources, eq(webSources.id, botWebSources.webSourceId))
      .where(inArray(botWebSources.botId, ids)),
    db
      .select({
        botId: botNotionWorkspaces.botId,
        id: notionWorkspaces.id,
        name: notionWorkspaces.workspaceName,
      })
      .from(botNotionWorkspaces)
      .innerJoin(notionWorkspaces, eq(notionWorkspaces.id, botNotionWorkspaces.notionWorkspaceId))
      .where(inArray(botNotionWorkspaces.botId, ids)),
    db
      .select({ botId: botRoles.botId, id: roles.id, name: roles.name })
      .from(botRoles)
      .innerJoin(roles, eq(roles.id, botRoles.roleId))
      .where(inArray(botRoles.botId, ids)),
    db
      .select({ botId: socialAccounts.botId, id: socialAccounts.id, username: socialAccounts.username })
      .from(socialAccounts)
      .where(and(inArray(socialAccounts.botId, ids), eq(socialAccounts.channel, 'instagram'))),
  ]);
  const of = <T extends { botId: number }>(list: T[], botId: number) =>
    list.filter((item) => item.botId === botId).map(({ botId: _omit, ...rest }) => rest);
  return rows.map((row) => {
    const fileGroupRefs = of(groups, row.id);
    const webSourceRefs = of(sources, row.id);
    const workspaceRefs = of(workspaces, row.id);
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
      file_group_ids: fileGroupRefs.map((ref) => ref.id),
      web_source_ids: webSourceRefs.map((ref) => ref.source_id),
      notion_workspace_ids: workspaceRefs.map((ref) => ref.id),
      file_groups: fileGroupRefs,
      web_sources: webSourceRefs,
      notion_workspaces: workspaceRefs,
      roles: of(botRoleRows, row.id),
      instagram_accounts: instagram
        .filter((account) => account.botId === row.id)
        .map((account) => ({ id: account.id, username: account.username ?? '' })),
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    };
  });
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
