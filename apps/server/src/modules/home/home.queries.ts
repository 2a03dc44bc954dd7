import {
  type ChecklistStep,
  HOME_LEAD_DAYS,
  HOME_LIMITS,
  type HomeBot,
  type HomeConversation,
  type HomeLead,
  type HomeQuestion,
} from '@parley/contracts';
import { and, asc, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/database.js';
import { invitations, tenants, users } from '../../core/db/schema.js';
import { IMAGE_URL_PREFIX } from '../bots/bots.images.js';
import { botsOfRestricted, ofWorkingBots } from '../bots/bots.queries.js';
import { bots, botUsers, leads } from '../bots/bots.schema.js';
import { conversations } from '../chat/chat.schema.js';
import { webSources } from '../crawler/crawler.schema.js';
import { files } from '../files/files.schema.js';
import { botScope, type InboxReader } from '../handoff/inbox-scope.js';
import { notionWorkspaces } from '../notion/notion.schema.js';
import { qna } from '../qna/qna.schema.js';
import { unansweredGroups } from '../unanswered/unanswered.schema.js';

export type BotList = { bots: HomeBot[]; total: number };

const botColumns = {
  bot_id: bots.id,
  bot_name: bots.botName,
  description: bots.description,
  image: bots.profileImage,
  brand_color: bots.brandColor,
  // The full count beside the first rows, so the list and its total cost one statement.
  total: sql<number>`cast(count(*) over () as integer)`,
};

type BotListRow = {
  bot_id: number;
  bot_name: string;
  description: string | null;
  image: string | null;
  brand_color: string;
  total: number;
};

function toList(rows: BotListRow[]): BotList {
  return {
    total: rows[0]?.total ?? 0,
    bots: rows.map(({ image, total: _total, ...bot }) => ({
      ...bot,
      profile_image: image ? `${IMAGE_URL_PREFIX}${image}` : null,
    })),
  };
}

/** The bots a bot manager works with (see managedBots). */
const managedScope = (tenantId: number, userId: number, everyBot: boolean) =>
  everyBot ? eq(bots.tenantId, tenantId) : and(eq(bots.tenantId, tenantId), botsOfRestricted(userId));

/**
 * The bots a bot manager works with, by the rule of GET /chat/bots/user/:id (BotsService.ofUser):
 * an owner, or anyone not restricted to their assigned bots, all of the workspace's; anyone else the
 * ones they created, are assigned to or that carry one of their roles. Newest first, as Manage Bots.
 */
export async function managedBots(db: DbOrTx, tenantId: number, userId: number, everyBot: boolean) {
  const rows = await db
    .select(botColumns)
    .from(bots)
    .where(managedScope(tenantId, userId, everyBot))
    .orderBy(desc(bots.createdAt), desc(bots.id))
    .limit(HOME_LIMITS.bots);
  return toList(rows);
}

/**
 * The most asked open questions of the unanswered queues of the bots a manager works with, and how
 * many wait in all: what one answer each in the Q&A screen would teach the bots.
 */
export async function waitingQuestions(
  db: DbOrTx,
  tenantId: number,
  userId: number,
  everyBot: boolean,
): Promise<{ items: HomeQuestion[]; total: number }> {
  const groups = unansweredGroups;
  const rows = await db
    .select({
      id: groups.id,
      bot_id: groups.botId,
      bot_name: bots.botName,
      question: groups.question,
      asked_count: groups.askedCount,
      total: sql<number>`cast(count(*) over () as integer)`,
    })
    .from(groups)
    .innerJoin(bots, eq(bots.id, groups.botId))
    .where(
      and(eq(groups.tenantId, tenantId), eq(groups.status, 'open'), managedScope(tenantId, userId, everyBot)),
    )
    .orderBy(desc(groups.askedCount), desc(groups.lastAskedAt), desc(groups.id))
    .limit(HOME_LIMITS.questions);
  return { items: rows.map(({ total: _total, ...row }) => row), total: rows[0]?.total ?? 0 };
}

/**
 * The bots the user works with, by the rule of GET /auth/bots-assigned/:userId (by name): every bot
 * of the workspace unless the owner restricted them to their assigned ones.
 */
export async function assignedBots(db: DbOrTx, tenantId: number, userId: number, everyBot: boolean) {
  if (everyBot) {
    const rows = await db
      .select(botColumns)
      .from(bots)
      .where(eq(bots.tenantId, tenantId))
      .orderBy(asc(bots.botName), asc(bots.id))
      .limit(HOME_LIMITS.bots);
    return toList(rows);
  }
  const rows = await db
    .select(botColumns)
    .from(botUsers)
    .innerJoin(bots, eq(bots.id, botUsers.botId))
    .where(and(eq(botUsers.userId, userId), eq(bots.tenantId, tenantId)))
    .orderBy(asc(bots.botName), asc(bots.id))
    .limit(HOME_LIMITS.bots);
  return toList(rows);
}

/**
 * The workspace's latest conversations on every bot and channel, as the inbox lists them: the
 * playground's test chats (is_test) are left out there, so here too, and a teammate restricted to
 * some bots sees only theirs (botScope, as the inbox).
 */
export async function recentConversations(db: DbOrTx, reader: InboxReader): Promise<HomeConversation[]> {
  const rows = await db
    .select({
      conversation_id: conversations.id,
      bot_id: conversations.botId,
      bot_name: bots.botName,
      name: conversations.name,
      channel: conversations.channel,
      last_message_at: conversations.lastMessageAt,
      unread_count: conversations.unreadCount,
    })
    .from(conversations)
    .innerJoin(bots, eq(bots.id, conversations.botId))
    .where(
      and(
        eq(conversations.tenantId, reader.tenantId),
        eq(conversations.isTest, false),
        botScope(reader, sql`${conversations.botId}`),
      ),
    )
    .orderBy(desc(conversations.lastMessageAt), desc(conversations.id))
    .limit(HOME_LIMITS.conversations);
  return rows.map((row) => ({ ...row, last_message_at: row.last_message_at.toISOString() }));
}

/**
 * The bots whose leads the reader may open, by the rule of GET /chat/bots/:id/leads
 * (requireWorkingBot): every bot of the workspace, or for a teammate restricted to some bots
 * botsOfRestricted's (theirs, assigned to them, or carrying one of their roles).
 */
function leadBots(reader: InboxReader): SQL {
  return and(eq(bots.tenantId, reader.tenantId), ofWorkingBots(reader, bots.id))!;
}

/**
 * The leads the reader may open, through their bots' ids so the (bot_id, created_at) index serves
 * the read. A lead of a test chat (the playground's) is left out, as analytics leaves it out.
 */
const readableLeads = (reader: InboxReader): SQL =>
  and(
    eq(leads.tenantId, reader.tenantId),
    sql`${leads.botId} in (select ${bots.id} from ${bots} where ${leadBots(reader)})`,
    sql`not exists (select 1 from ${conversations}
      where ${conversations.id} = ${leads.conversationId} and ${conversations.isTest})`,
  )!;

/** Leads of the last HOME_LEAD_DAYS days by how many whole days ago they came (0: the last 24 hours). */
export async function leadsPerDay(
  db: DbOrTx,
  reader: InboxReader,
): Promise<{ days_ago: number; count: number }[]> {
  const daysAgo = sql<number>`cast(floor(extract(epoch from now() - ${leads.createdAt}) / 86400) as integer)`;
  return db
    .select({ days_ago: daysAgo, count: sql<number>`cast(count(*) as integer)` })
    .from(leads)
    .where(
      and(readableLeads(reader), sql`${leads.createdAt} > now() - make_interval(days => ${HOME_LEAD_DAYS})`),
    )
    .groupBy(daysAgo);
}

/** The reader's newest leads, however old, newest first, with their bot's name. */
export async function newestLeads(db: DbOrTx, reader: InboxReader): Promise<HomeLead[]> {
  const rows = await db
    .select({
      id: leads.id,
      bot_id: leads.botId,
      bot_name: bots.botName,
      name: leads.name,
      email: leads.email,
      created_at: leads.createdAt,
    })
    .from(leads)
    .innerJoin(bots, eq(bots.id, leads.botId))
    .where(readableLeads(reader))
    .orderBy(desc(leads.createdAt), desc(leads.id))
    .limit(HOME_LIMITS.leads);
  return rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() }));
}

/** Whether one of the bots whose leads the reader reads has its lead form turned on. */
export async function leadFormEnabled(db: DbOrTx, reader: InboxReader): Promise<boolean> {
  const on = await db.$count(bots, and(leadBots(reader), sql`${bots.leadFormConfig} ->> 'enabled' = 'true'`));
  return on > 0;
}

const exists = (table: SQL, where: SQL) => sql`exists (select 1 from ${table} where ${where})`;

/**
 * Whether each getting-started step has happened in the workspace, read from what the steps leave
 * behind (nothing is stored for the checklist itself, so it can never disagree with the data).
 * The widget's loads are not recorded anywhere, so "on the website" is a visitor's conversation:
 * a widget (or the bot's public chat page) reached by someone who is not signed in to the console.
 */
function stepConditions(tenantId: number): Record<ChecklistStep, SQL> {
  return {
    create_bot: exists(sql`${bots}`, sql`${bots.tenantId} = ${tenantId}`),
    add_knowledge: sql`(${sql.join(
      [
        exists(sql`${files}`, sql`${files.tenantId} = ${tenantId} and ${files.status} = 'trained'`),
        exists(sql`${webSources}`, sql`${webSources.tenantId} = ${tenantId}`),
        exists(sql`${notionWorkspaces}`, sql`${notionWorkspaces.tenantId} = ${tenantId}`),
        exists(sql`${qna}`, sql`${qna.tenantId} = ${tenantId}`),
      ],
      sql` or `,
    )})`,
    try_bot: exists(sql`${conversations}`, sql`${conversations.tenantId} = ${tenantId}`),
    embed_widget: exists(
      sql`${conversations}`,
      sql`${conversations.tenantId} = ${tenantId} and ${conversations.channel} = 'bot'
        and ${conversations.visitorId} is not null and ${conversations.userId} is null`,
    ),
    invite_teammate: sql`(${exists(sql`${invitations}`, sql`${invitations.tenantId} = ${tenantId}`)}
      or (select count(*) from ${users} where ${users.tenantId} = ${tenantId}) > 1)`,
  };
}

/** Every step's state in one statement (read on the tenant's own row). */
export async function checklistState(db: DbOrTx, tenantId: number): Promise<Record<ChecklistStep, boolean>> {
  const conditions = stepConditions(tenantId);
  const [row] = await db
    .select({
      create_bot: sql<boolean>`${conditions.create_bot}`,
      add_knowledge: sql<boolean>`${conditions.add_knowledge}`,
      try_bot: sql<boolean>`${conditions.try_bot}`,
      embed_widget: sql<boolean>`${conditions.embed_widget}`,
      invite_teammate: sql<boolean>`${conditions.invite_teammate}`,
    })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  return row!;
}
