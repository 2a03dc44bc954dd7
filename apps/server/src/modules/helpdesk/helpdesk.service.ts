import {
  BOT,
  type ChatMessage,
  type ConversationWithMessages,
  type GroupedChat,
  type GroupedConversation,
  HELPDESK_TEXTS,
  type HelpdeskControlBody,
  type HelpdeskControlStatus,
  type HelpdeskConversation,
  type Presence,
  type UnreadConversations,
  type UserProfile,
  welcomeOf,
} from '@parley/contracts';
import { and, desc, eq, inArray, isNotNull, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../core/db/database.js';
import { users } from '../../core/db/schema.js';
import { AppError, conflict, forbidden, notFound } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import { requireBot, worksWithBotSql } from '../bots/bots.queries.js';
import { bots } from '../bots/bots.schema.js';
import { visitorWelcomeOf } from '../bots/visitor-language.js';
import type { ChatHub } from '../chat/chat.hub.js';
import {
  appendMessage,
  type ConversationRow,
  type MessageRow,
  messagesAfter,
  recipientOf,
  requireConversation,
  startConversation,
  toConversation,
  toMessage,
} from '../chat/chat.queries.js';
import { conversationEvents, conversations, messages } from '../chat/chat.schema.js';
import { messagesRatedBefore } from '../chat/rated-history.js';
import type { HandoffService, Moved } from '../handoff/handoff.service.js';
import { botScope, requireInboxConversation, worksWithBot } from '../handoff/inbox-scope.js';
import { replyWindowOf } from '../handoff/reply-window.js';
import { agentPresence } from './helpdesk.schema.js';
import {
  agentGone,
  expireDeadNodes,
  heartbeat,
  nodeStopped,
  ONLINE_SECONDS,
  type PresenceKey,
  presenceOf,
  socketClosed,
  socketOpened,
} from './presence.queries.js';

/** 409: another agent holds the conversation; the inbox says who. */
export class HeldByAnother extends AppError {
  constructor(
    readonly adminId: number | null,
    readonly adminName: string | null,
  ) {
    super('conflict', HELPDESK_TEXTS.heldBy(adminName ?? 'another agent'));
  }
}

export type GroupedFilter = {
  channel?: string;
  holder?: 'bot' | 'human';
  search?: string;
  limit: number;
};

/** Taken by the away sweep on every node; only one node sweeps at a time. */
const SWEEP_LOCK_KEY = 72_541_006;

const statusOf = (row: ConversationRow): HelpdeskControlStatus => ({
  conversation_id: row.id,
  is_helpdesk_in_control: row.isHelpdeskInControl,
  admin_id: row.adminId,
  admin_name: row.adminName,
});

const agentName = (auth: AuthContext) =>
  `${auth.user.first_name} ${auth.user.last_name}`.replace(/\s+/g, ' ').trim() || auth.user.email;

const isOwner = (auth: AuthContext) => auth.user.roles.some((role) => role.is_owner);

/**
 * The support inbox (console.md sections 3 and 4, issue 6): agents take a conversation over from
 * the bot and hand it back, reply while they hold it, see unread counts and each other's presence.
 * Every change is stored first, then announced to every node's sockets: a message by the statement
 * that stores it (docs/realtime.md), other changes on the event bus.
 */
export class HelpdeskService {
  constructor(
    private readonly db: Db,
    private readonly hub: ChatHub,
    private readonly handoff: HandoffService,
    private readonly options: { awaySeconds: number },
  ) {}

  // Control -------------------------------------------------------------------------------------

  async controlStatus(auth: AuthContext, tenantId: number, id: number): Promise<HelpdeskControlStatus> {
    requireOwnTenant(auth, tenantId);
    return statusOf(await requireInboxConversation(this.db, auth, id));
  }

  /** Whether the agent works with this bot of their tenant (a restricted agent: one of theirs). */
  worksWithBot(auth: AuthContext, botId: number): Promise<boolean> {
    return worksWithBot(this.db, auth, botId);
  }

  /** A conversation the agent may open (their tenant's, of a bot they work with), or 404. */
  async requireVisible(auth: AuthContext, id: number): Promise<void> {
    await requireInboxConversation(this.db, auth, id);
  }

  async bulkStatus(auth: AuthContext, tenantId: number, ids: number[]): Promise<HelpdeskControlStatus[]> {
    requireOwnTenant(auth, tenantId);
    if (ids.length === 0) return [];
    const rows = await this.db
      .select()
      .from(conversations)
      .where(
        and(
          eq(conversations.tenantId, auth.tenantId),
          inArray(conversations.id, ids),
          botScope(auth, sql`${conversations.botId}`),
        ),
      )
      .orderBy(conversations.id);
    return rows.map(statusOf);
  }

  /**
   * Take over or hand back. Taking over is one conditional UPDATE, so of two agents at once exactly
   * one wins; the other is told who holds it. Handing back is for the holder (or a workspace owner).
   */
  async setControl(auth: AuthContext, id: number, body: HelpdeskControlBody): Promise<HelpdeskControlStatus> {
    requireOwnTenant(auth, body.tenant_id);
    // A conversation's bot never changes: checked once, before the transition locks the row.
    await requireInboxConversation(this.db, auth, id);
    return body.is_helpdesk_in_control ? this.take(auth, id) : this.release(auth, id);
  }

  private async take(auth: AuthContext, id: number): Promise<HelpdeskControlStatus> {
    let unchanged: ConversationRow | null = null;
    const moved = await this.handoff.move(
      auth.tenantId,
      id,
      'agent_took_over',
      { kind: 'agent', userId: auth.userId },
      {
        agentName: agentName(auth),
        check: (row) => {
          if (row.handoffState !== 'human') return;
          // Already ours: nothing changes and nobody is told again.
          if (row.adminId === auth.userId) unchanged = row;
          else throw new HeldByAnother(row.adminId, row.adminName);
        },
      },
    );
    return statusOf(moved?.row ?? unchanged ?? (await requireConversation(this.db, auth.tenantId, id)));
  }

  /** Handing back is for the holder, or a workspace owner; another agent is told who holds it. */
  private async release(auth: AuthContext, id: number): Promise<HelpdeskControlStatus> {
    const moved = await this.handoff.move(
      auth.tenantId,
      id,
      'agent_handed_back',
      { kind: 'agent', userId: auth.userId },
      {
        check: (row) => {
          if (
            row.handoffState === 'human' &&
            row.adminId !== null &&
            row.adminId !== auth.userId &&
            !isOwner(auth)
          )
            throw new HeldByAnother(row.adminId, row.adminName);
        },
      },
    );
    return statusOf(moved?.row ?? (await requireConversation(this.db, auth.tenantId, id)));
  }

  /** An agent's message: stored as message_type helpdesk, then delivered like any stored message. */
  async reply(auth: AuthContext, id: number, text: string): Promise<ChatMessage> {
    const conversation = await requireInboxConversation(this.db, auth, id);
    if (!conversation.isHelpdeskInControl || conversation.adminId !== auth.userId) {
      throw conflict(HELPDESK_TEXTS.notHolding);
    }
    // Instagram and Messenger: Meta allows no reply once the window has closed.
    const window = await replyWindowOf(this.db, conversation, new Date());
    if (window?.state === 'closed') throw conflict(window.reason!);
    const stored = await appendMessage(
      this.db,
      conversation.id,
      {
        messageType: 'helpdesk',
        messageSource: conversation.channel,
        message: text.trim(),
        senderId: String(auth.userId),
        recipientId: recipientOf(conversation),
        metadata: { user_id: auth.userId, answer_mode: 'helpdesk' },
      },
      // Still held by this agent when written (it may have been handed back meanwhile).
      { guard: { tenantId: auth.tenantId, heldBy: auth.userId }, announce: this.hub.storedNotification },
    );
    if (!stored) throw conflict(HELPDESK_TEXTS.notHolding);
    this.hub.storedHere(stored);
    return toMessage(stored.message);
  }

  /**
   * Agents gone too long: a conversation whose holder has had no help-desk socket (on any node) for
   * awaySeconds goes back to the bot, with a stored notice and a control frame. Run by every node on
   * a timer; a transaction-level advisory lock lets one node at a time do it.
   */
  async sweep(): Promise<{ released: number[] }> {
    const result = await this.db.transaction(async (tx) => {
      // Both drivers (node-postgres, PGlite) answer raw SQL with { rows }.
      const locked = (await tx.execute(
        sql`select pg_try_advisory_xact_lock(${SWEEP_LOCK_KEY}) as ok`,
      )) as unknown as {
        rows: Array<{ ok: boolean }>;
      };
      const lock = locked.rows[0];
      if (!lock?.ok) return null;
      const deadTenants = await expireDeadNodes(tx);
      const away = sql`now() - make_interval(secs => ${this.options.awaySeconds})`;
      const awayAgent = and(
        // Held by a person on the channel itself (a reply from Meta's inbox): no presence to lose.
        isNotNull(conversations.adminId),
        sql`not exists (select 1 from ${agentPresence} p where p.user_id = ${conversations.adminId}
          and p.socket_count > 0 and p.last_seen > now() - make_interval(secs => ${ONLINE_SECONDS}))`,
        sql`greatest(${conversations.controlTakenAt},
          (select max(p.last_seen) from ${agentPresence} p where p.user_id = ${conversations.adminId})) < ${away}`,
      );
      // Taken over by an agent since removed from the workspace (admin_id was set null with them):
      // nobody can answer there any more, so it goes back to the bot at once.
      const removedAgent = and(
        isNull(conversations.adminId),
        sql`(select e.actor from ${conversationEvents} e where e.conversation_id = ${conversations.id}
          and e.to_state = 'human' order by e.id desc limit 1) = 'agent'`,
      );
      const gone = await tx
        .select({ id: conversations.id, tenantId: conversations.tenantId })
        .from(conversations)
        .where(and(eq(conversations.handoffState, 'human'), or(awayAgent, removedAgent)));
      const released: Moved[] = [];
      for (const row of gone) {
        const moved = await this.handoff.moveIn(tx, row.tenantId, row.id, 'agent_away', { kind: 'system' });
        if (moved) released.push(moved);
      }
      released.push(...(await this.releaseUnserved(tx)));
      return { released, deadTenants };
    });
    if (!result) return { released: [] };
    for (const tenantId of result.deadTenants) await this.hub.presenceChanged(tenantId);
    for (const moved of result.released) await this.handoff.announce(moved);
    // Requests nobody took, and idle conversations (each move locks and re-checks its row).
    await this.handoff.sweep();
    return { released: result.released.map((moved) => moved.row.id) };
  }

  /**
   * Visitors nobody can come to any more (in the sweep's transaction): a conversation held by an
   * agent since restricted away from its bot goes back to the bot; a visitor told a place in line
   * (agents were online) while nobody who works with the bot has been online for awaySeconds is told
   * nobody could join and offered the contact form, rather than waiting out HANDOFF_WAIT_SECONDS.
   */
  private async releaseUnserved(tx: DbOrTx): Promise<Moved[]> {
    const away = sql`now() - make_interval(secs => ${this.options.awaySeconds})`;
    const servers = sql`${agentPresence} p where p.tenant_id = ${conversations.tenantId}
      and ${worksWithBotSql(sql`p.user_id`, sql`${conversations.botId}`)}`;
    const rows = await tx
      .select({ id: conversations.id, tenantId: conversations.tenantId, state: conversations.handoffState })
      .from(conversations)
      .where(
        or(
          and(
            eq(conversations.handoffState, 'human'),
            isNotNull(conversations.adminId),
            sql`not ${worksWithBotSql(sql`${conversations.adminId}`, sql`${conversations.botId}`)}`,
          ),
          and(
            eq(conversations.handoffState, 'human_requested'),
            eq(conversations.isTest, false),
            // Told a place in line (agents were online then), and waiting longer than a blip...
            sql`${conversations.humanRequestedAt} < ${away}`,
            sql`(select m.metadata->>'queued' from ${messages} m where m.conversation_id = ${conversations.id}
              and m.message_type = 'system' and m.metadata->'handoff'->>'to' = 'human_requested'
              order by m.seq desc limit 1) = 'true'`,
            // ...while nobody who works with the bot is online, nor has been for awaySeconds.
            sql`not exists (select 1 from ${servers} and (p.last_seen >= ${away}
              or (p.socket_count > 0 and p.last_seen > now() - make_interval(secs => ${ONLINE_SECONDS}))))`,
          ),
        ),
      )
      .limit(100);
    const moved: Moved[] = [];
    for (const row of rows) {
      const reason = row.state === 'human' ? 'agent_away' : 'no_agent_answered';
      const done = await this.handoff.moveIn(tx, row.tenantId, row.id, reason, { kind: 'system' });
      if (done) moved.push(done);
    }
    return moved;
  }

  // Conversations ---------------------------------------------------------------------------------

  async history(auth: AuthContext, id: number, afterSeq: number): Promise<ChatMessage[]> {
    await requireInboxConversation(this.db, auth, id);
    return (await messagesAfter(this.db, id, afterSeq)).map(toMessage);
  }

  /**
   * A page of the open thread: the conversation as the full read gives it, with the newest `limit`
   * messages before `beforeSeq` (the inbox opens on the latest and loads older ones on scrolling up).
   */
  async thread(
    auth: AuthContext,
    id: number,
    page: { beforeSeq?: number; limit: number },
    raterKey: string,
  ): Promise<HelpdeskConversation> {
    const row = await requireInboxConversation(this.db, auth, id);
    const [found, window] = await Promise.all([
      messagesRatedBefore(this.db, row.id, raterKey, page),
      replyWindowOf(this.db, row, new Date()),
    ]);
    return { ...toConversation(row), ...(window ? { reply_window: window } : {}), ...found };
  }

  /** 'New Chat' with a bot, seeded with its welcome message, announced to the inbox. */
  async newChat(auth: AuthContext, botId: number): Promise<ConversationWithMessages> {
    const bot = await requireBot(this.db, auth.tenantId, botId);
    if (!(await worksWithBot(this.db, auth, bot.id))) throw notFound('Bot not found');
    const { conversation, welcome } = await startConversation(
      this.db,
      // The inbox's own New Chat (console.md section 4): listed there, unlike the playground's tests.
      { tenantId: auth.tenantId, botId: bot.id, userId: auth.userId, visitorId: null, channel: 'bot' },
      await visitorWelcomeOf(this.db, bot),
      this.hub.startAnnouncements,
    );
    this.hub.startedHere(conversation);
    this.hub.storedHere(welcome);
    return { ...toConversation(conversation), messages: [toMessage(welcome.message)] };
  }

  /**
   * Per bot, its conversations (most recent first, at most `limit` per bot), bots ordered by their
   * latest message. Without filters, bots with no conversation yet follow, by name.
   */
  async grouped(auth: AuthContext, tenantId: number, filter: GroupedFilter): Promise<GroupedChat[]> {
    requireOwnTenant(auth, tenantId);
    // Playground chats are the owner's tests: not in the inbox (the hand-off inbox shows them on request).
    const conditions: Array<SQL | undefined> = [
      eq(conversations.tenantId, auth.tenantId),
      eq(conversations.isTest, false),
      botScope(auth, sql`${conversations.botId}`),
    ];
    if (filter.channel) conditions.push(eq(conversations.channel, filter.channel));
    if (filter.holder) conditions.push(eq(conversations.isHelpdeskInControl, filter.holder === 'human'));
    if (filter.search) {
      const pattern = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      conditions.push(
        or(
          sql`${conversations.name} ilike ${pattern}`,
          sql`exists (select 1 from ${messages} m where m.conversation_id = ${conversations.id} and m.message ilike ${pattern})`,
        ),
      );
    }
    const ranked = this.db
      .select({
        id: conversations.id,
        rank: sql<number>`row_number() over (partition by ${conversations.botId} order by ${conversations.lastMessageAt} desc, ${conversations.id} desc)`.as(
          'rank',
        ),
      })
      .from(conversations)
      .where(and(...conditions))
      .as('ranked');
    const ids = (
      await this.db.select({ id: ranked.id }).from(ranked).where(lte(ranked.rank, filter.limit))
    ).map((r) => r.id);
    const [rows, firstTwo, lasts, botRows] = await Promise.all([
      ids.length
        ? this.db
            .select()
            .from(conversations)
            .where(inArray(conversations.id, ids))
            .orderBy(desc(conversations.lastMessageAt), desc(conversations.id))
        : [],
      ids.length
        ? this.db
            .select()
            .from(messages)
            .where(and(inArray(messages.conversationId, ids), lte(messages.seq, 2)))
        : [],
      ids.length
        ? this.db
            .select({ message: messages })
            .from(messages)
            .innerJoin(
              conversations,
              and(eq(messages.conversationId, conversations.id), eq(messages.seq, conversations.lastSeq)),
            )
            .where(inArray(conversations.id, ids))
        : [],
      this.db
        .select({ id: bots.id, name: bots.botName, welcome: bots.welcomeMessage })
        .from(bots)
        .where(and(eq(bots.tenantId, auth.tenantId), botScope(auth, sql`${bots.id}`)))
        .orderBy(bots.botName),
    ]);
    const userIds = [...new Set(rows.flatMap((r) => (r.userId ? [r.userId] : [])))];
    const people = userIds.length
      ? await this.db
          .select({ id: users.id, first: users.firstName, last: users.lastName })
          .from(users)
          .where(and(inArray(users.id, userIds), eq(users.tenantId, auth.tenantId)))
      : [];
    const nameOfUser = new Map(people.map((p) => [p.id, `${p.first} ${p.last}`.trim()]));
    const lastOf = new Map(lasts.map((l) => [l.message.conversationId, toMessage(l.message)]));
    const openingOf = new Map<number, MessageRow[]>();
    for (const m of firstTwo)
      openingOf.set(m.conversationId, [...(openingOf.get(m.conversationId) ?? []), m]);
    const botsById = new Map(botRows.map((b) => [b.id, b]));

    const groups = new Map<number, GroupedChat>();
    for (const row of rows) {
      const bot = botsById.get(row.botId);
      if (!bot) continue;
      let group = groups.get(bot.id);
      if (!group) {
        group = { bot_id: bot.id, bot_name: bot.name, unread: false, conversations: [] };
        groups.set(bot.id, group);
      }
      const opening = (openingOf.get(row.id) ?? []).sort((x, y) => x.seq - y.seq);
      group.unread ||= row.unreadCount > 0;
      group.conversations.push(
        grouped(row, convName(row, opening, bot), lastOf.get(row.id) ?? null, nameOfUser),
      );
    }
    const result = [...groups.values()];
    const unfiltered = !filter.channel && !filter.holder && !filter.search;
    if (unfiltered) {
      for (const bot of botRows) {
        if (!groups.has(bot.id))
          result.push({ bot_id: bot.id, bot_name: bot.name, unread: false, conversations: [] });
      }
    }
    return result;
  }

  // Unread ----------------------------------------------------------------------------------------

  async unread(auth: AuthContext, tenantId: number): Promise<UnreadConversations> {
    requireOwnTenant(auth, tenantId);
    const [rows, botRows] = await Promise.all([
      this.db
        .select({ id: conversations.id, botId: conversations.botId, unread: conversations.unreadCount })
        .from(conversations)
        .where(
          and(
            eq(conversations.tenantId, auth.tenantId),
            sql`${conversations.unreadCount} > 0`,
            botScope(auth, sql`${conversations.botId}`),
          ),
        )
        .orderBy(desc(conversations.lastMessageAt)),
      this.db
        .select({ id: bots.id })
        .from(bots)
        .where(and(eq(bots.tenantId, auth.tenantId), botScope(auth, sql`${bots.id}`)))
        .orderBy(bots.id),
    ]);
    const perBot = new Map<number, number>();
    for (const row of rows) perBot.set(row.botId, (perBot.get(row.botId) ?? 0) + row.unread);
    return {
      conversations: rows.map((r) => ({ conversation_id: r.id, bot_id: r.botId, unread_count: r.unread })),
      bots: botRows.map((b) => ({
        bot_id: b.id,
        unread: (perBot.get(b.id) ?? 0) > 0,
        unread_count: perBot.get(b.id) ?? 0,
      })),
      total: rows.reduce((sum, r) => sum + r.unread, 0),
    };
  }

  async markRead(auth: AuthContext, id: number): Promise<void> {
    await requireInboxConversation(this.db, auth, id);
    const [row] = await this.db
      .update(conversations)
      .set({ unreadCount: 0 })
      .where(and(eq(conversations.id, id), eq(conversations.tenantId, auth.tenantId)))
      .returning({ id: conversations.id, botId: conversations.botId });
    if (!row) throw notFound('Conversation not found');
    await this.hub.unreadChanged({
      tenantId: auth.tenantId,
      conversationId: row.id,
      botId: row.botId,
      unreadCount: 0,
    });
  }

  // Presence --------------------------------------------------------------------------------------

  presence(tenantId: number): Promise<Presence> {
    return presenceOf(this.db, tenantId);
  }

  async ownPresence(auth: AuthContext, tenantId: number): Promise<Presence> {
    requireOwnTenant(auth, tenantId);
    return presenceOf(this.db, auth.tenantId);
  }

  /** POST /chat/websocket/disconnect: the caller (only) is offline now, on every node. */
  async disconnect(auth: AuthContext, body: { user_id: number; tenant_id: number; is_admin: boolean }) {
    requireOwnTenant(auth, body.tenant_id);
    if (body.user_id !== auth.userId) throw forbidden('You can only disconnect yourself');
    if (!body.is_admin) return;
    await agentGone(this.db, auth.tenantId, auth.userId);
    await this.hub.presenceChanged(auth.tenantId);
  }

  async socketOpened(key: PresenceKey): Promise<void> {
    await socketOpened(this.db, key);
    await this.hub.presenceChanged(key.tenantId);
  }

  async socketClosed(key: PresenceKey): Promise<void> {
    await socketClosed(this.db, key);
    await this.hub.presenceChanged(key.tenantId);
  }

  heartbeat(nodeId: string): Promise<void> {
    return heartbeat(this.db, nodeId);
  }

  async nodeStopped(nodeId: string): Promise<void> {
    for (const tenantId of await nodeStopped(this.db, nodeId)) await this.hub.presenceChanged(tenantId);
  }
}

/** A tenant id in a path, query or body that is not the caller's: as if it did not exist. */
function requireOwnTenant(auth: AuthContext, tenantId: number): void {
  if (tenantId !== auth.tenantId) throw notFound('Tenant not found');
}

/** The first message, or the second when the first is the bot's welcome (section 3 Grouped chat). */
function convName(
  row: ConversationRow,
  opening: MessageRow[],
  bot: { name: string; welcome: string | null },
): string {
  const [first, second] = opening;
  if (!first) return row.name;
  // Stored as the welcome (in the visitor's language), or, before that was marked, its greeting
  // now, the default one naming it, or the greeting of bots made before that default.
  const welcomes = new Set([BOT.legacyWelcomeMessage, welcomeOf(bot.welcome, bot.name)]);
  const marked = (first.metadata as { welcome?: boolean } | null)?.welcome === true;
  const isWelcome =
    first.seq === 1 && first.messageType === 'bot' && (marked || welcomes.has(first.message.trim()));
  const chosen = isWelcome ? second : first;
  // A hand-off notice is not what the visitor said: the conversation keeps its own name.
  if (!chosen || chosen.messageType === 'system') return row.name;
  return chosen.message.replace(/\s+/g, ' ').trim().slice(0, 120);
}

function grouped(
  row: ConversationRow,
  name: string,
  last: ChatMessage | null,
  nameOfUser: Map<number, string>,
): GroupedConversation {
  return {
    conversation_id: row.id,
    convName: name,
    channel: row.channel,
    instagram_account_id: row.instagramAccountId,
    messenger_account_id: row.messengerAccountId,
    whatsapp_phone_number_id: row.whatsappPhoneNumberId,
    user_profile: profileOf(row, nameOfUser),
    last_message: last,
    last_message_at: row.lastMessageAt.toISOString(),
    unread_count: row.unreadCount,
    is_helpdesk_in_control: row.isHelpdeskInControl,
    admin_id: row.adminId,
    admin_name: row.adminName,
  };
}

/** The visitor as the inbox shows them: the channel's stored profile, else what the conversation knows. */
function profileOf(row: ConversationRow, nameOfUser: Map<number, string>): UserProfile {
  const stored = (row.userProfile ?? {}) as Record<string, unknown>;
  const text = (...keys: string[]) => {
    for (const key of keys) {
      const value = stored[key];
      if (typeof value === 'string' && value.trim()) return value.trim();
    }
    return null;
  };
  const first = text('first_name');
  const last = text('last_name');
  const name =
    text('name', 'full_name', 'profile_name') ??
    ([first, last].filter(Boolean).join(' ') || null) ??
    (row.userId ? (nameOfUser.get(row.userId) ?? null) : null);
  return {
    name: name ?? (row.userId ? (nameOfUser.get(row.userId) ?? null) : null),
    profilePicture: text('profile_picture_url', 'profile_picture', 'picture'),
    platform: row.channel === 'bot' ? 'web' : row.channel,
    phoneNumber: text('phoneNumber', 'phone', 'phone_number', 'wa_id'),
    userId:
      text('instagram_user_id', 'messenger_user_id', 'wa_id') ??
      row.visitorId ??
      (row.userId ? String(row.userId) : null),
    lastUpdated: row.lastMessageAt.toISOString(),
    source: row.channel,
  };
}
