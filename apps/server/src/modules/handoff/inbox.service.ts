import {
  type Conversation,
  type ConversationNote,
  HANDOFF_TEXTS,
  type HandoffEvent,
  type InboxConversation,
  type InboxList,
} from '@parley/contracts';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../core/db/database.js';
import { users } from '../../core/db/schema.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import { jsonReply } from '../../core/http/serializer.js';
import { toConversation } from '../chat/chat.queries.js';
import { conversationEvents, conversationNotes, conversations } from '../chat/chat.schema.js';
import { isOwner } from '../roles/roles.queries.js';
import type { HandoffService } from './handoff.service.js';
import { type InboxQuery, inboxList, inboxRow } from './inbox.queries.js';
import { requireInboxConversation, worksWithBot } from './inbox-scope.js';

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

/**
 * The agents' side of the hand-off (issue 15 item 3): the inbox by filter with counts, closing and
 * reopening, assignment, internal notes, and each conversation's transitions.
 */
export class InboxService {
  constructor(
    private readonly db: Db,
    private readonly handoff: HandoffService,
  ) {}

  /** The reply's JSON as the database builds it in one statement (it was six, and a mapping per row). */
  async list(auth: AuthContext, tenantId: number, query: InboxQuery): Promise<InboxList> {
    if (tenantId !== auth.tenantId) throw notFound('Tenant not found');
    return jsonReply(await inboxList(this.db, auth, query));
  }

  async close(auth: AuthContext, id: number): Promise<Conversation> {
    await requireInboxConversation(this.db, auth, id);
    const moved = await this.handoff.move(auth.tenantId, id, 'agent_closed', {
      kind: 'agent',
      userId: auth.userId,
    });
    if (!moved) throw conflict(HANDOFF_TEXTS.alreadyClosed);
    return toConversation(moved.row);
  }

  async reopen(auth: AuthContext, id: number): Promise<Conversation> {
    await requireInboxConversation(this.db, auth, id);
    const moved = await this.handoff.move(auth.tenantId, id, 'agent_reopened', {
      kind: 'agent',
      userId: auth.userId,
    });
    if (!moved) throw conflict(HANDOFF_TEXTS.notClosed);
    return toConversation(moved.row);
  }

  /**
   * Assigns to a teammate of the workspace who works with the conversation's bot (or nobody): who
   * should follow it up. A teammate restricted to other bots would never see it.
   */
  async assign(auth: AuthContext, id: number, userId: number | null): Promise<InboxConversation> {
    const conversation = await requireInboxConversation(this.db, auth, id);
    if (userId !== null) await this.requireAssignee(auth.tenantId, userId, conversation.botId);
    await this.db
      .update(conversations)
      .set({ assigneeId: userId })
      .where(and(eq(conversations.id, id), eq(conversations.tenantId, auth.tenantId)));
    return (await inboxRow(this.db, auth.tenantId, id))!;
  }

  private async requireAssignee(tenantId: number, userId: number, botId: number): Promise<void> {
    const [teammate] = await this.db
      .select({ restricted: users.botsRestricted, type: users.userType })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.tenantId, tenantId)));
    if (!teammate || teammate.type === 'partner') throw badRequest(HANDOFF_TEXTS.assigneeNotFound);
    const roles = [{ is_owner: await isOwner(this.db, tenantId, userId) }];
    const reader = { tenantId, userId, user: { all_bots: !teammate.restricted, roles } };
    if (!(await worksWithBot(this.db, reader, botId))) throw badRequest(HANDOFF_TEXTS.assigneeNoBot);
  }

  async notes(auth: AuthContext, id: number): Promise<ConversationNote[]> {
    await requireInboxConversation(this.db, auth, id);
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
    await requireInboxConversation(this.db, auth, id);
    const [note] = await this.db
      .insert(conversationNotes)
      .values({ tenantId: auth.tenantId, conversationId: id, authorId: auth.userId, body })
      .returning();
    return toNote(note!, personName(auth.user.first_name, auth.user.last_name, auth.user.email));
  }

  async events(auth: AuthContext, id: number): Promise<HandoffEvent[]> {
    await requireInboxConversation(this.db, auth, id);
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
}
