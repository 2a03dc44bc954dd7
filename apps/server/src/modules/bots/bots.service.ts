import type { Multipart } from '@fastify/multipart';
import {
  BOT_IMAGE_MAX_BYTES,
  type Bot,
  BotInput,
  businessName,
  defaultWelcome,
  MESSAGES,
  type PublicBot,
  parseBotFields,
} from '@parley/contracts';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../core/db/database.js';
import { isUniqueViolation } from '../../core/db/errors.js';
import { roles, tenants, users } from '../../core/db/schema.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import { jsonReply } from '../../core/http/serializer.js';
import type { Entitlements } from '../billing/entitlements.js';
import { webSources } from '../crawler/crawler.schema.js';
import { fileGroups } from '../files/files.schema.js';
import { documents } from '../knowledge/knowledge.schema.js';
import { llmSettings } from '../llm/llm.schema.js';
import { notionWorkspaces } from '../notion/notion.schema.js';
import type { BotCache } from './bot-cache.js';
import { imageTooLarge, readBotImage, removeBotImage, storeBotImage } from './bots.images.js';
import {
  type BotRow,
  botListOf,
  botUsage,
  publicView,
  requireWorkingBot,
  withLinks,
} from './bots.queries.js';
import {
  botFileGroups,
  botNotionWorkspaces,
  botRoles,
  bots,
  botUsers,
  botWebSources,
} from './bots.schema.js';

/** Refused because the bot still has conversations or assigned users (409 with the counts). */
export class BotInUseError extends Error {
  constructor(readonly usage: { conversations: number; assigned_users: number }) {
    super(MESSAGES.bots.deleteBlocked);
  }
}

type Fields = Record<string, string>;
type Received = { fields: Fields; image: Buffer | null };
type Links = Pick<BotInput, 'file_group_ids' | 'web_source_ids' | 'notion_workspace_ids' | 'role_ids'>;

const LINK_KEYS = ['file_group_ids', 'web_source_ids', 'notion_workspace_ids', 'role_ids'] as const;

/**
 * Bots of a tenant (console.md sections 3 to 8 Bots): multipart create and update with a profile
 * image, the sources and roles they carry, assignment to users, and the public view for visitors.
 */
export class BotsService {
  constructor(
    private readonly db: Db,
    private readonly dataDir: string,
    private readonly cache: BotCache,
    /** The plan's bots and trained characters, checked in the transaction that writes a bot. */
    private readonly entitlements: Pick<
      Entitlements,
      'requireBotSlot' | 'requireBotCharacters' | 'requireFeature' | 'hasFeature'
    >,
    /** Tells every node's session cache that a user's bots changed (all_bots travels with the user). */
    private readonly authzChanged?: (tenantId: number) => Promise<void>,
  ) {}

  async create(auth: AuthContext, parts: AsyncIterableIterator<Multipart>): Promise<Bot> {
    const received = await receive(parts);
    const input = validate(BotInput, parseBotFields(received.fields));
    if (input.lead_form_config) await this.entitlements.requireFeature(auth.tenantId, 'capture_leads');
    await this.checkReferences(this.db, auth.tenantId, input);
    // A greeting left out names the business: the workspace's chosen name, or the bot's.
    const welcome =
      input.welcome_message ?? defaultWelcome(await this.businessOf(auth.tenantId, input.bot_name));
    const image = received.image ? await storeBotImage(this.dataDir, received.image) : null;
    try {
      const row = await this.db.transaction(async (tx) => {
        await this.entitlements.requireBotSlot(tx, auth.tenantId);
        const [created] = await tx
          .insert(bots)
          .values({
            ...columnsOf(input),
            welcomeMessage: welcome,
            botName: input.bot_name,
            tenantId: auth.tenantId,
            userId: auth.userId,
            profileImage: image,
          })
          .returning();
        await setLinks(tx, auth.tenantId, created!.id, input);
        await this.entitlements.requireBotCharacters(tx, auth.tenantId, created!.id);
        return created!;
      });
      return this.one(row);
    } catch (error) {
      await removeBotImage(this.dataDir, image);
      throw nameTaken(error);
    }
  }

  /** Only the fields sent change; list fields sent replace the bot's whole list. */
  async update(auth: AuthContext, botId: number, parts: AsyncIterableIterator<Multipart>): Promise<Bot> {
    const existing = await requireWorkingBot(this.db, auth, botId);
    const received = await receive(parts);
    const raw = parseBotFields(received.fields);
    const parsed = validate(BotInput.partial(), raw);
    // Zod applies defaults inside optional fields; keep only what the request actually sent.
    const input = Object.fromEntries(
      Object.entries(parsed).filter(([key]) => key in raw),
    ) as Partial<BotInput>;
    if (input.lead_form_config) await this.entitlements.requireFeature(auth.tenantId, 'capture_leads');
    await this.checkReferences(this.db, auth.tenantId, input);
    const image = received.image ? await storeBotImage(this.dataDir, received.image) : undefined;
    try {
      const row = await this.db.transaction(async (tx) => {
        const [updated] = await tx
          .update(bots)
          .set({ ...columnsOf(input), profileImage: image, updatedAt: new Date() })
          .where(and(eq(bots.id, botId), eq(bots.tenantId, auth.tenantId)))
          .returning();
        await setLinks(tx, auth.tenantId, botId, input);
        await this.entitlements.requireBotCharacters(tx, auth.tenantId, botId);
        return updated!;
      });
      await this.cache.changed(botId);
      if (image) await removeBotImage(this.dataDir, existing.profileImage);
      return this.one(row);
    } catch (error) {
      await removeBotImage(this.dataDir, image ?? null);
      throw nameTaken(error);
    }
  }

  async get(auth: AuthContext, botId: number): Promise<Bot> {
    return this.one(await requireWorkingBot(this.db, auth, botId));
  }

  /**
   * The bots a user works with: every bot of the tenant for an owner and for anyone the owner has
   * not restricted (new bots included, no "Assign bots" step); otherwise the ones they created, the
   * ones carrying one of their roles and the ones assigned to them.
   */
  async ofUser(auth: AuthContext, userId: number): Promise<Bot[]> {
    // The reply's JSON as the database builds it (botListOf): one statement, no mapping per bot.
    const list = await botListOf(this.db, auth.tenantId, userId);
    if (list === null) throw notFound('User not found');
    return jsonReply(list);
  }

  async ofRole(auth: AuthContext, roleId: number): Promise<Bot[]> {
    const [role] = await this.db
      .select({ id: roles.id })
      .from(roles)
      .where(and(eq(roles.id, roleId), eq(roles.tenantId, auth.tenantId)));
    if (!role) throw notFound('Role not found');
    const rows = await this.db
      .select({ bot: bots })
      .from(botRoles)
      .innerJoin(bots, eq(bots.id, botRoles.botId))
      .where(and(eq(botRoles.roleId, roleId), eq(bots.tenantId, auth.tenantId)))
      .orderBy(desc(bots.createdAt));
    return withLinks(
      this.db,
      rows.map((row) => row.bot),
    );
  }

  /** Refused while conversations or assigned users remain; otherwise its Q&A index and image go too. */
  async remove(auth: AuthContext, botId: number): Promise<void> {
    const bot = await requireWorkingBot(this.db, auth, botId);
    await this.db.transaction(async (tx) => {
      // Lock the bot so a conversation cannot start between the check and the delete.
      await tx.execute(sql`select id from ${bots} where ${bots.id} = ${botId} for update`);
      const usage = await botUsage(tx, botId);
      if (usage.conversations > 0 || usage.assigned_users > 0) throw new BotInUseError(usage);
      await tx
        .delete(documents)
        .where(
          and(
            eq(documents.tenantId, auth.tenantId),
            eq(documents.sourceType, 'qna'),
            eq(documents.collectionId, botId),
          ),
        );
      await tx.delete(bots).where(eq(bots.id, botId));
    });
    await this.cache.changed(botId);
    await removeBotImage(this.dataDir, bot.profileImage);
  }

  /**
   * The bots a user works with: every bot of the workspace unless the owner restricted them, then
   * their assigned ones. Another user's need read on Roles.
   */
  async assigned(auth: AuthContext, userId: number, tenantId: number): Promise<Bot[]> {
    if (tenantId !== auth.tenantId) throw notFound('Tenant not found');
    await this.requireUser(auth.tenantId, userId);
    if (userId !== auth.userId && !auth.ability.can('read', 'Roles')) throw forbidden();
    const [user] = await this.db
      .select({ restricted: users.botsRestricted })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.tenantId, auth.tenantId)));
    if (!user?.restricted) {
      const all = await this.db
        .select()
        .from(bots)
        .where(eq(bots.tenantId, auth.tenantId))
        .orderBy(bots.botName, bots.id);
      return withLinks(this.db, all);
    }
    const rows = await this.db
      .select({ bot: bots })
      .from(botUsers)
      .innerJoin(bots, eq(bots.id, botUsers.botId))
      .where(and(eq(botUsers.userId, userId), eq(bots.tenantId, auth.tenantId)))
      .orderBy(bots.botName);
    return withLinks(
      this.db,
      rows.map((row) => row.bot),
    );
  }

  /**
   * Replaces the set of bots assigned to a user. Unless `allBots`, the user is then restricted to
   * them; with it they work with every bot again (the assignments are kept for later).
   */
  async assign(auth: AuthContext, userId: number, botIds: number[], allBots = false): Promise<Bot[]> {
    await this.requireUser(auth.tenantId, userId);
    const unique = [...new Set(botIds)];
    await this.requireAll(this.db, bots, auth.tenantId, unique, 'Bot not found');
    await this.db.transaction(async (tx) => {
      await tx.delete(botUsers).where(and(eq(botUsers.userId, userId), eq(botUsers.tenantId, auth.tenantId)));
      if (unique.length > 0) {
        await tx.insert(botUsers).values(unique.map((botId) => ({ tenantId: auth.tenantId, botId, userId })));
      }
      await tx
        .update(users)
        .set({ botsRestricted: !allBots })
        .where(and(eq(users.id, userId), eq(users.tenantId, auth.tenantId)));
    });
    // The user's cached session carries all_bots.
    await this.authzChanged?.(auth.tenantId);
    return this.assigned(auth, userId, auth.tenantId);
  }

  async publicBots(acceptLanguage?: string): Promise<PublicBot[]> {
    const rows = await this.db.select().from(bots).where(eq(bots.isPublic, true)).orderBy(bots.botName);
    return Promise.all(
      rows.map(async (row) => publicView(this.db, row, await this.branded(row.tenantId), acceptLanguage)),
    );
  }

  /**
   * By numeric id only listed bots answer (ids can be guessed); by uuid any bot, for its widget. In
   * the language the visitor's browser prefers, where the bot speaks it (widgetLanguageOf).
   */
  async publicBot(by: { id: number } | { uuid: string }, acceptLanguage?: string): Promise<PublicBot> {
    const where = 'id' in by ? and(eq(bots.id, by.id), eq(bots.isPublic, true)) : eq(bots.uuid, by.uuid);
    const [row] = await this.db.select().from(bots).where(where);
    if (!row) throw notFound('Bot not found');
    return publicView(this.db, row, await this.branded(row.tenantId), acceptLanguage);
  }

  /** Visitors see "Powered by Parley" unless the workspace's plan allows custom branding. */
  private async branded(tenantId: number): Promise<boolean> {
    return !(await this.entitlements.hasFeature(tenantId, 'allows_custom_branding'));
  }

  image(name: string) {
    return readBotImage(this.dataDir, name);
  }

  private async one(row: BotRow): Promise<Bot> {
    const [bot] = await withLinks(this.db, [row]);
    return bot!;
  }

  private async requireUser(tenantId: number, userId: number) {
    const [user] = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.tenantId, tenantId)));
    if (!user) throw notFound('User not found');
  }

  /** Every id sent must be the tenant's own: another tenant's source is "not found", never linked. */
  private async checkReferences(db: DbOrTx, tenantId: number, input: Partial<BotInput>) {
    const checks: Array<[keyof Links, TenantTable, string]> = [
      ['file_group_ids', fileGroups, 'File group not found'],
      ['web_source_ids', webSources, 'Web source not found'],
      ['notion_workspace_ids', notionWorkspaces, 'Notion workspace not found'],
      ['role_ids', roles, 'Role not found'],
    ];
    for (const [key, table, message] of checks) {
      const ids = input[key];
      if (ids) await this.requireAll(db, table, tenantId, [...new Set(ids)], message);
    }
    if (input.llm_model) await requireActiveModel(db, tenantId, input.llm_model);
  }

  /** The name a new bot's greeting gives the business (businessName in the contracts). */
  private async businessOf(tenantId: number, botName: string): Promise<string> {
    const [tenant] = await this.db
      .select({ name: tenants.name })
      .from(tenants)
      .where(eq(tenants.id, tenantId));
    return businessName(tenant?.name, botName);
  }

  private async requireAll(db: DbOrTx, table: TenantTable, tenantId: number, ids: number[], message: string) {
    if (ids.length === 0) return;
    const found = await db
      .select({ id: table.id })
      .from(table)
      .where(and(inArray(table.id, ids), eq(table.tenantId, tenantId)));
    if (found.length !== ids.length) throw notFound(message);
  }
}

type TenantTable =
  | typeof fileGroups
  | typeof webSources
  | typeof notionWorkspaces
  | typeof roles
  | typeof bots;

/** The bot's model must be one of the tenant's active LLM settings (by id), or none. */
async function requireActiveModel(db: DbOrTx, tenantId: number, llmModel: string) {
  const id = /^[1-9]\d{0,9}$/.test(llmModel) ? Number(llmModel) : null;
  const [setting] = id
    ? await db
        .select({ id: llmSettings.id })
        .from(llmSettings)
        .where(
          and(eq(llmSettings.id, id), eq(llmSettings.tenantId, tenantId), eq(llmSettings.isActive, true)),
        )
    : [];
  if (!setting) throw badRequest('llm_model: choose one of your active models in LLM settings');
}

function columnsOf(input: Partial<BotInput>) {
  return {
    botName: input.bot_name,
    description: input.description,
    temperature: input.temperature,
    prompt: input.prompt,
    llmModel: input.llm_model,
    internet: input.internet,
    maxCitations: input.max_citations,
    humanButton: input.human_button,
    visitorLanguage: input.visitor_language,
    handoffConfidence: input.handoff_confidence,
    analytics: input.analytics,
    isPublic: input.is_public,
    brandColor: input.brand_color,
    welcomeMessage: input.welcome_message,
    suggestionQuestions: input.suggestion_questions,
    leadFormConfig: input.lead_form_config,
    allowedOrigins: input.allowed_origins,
  };
}

/** Replaces each link list that was sent. */
async function setLinks(tx: Tx, tenantId: number, botId: number, input: Partial<Links>) {
  const tables = {
    file_group_ids: [botFileGroups, 'fileGroupId'],
    web_source_ids: [botWebSources, 'webSourceId'],
    notion_workspace_ids: [botNotionWorkspaces, 'notionWorkspaceId'],
    role_ids: [botRoles, 'roleId'],
  } as const;
  for (const key of LINK_KEYS) {
    const ids = input[key];
    if (!ids) continue;
    const [table, column] = tables[key];
    await tx.delete(table).where(eq(table.botId, botId));
    const unique = [...new Set(ids)];
    if (unique.length > 0) {
      await tx.insert(table).values(unique.map((id) => ({ tenantId, botId, [column]: id }) as never));
    }
  }
}

/** The text fields and the one optional profile image of a multipart request. */
async function receive(parts: AsyncIterableIterator<Multipart>): Promise<Received> {
  const fields: Fields = {};
  let image: Buffer | null = null;
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== 'profile_image') throw badRequest(`Unexpected file field ${part.fieldname}`);
      const bytes = await part.toBuffer();
      if (part.file.truncated || bytes.length > BOT_IMAGE_MAX_BYTES) throw imageTooLarge();
      image = bytes.length > 0 ? bytes : null;
    }
  } catch (error) {
    throw multipartError(error);
  }
  return { fields, image };
}

/** @fastify/multipart's limit errors as the API's own. */
function multipartError(error: unknown): unknown {
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return imageTooLarge();
  if (code === 'FST_FILES_LIMIT') return badRequest('Send at most one profile image');
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return new AppError('payload_too_large', 'The request has too many fields');
  }
  return error;
}

function validate<T extends import('zod').ZodType>(schema: T, raw: unknown): import('zod').output<T> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.join('.');
  const message = issue?.message ?? 'Invalid bot';
  // Our texts (the spec's among them) are shown as they are; Zod's generic ones get the field's name.
  const generic = /^(Invalid|Too (big|small)|Expected|Unrecognized|[a-z])/.test(message);
  throw new AppError('bad_request', generic && field ? `${field}: ${message}` : message);
}

function nameTaken(error: unknown): unknown {
  if (isUniqueViolation(error)) return conflict('A bot with this name already exists');
  return error;
}
