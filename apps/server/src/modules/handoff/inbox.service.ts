import {
  type Conversation,
  type ConversationNote,
  HANDOFF_TEXTS,
  type HandoffEvent,
  INBOX_FILTERS,
  type InboxConversation,
  type InboxFilter,
  type InboxList,
} from '@parley/contracts';
import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../core/db/database.js';
import { users } from '../../core/db/schema.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import { bots, leads } from '../bots/bots.schema.js';
import {
  type ConversationRow,
  requireConversation,
  toConversation,
  toMessage,
} from '../chat/chat.queries.js';
import { conversationEvents, conversationNotes, conversations, messages } from '../chat/chat.schema.js';
import type { HandoffService } from './handoff.service.js';

export type InboxQuery = {
  filter: InboxFilter;
  search?: string;
  botId?: number;
  includeTests: boolean;
  limit: number;
};

const personName = (first: string | null, last: string | null, email: string | null) =>
  `${first ?? ''} ${last ?? ''}`.replace(/\s+/g, ' ').trim() || email || 'A teammate';

const toNote = (note: typeof conversationNotes.$inferSelect, authorName: string): ConversationNote => ({
  id: note.id,
  conversation_id: note.conversationId,
  author_id: note.authorId,
  author_name: authorName,
  body: note.body,
  created_at: note.createdAt.toISOString(),
});

/** Each filter's condition on conversations `c` of one agent (`me`). */
function filterCondition(filter: InboxFilter, me: number): SQL {
  switch (filter) {
    case 'needs_human':
      return sql`c.handoff_state = 'human_requested'`;
    case 'mine':
      return sql`c.handoff_state <> 'closed' and (c.admin_id = ${me} or c.assignee_id = ${me})`;
    case 'with_agent':
      return sql`c.handoff_state = 'human'`;
    case 'bot':
      return sql`c.handoff_state = 'bot'`;
    case 'closed':
      return sql`c.handoff_state = 'closed'`;
  }
}

/**
 * The agents' side of the hand-off (issue 15 item 3): the inbox by filter with counts, closing and
 * reopening, assignment, internal notes, and each conversation's transitions.
 */
export class InboxService {
  constructor(
    private readonly db: Db,
    private readonly handoff: HandoffService,
  ) {}

  async list(auth: AuthContext, tenantId: number, query: InboxQuery): Promise<InboxList> {
    if (tenantId !== auth.tenantId) throw notFound('Tenant not found');
    const scope = and(
      sql`c.tenant_id = ${auth.tenantId}`,
      query.includeTests ? undefined : sql`not c.is_test`,
      query.botId ? sql`c.bot_id = ${query.botId}` : undefined,
    )!;
    const [ids, counts] = await Promise.all([
      this.matchingIds(auth.userId, scope, query),
      this.counts(auth.userId, scope),
    ]);
    return { conversations: await this.rows(auth.tenantId, ids), counts };
  }

  async close(auth: AuthContext, id: number): Promise<Conversation> {
    const moved = await this.handoff.move(auth.tenantId, id, 'agent_closed', {
      kind: 'agent',
      userId: auth.userId,
    });
    if (!moved) throw conflict(HANDOFF_TEXTS.alreadyClosed);
    return toConversation(moved.row);
  }

  async reopen(auth: AuthContext, id: number): Promise<Conversation> {
    const moved = await this.handoff.move(auth.tenantId, id, 'agent_reopened', {
      kind: 'agent',
      userId: auth.userId,
    });
    if (!moved) throw conflict(HANDOFF_TEXTS.notClosed);
    return toConversation(moved.row);
  }

  /** Assigns to a teammate of the workspace (or nobody): who should follow it up. */
  async assign(auth: AuthContext, id: number, userId: number | null): Promise<InboxConversation> {
    await requireConversation(this.db, auth.tenantId, id);
    if (userId !== null) {
      const [teammate] = await this.db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, userId), eq(users.tenantId, auth.tenantId)));
      if (!teammate) throw badRequest(HANDOFF_TEXTS.assigneeNotFound);
    }
    await this.db
      .update(conversations)
      .set({ assigneeId: userId })
      .where(and(eq(conversations.id, id), eq(conversations.tenantId, auth.tenantId)));
    const [row] = await this.rows(auth.tenantId, [id]);
    return row!;
  }

  async notes(auth: AuthContext, id: number): Promise<ConversationNote[]> {
    await requireConversation(this.db, auth.tenantId, id);
    const rows = await this.db
      .select({ note: conversationNotes, first: users.firstName, last: users.lastName, email: users.email })
      .from(conversationNotes)
      .leftJoin(users, eq(users.id, conversationNotes.authorId))
      .where(and(eq(conversationNotes.conversationId, id), eq(conversationNotes.tenantId, auth.tenantId)))
      .orderBy(asc(conversationNotes.id));
    return rows.map(({ note, first, last, email }) => toNote(note, personName(first, last, email)));
  }

  /** A note for agents only: stored apart from the messages, so no channel ever carries it. */
  async addNote(auth: AuthContext, id: number, body: string): Promise<ConversationNote> {
    await requireConversation(this.db, auth.tenantId, id);
    const [note] = await this.db
      .insert(conversationNotes)
      .values({ tenantId: auth.tenantId, conversationId: id, authorId: auth.userId, body })
      .returning();
    return toNote(note!, personName(auth.user.first_name, auth.user.last_name, auth.user.email));
  }

  async events(auth: AuthContext, id: number): Promise<HandoffEvent[]> {
    await requireConversation(this.db, auth.tenantId, id);
    const rows = await this.db
      .select({ event: conversationEvents, first: users.firstName, last: users.lastName, email: users.email })
      .from(conversationEvents)
      .leftJoin(users, eq(users.id, conversationEvents.actorId))
      .where(and(eq(conversationEvents.conversationId, id), eq(conversationEvents.tenantId, auth.tenantId)))
      .orderBy(asc(conversationEvents.id));
    return rows.map(({ event, first, last, email }) => ({
      id: event.id,
      conversation_id: event.conversationId,
      from: event.fromState,
      to: event.toState,
      reason: event.reason,
      actor: event.actor,
      actor_id: event.actorId,
      actor_name: event.actorId ? personName(first, last, email) : null,
      created_at: event.createdAt.toISOString(),
    }));
  }

  /** The ids the filter and search match: waiting ones oldest first, the others latest first. */
  private async matchingIds(me: number, scope: SQL, query: InboxQuery): Promise<number[]> {
    const pattern = query.search ? `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    const search = pattern
      ? sql`and (c.name ilike ${pattern}
          or c.user_profile->>'name' ilike ${pattern}
          or exists (select 1 from leads l where l.conversation_id = c.id and l.tenant_id = c.tenant_id
                     and (l.name ilike ${pattern} or l.email ilike ${pattern}))
          or exists (select 1 from messages m where m.conversation_id = c.id and m.message ilike ${pattern}))`
      : sql``;
    const order =
      query.filter === 'needs_human'
        ? sql`c.human_requested_at asc, c.id asc`
        : sql`c.last_message_at desc, c.id desc`;
    const result = (await this.db.execute(
      sql`select c.id from conversations c
        where ${scope} and ${filterCondition(query.filter, me)} ${search}
        order by ${order} limit ${query.limit}`,
    )) as unknown as { rows: Array<{ id: number }> };
    return result.rows.map((row) => Number(row.id));
  }

  /** Per filter, how many conversations and how many with unread messages, in one statement. */
  private async counts(me: number, scope: SQL): Promise<InboxList['counts']> {
    const columns = INBOX_FILTERS.map(
      (filter) =>
        sql`count(*) filter (where ${filterCondition(filter, me)})::int as ${sql.raw(`"${filter}_total"`)},
          count(*) filter (where ${filterCondition(filter, me)} and c.unread_count > 0)::int as ${sql.raw(`"${filter}_unread"`)}`,
    );
    const result = (await this.db.execute(
      sql`select ${sql.join(columns, sql`, `)} from conversations c where ${scope}`,
    )) as unknown as { rows: Array<Record<string, number>> };
    const row = result.rows[0] ?? {};
    return Object.fromEntries(
      INBOX_FILTERS.map((filter) => [
        filter,
        { total: Number(row[`${filter}_total`] ?? 0), unread: Number(row[`${filter}_unread`] ?? 0) },
      ]),
    ) as InboxList['counts'];
  }

  /** The conversations as the inbox lists them, in the order of `ids`. */
  private async rows(tenantId: number, ids: number[]): Promise<InboxConversation[]> {
    if (ids.length === 0) return [];
    const [rows, lasts, leadRows, people] = await Promise.all([
      this.db
        .select({ conversation: conversations, botName: bots.botName })
        .from(conversations)
        .innerJoin(bots, eq(bots.id, conversations.botId))
        .where(and(inArray(conversations.id, ids), eq(conversations.tenantId, tenantId))),
      this.db
        .select({ message: messages })
        .from(messages)
        .innerJoin(
          conversations,
          and(eq(messages.conversationId, conversations.id), eq(messages.seq, conversations.lastSeq)),
        )
        .where(inArray(conversations.id, ids)),
      this.db
        .select({
          conversationId: leads.conversationId,
          name: leads.name,
          email: leads.email,
          source: leads.source,
          createdAt: leads.createdAt,
        })
        .from(leads)
        .where(and(inArray(leads.conversationId, ids), eq(leads.tenantId, tenantId)))
        .orderBy(desc(leads.id)),
      this.db
        .select({ id: users.id, first: users.firstName, last: users.lastName, email: users.email })
        .from(users)
        .where(eq(users.tenantId, tenantId)),
    ]);
    const lastOf = new Map(lasts.map(({ message }) => [message.conversationId, toMessage(message)]));
    // Newest first: the latest details name the visitor, the latest contact form dates "left contact details".
    const leadOf = new Map<number, { name: string | null; email: string | null }>();
    const contactLeftAt = new Map<number, Date>();
    for (const lead of leadRows) {
      if (!leadOf.has(lead.conversationId!)) leadOf.set(lead.conversationId!, lead);
      if (lead.source === 'contact_form' && !contactLeftAt.has(lead.conversationId!))
        contactLeftAt.set(lead.conversationId!, lead.createdAt);
    }
    const nameOf = new Map(people.map((p) => [p.id, personName(p.first, p.last, p.email)]));
    const byId = new Map(rows.map((r) => [r.conversation.id, r]));
    return ids.flatMap((id) => {
      const found = byId.get(id);
      if (!found) return [];
      const row: ConversationRow = found.conversation;
      const lead = leadOf.get(id);
      const profile = (row.userProfile ?? {}) as { name?: unknown; email?: unknown };
      return [
        {
          conversation_id: row.id,
          bot_id: row.botId,
          bot_name: found.botName,
          channel: row.channel,
          handoff_state: row.handoffState,
          visitor_name:
            lead?.name ||
            (typeof profile.name === 'string' ? profile.name : null) ||
            nameOf.get(row.userId ?? 0) ||
            null,
          visitor_email: lead?.email || (typeof profile.email === 'string' ? profile.email : null),
          page_url: row.pageUrl,
          is_test: row.isTest,
          first_seen_at: row.createdAt.toISOString(),
          last_message_at: row.lastMessageAt.toISOString(),
          last_message: lastOf.get(id) ?? null,
          human_requested_at: row.humanRequestedAt?.toISOString() ?? null,
          contact_left_at: contactLeftAt.get(id)?.toISOString() ?? null,
          closed_at: row.closedAt?.toISOString() ?? null,
          admin_id: row.adminId,
          admin_name: row.adminName,
          assignee_id: row.assigneeId,
          assignee_name: row.assigneeId ? (nameOf.get(row.assigneeId) ?? null) : null,
          unread_count: row.unreadCount,
        },
      ];
    });
  }
}
