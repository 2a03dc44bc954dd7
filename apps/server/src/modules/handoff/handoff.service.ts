import {
  type ChatMessage,
  HANDOFF_TEXTS,
  type HandoffReason,
  type HandoffState,
  missedAnswer,
  type OfferAction,
} from '@parley/contracts';
import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Clock } from '../../core/clock.js';
import type { Db, DbOrTx } from '../../core/db/database.js';
import { badRequest, notFound } from '../../core/errors.js';
import { clip } from '../../core/text.js';
import { leads } from '../bots/bots.schema.js';
import type { ChatHub, ControlChange } from '../chat/chat.hub.js';
import {
  type Appended,
  appendTo,
  type ConversationRow,
  type NewMessage,
  recipientOf,
  toMessage,
} from '../chat/chat.queries.js';
import { conversationEvents, conversations, messages } from '../chat/chat.schema.js';
import type { MailService } from '../mail/mail.service.js';
import { notify } from '../notifications/notifications.service.js';
import { ownerEmails } from '../roles/roles.queries.js';
import type { UnansweredInput } from '../unanswered/unanswered.service.js';
import { type HandoffActor, next } from './handoff.machine.js';
import { noticesFor } from './visitor-notices.js';

/** A transition applied: the conversation after it, where it came from, and its stored notice. */
export type Moved = { row: ConversationRow; from: HandoffState; notice: Appended };

/** At most this many conversations per sweep step, so a first sweep over old data stays short. */
const SWEEP_BATCH = 100;

/** The contact form's button, in the notice's language. */
const contactFormOffer = (title: string): OfferAction => ({ type: 'contact_form', title });

/** What a transition sets besides the state: who holds it, since when it waits, when it closed. */
function columnsFor(to: HandoffState, actor: HandoffActor, agentName: string | null) {
  const released = { isHelpdeskInControl: false, adminId: null, adminName: null, controlTakenAt: null };
  switch (to) {
    case 'human':
      return {
        isHelpdeskInControl: true,
        adminId: actor.kind === 'agent' ? actor.userId : null,
        adminName: agentName,
        controlTakenAt: sql`now()`,
        humanRequestedAt: null,
        closedAt: null,
      };
    case 'human_requested':
      return { humanRequestedAt: sql`now()` };
    case 'bot':
      return { ...released, humanRequestedAt: null, closedAt: null };
    case 'closed':
      return { ...released, humanRequestedAt: null, closedAt: sql`now()` };
  }
}

/** The control frame (docs/realtime.md helpdesk_control) a transition sends, if who holds it changed. */
function controlChangeOf(from: HandoffState, to: HandoffState, reason: HandoffReason): ControlChange | null {
  if (to === 'human') return 'joined';
  if (from !== 'human') return null;
  return reason === 'agent_away' ? 'away' : 'back';
}

/**
 * Moves conversations through the hand-off state machine (handoff.machine.ts): each transition is
 * one transaction that locks the conversation, checks the move is allowed from its current state
 * (so of two agents taking over at once one wins), stores it with who and why, and stores the
 * notice both sides read as a system message, numbered with the conversation's other messages so it
 * shows in order, after a reload too. Announced once committed.
 */
export class HandoffService {
  constructor(
    private readonly db: Db,
    private readonly hub: ChatHub,
    private readonly options: {
      /** Read in the transition's transaction (PGlite has one connection: never beside it). */
      agentsOnline: (tx: DbOrTx, tenantId: number) => Promise<boolean>;
      /** A request nobody took within this goes back to the bot, offering the lead form. */
      waitSeconds: number;
      /** An open conversation without a message for this long closes. */
      idleSeconds: number;
      clock: Clock;
      onUnanswered?: (input: UnansweredInput) => Promise<unknown>;
      /** A person handed the conversation back to the bot: what the visitor said meanwhile gets an answer. */
      onBotBack?: (conversation: ConversationRow) => Promise<unknown>;
      /** Mails the workspace's owners a visitor's contact details (queued with the lead's commit). */
      mail?: { service: MailService; publicUrl: string };
      log?: (error: unknown, message: string) => void;
    },
  ) {}

  /**
   * One transition, announced once committed; `check` may refuse it on the locked row (throwing),
   * null when the move is not allowed from the conversation's current state.
   */
  async move(
    tenantId: number,
    conversationId: number,
    reason: HandoffReason,
    actor: HandoffActor,
    options: { agentName?: string | null; check?: (row: ConversationRow) => void } = {},
  ): Promise<Moved | null> {
    const moved = await this.db.transaction((tx) =>
      this.moveIn(tx, tenantId, conversationId, reason, actor, options),
    );
    if (moved) await this.announce(moved);
    return moved;
  }

  /** A transition inside the caller's transaction; the caller announces it after the commit. */
  async moveIn(
    tx: DbOrTx,
    tenantId: number,
    conversationId: number,
    reason: HandoffReason,
    actor: HandoffActor,
    options: { agentName?: string | null; check?: (row: ConversationRow) => void } = {},
  ): Promise<Moved | null> {
    const [row] = await tx
      .select()
      .from(conversations)
      .where(and(eq(conversations.id, conversationId), eq(conversations.tenantId, tenantId)))
      .for('update');
    if (!row) throw notFound('Conversation not found');
    options.check?.(row);
    const to = next(row.handoffState, reason);
    if (!to) return null;
    const [after] = await tx
      .update(conversations)
      .set({ handoffState: to, ...columnsFor(to, actor, options.agentName ?? null) })
      .where(eq(conversations.id, row.id))
      .returning();
    await tx.insert(conversationEvents).values({
      tenantId,
      conversationId: row.id,
      fromState: row.handoffState,
      toState: to,
      reason,
      actor: actor.kind,
      actorId: actor.kind === 'agent' ? actor.userId : null,
    });
    if (to === 'human_requested' && !row.isTest) await notifyHandoff(tx, after!);
    const { text, actions, queued } = await this.noticeOf(tx, after!, reason);
    const handoff = { from: row.handoffState, to, reason, ...(row.isTest ? { test: true } : {}) };
    // `queued`: told a place in line (agents were online), so the sweep knows whom to tell if they all leave.
    const metadata = { handoff, actions, ...(queued ? { queued: true } : {}) };
    const notice = await appendTo(tx, row.id, systemNotice(row, text, metadata), {
      announce: this.hub.storedNotification,
    });
    return { row: notice.conversation, from: row.handoffState, notice };
  }

  /** Tells this node's sockets of a committed transition (other nodes heard the NOTIFY). */
  async announce(moved: Moved): Promise<void> {
    this.hub.storedHere(moved.notice);
    const { handoff } = moved.notice.message.metadata as { handoff: { reason: HandoffReason } };
    const change = controlChangeOf(moved.from, moved.row.handoffState, handoff.reason);
    if (change)
      await this.hub.controlChanged({ tenantId: moved.row.tenantId, conversationId: moved.row.id, change });
    // Back from a person (handed back, or the agent went away): nothing the visitor wrote is left
    // unanswered (issue 31 item 7). The move is done either way.
    if (moved.from === 'human' && moved.row.handoffState === 'bot')
      await this.options
        .onBotBack?.(moved.row)
        .catch((error) => this.options.log?.(error, 'handoff: the bot could not answer at hand-back'));
  }

  /**
   * A visitor (or the playground's user) asks for a person: the conversation waits for an agent,
   * and they are told honestly what happens next. Already waiting or with an agent: they are told
   * so, and nothing changes. The question before the request goes to the unanswered queue. When the
   * bot's last answer said it did not know or was not sure, the agent reads that as the reason.
   */
  async requestHuman(conversation: ConversationRow, askedWith?: number): Promise<ChatMessage> {
    const { tenantId, id } = conversation;
    const before = await this.questionBefore(id, askedWith);
    const reason = missedAnswer(before?.replyMode) ? 'low_confidence' : 'visitor_asked';
    const moved = await this.db.transaction(async (tx) => {
      const reopened = await this.moveIn(tx, tenantId, id, 'visitor_wrote', { kind: 'visitor' });
      const requested = await this.moveIn(tx, tenantId, id, reason, { kind: 'visitor' });
      return { reopened, requested };
    });
    if (moved.reopened) await this.announce(moved.reopened);
    if (moved.requested) {
      await this.announce(moved.requested);
      await this.recordQuestionBefore(conversation, before);
      return toMessage(moved.requested.notice.message);
    }
    const TEXTS = await noticesFor(this.db, conversation);
    return this.say(
      conversation,
      conversation.handoffState === 'human' ? TEXTS.alreadyWithAgent : TEXTS.alreadyWaiting,
    );
  }

  /**
   * Requests nobody took in time go back to the bot (the visitor is offered the lead form); open
   * conversations idle too long close. Safe on every node at once: each move locks and re-checks.
   */
  async sweep(): Promise<{ unanswered: number; closed: number }> {
    const now = this.options.clock.now();
    const waitedSince = new Date(now.getTime() - this.options.waitSeconds * 1000);
    const idleSince = new Date(now.getTime() - this.options.idleSeconds * 1000);
    const waiting = await this.db
      .select({ id: conversations.id, tenantId: conversations.tenantId })
      .from(conversations)
      .where(
        and(
          eq(conversations.handoffState, 'human_requested'),
          lt(conversations.humanRequestedAt, waitedSince),
        ),
      )
      .limit(SWEEP_BATCH);
    const idle = await this.db
      .select({ id: conversations.id, tenantId: conversations.tenantId })
      .from(conversations)
      .where(
        and(
          inArray(conversations.handoffState, ['bot', 'human_requested', 'human']),
          eq(conversations.isTest, false),
          lt(conversations.lastMessageAt, idleSince),
        ),
      )
      .limit(SWEEP_BATCH);
    let unanswered = 0;
    let closed = 0;
    for (const row of waiting)
      if (await this.move(row.tenantId, row.id, 'no_agent_answered', { kind: 'system' })) unanswered += 1;
    for (const row of idle)
      if (await this.move(row.tenantId, row.id, 'idle', { kind: 'system' })) closed += 1;
    return { unanswered, closed };
  }

  /**
   * The contact form of a visitor nobody could come to (issue 31 item 5): kept as a lead of the
   * conversation, told to both sides as a system message, announced in the bell of those who work
   * the inbox and mailed to the owners, all in one transaction. Taken only where the hand-off
   * offered it; anything else is refused and changes nothing.
   */
  async leaveContact(conversation: ConversationRow, details: LeftContact): Promise<ChatMessage> {
    const { tenantId, id, botId } = conversation;
    const stored = await this.db.transaction(async (tx) => {
      if (!(await contactOffered(tx, id))) throw badRequest(HANDOFF_TEXTS.contactNotOffered);
      const [lead] = await tx
        .insert(leads)
        .values({
          tenantId,
          botId,
          conversationId: id,
          ...details,
          fields: { ...details },
          source: 'contact_form',
        })
        .returning({ id: leads.id });
      const notice = await appendTo(
        tx,
        id,
        systemNotice(
          conversation,
          (await noticesFor(tx, conversation)).contactLeft(details.name, details.email),
          {
            answer_mode: 'contact',
          },
        ),
        { announce: this.hub.storedNotification },
      );
      if (!conversation.isTest) await this.announceContact(tx, conversation, details, lead!.id);
      return notice;
    });
    this.hub.storedHere(stored);
    return toMessage(stored.message);
  }

  /** The bell of everyone who works the inbox, and a mail to the owners (when mail is set up). */
  private async announceContact(tx: DbOrTx, row: ConversationRow, details: LeftContact, leadId: number) {
    const link = `/inbox?conversation=${row.id}&bot=${row.botId}`;
    await notify(tx, {
      tenantId: row.tenantId,
      kind: 'contact_left',
      title: `${details.name} left contact details`,
      body: `${details.email} · ${clip(details.question, 140)}`,
      link,
      dedupeKey: `contact:${leadId}`,
      botId: row.botId,
    });
    const mail = this.options.mail;
    if (!mail) return;
    for (const to of await ownerEmails(tx, row.tenantId))
      await mail.service.send(
        {
          to,
          tenantId: row.tenantId,
          subject: `${details.name} left contact details`,
          text: [
            'A visitor asked for a person while nobody from your team was online, and left their details:',
            '',
            `Name: ${details.name}`,
            `Email: ${details.email}`,
            `Question: ${details.question}`,
            '',
            `Read the conversation: ${mail.publicUrl}${link}`,
          ].join('\n'),
        },
        tx,
      );
  }

  /** The notice of a transition, and what it offers (the lead form when no person can come). */
  private async noticeOf(
    tx: DbOrTx,
    row: ConversationRow,
    reason: HandoffReason,
  ): Promise<{ text: string; actions: OfferAction[]; queued?: boolean }> {
    const TEXTS = await noticesFor(tx, row);
    switch (reason) {
      case 'visitor_asked':
      case 'low_confidence':
        if (await this.options.agentsOnline(tx, row.tenantId))
          return { text: TEXTS.requested(await queuePosition(tx, row)), actions: [], queued: true };
        return hasForms(row)
          ? { text: TEXTS.nobodyOnline, actions: [contactFormOffer(TEXTS.leaveContact)] }
          : { text: TEXTS.nobodyOnlineNoForm, actions: [] };
      case 'agent_took_over':
        return { text: TEXTS.agentJoined(row.adminName ?? 'An agent'), actions: [] };
      case 'agent_handed_back':
        return { text: TEXTS.botBack, actions: [] };
      case 'agent_away':
        return { text: TEXTS.agentAway, actions: [] };
      case 'no_agent_answered':
        if (!hasForms(row)) return { text: TEXTS.noAnswerNoForm, actions: [] };
        return (await contactLeftSince(tx, row))
          ? { text: TEXTS.noAnswerContactLeft, actions: [] }
          : { text: TEXTS.noAnswer, actions: [contactFormOffer(TEXTS.leaveContact)] };
      case 'agent_closed':
        return { text: TEXTS.closed, actions: [] };
      case 'idle':
        return { text: TEXTS.closedIdle, actions: [] };
      case 'visitor_wrote':
      case 'agent_reopened':
        return { text: TEXTS.reopened, actions: [] };
    }
  }

  /** A system message that changes nothing (already waiting, already with an agent). */
  private async say(conversation: ConversationRow, text: string): Promise<ChatMessage> {
    const stored = await appendTo(this.db, conversation.id, systemNotice(conversation, text, {}), {
      announce: this.hub.storedNotification,
    });
    this.hub.storedHere(stored);
    return toMessage(stored.message);
  }

  /**
   * The visitor's last question before asking for a person (`askedWith`, the request itself, left
   * out), with the answer mode of the bot's reply to it.
   */
  private async questionBefore(conversationId: number, askedWith?: number): Promise<AskedBefore | null> {
    const [question] = await this.db
      .select({
        message: messages.message,
        // Written out: inside a select, drizzle names a column without its table, which the
        // subquery would read as its own.
        replyMode: sql<string | null>`(SELECT reply.metadata->>'answer_mode' FROM messages reply
          WHERE reply.conversation_id = messages.conversation_id AND reply.message_type = 'bot'
            AND reply.seq > messages.seq ORDER BY reply.seq LIMIT 1)`,
      })
      .from(messages)
      .where(
        and(
          eq(messages.conversationId, conversationId),
          eq(messages.messageType, 'user'),
          askedWith ? lt(messages.seq, askedWith) : undefined,
        ),
      )
      .orderBy(desc(messages.seq))
      .limit(1);
    return question ?? null;
  }

  /**
   * The question before the request goes to the unanswered queue, unless the bot answered it with
   * confidence. A visitor who got their answer and then asks for a person wants something else: the
   * agent's reply must not be credited to that question.
   */
  private async recordQuestionBefore(
    conversation: ConversationRow,
    before: AskedBefore | null,
  ): Promise<void> {
    if (!conversation.visitorId || !this.options.onUnanswered || !before) return;
    if (before.replyMode != null && CONFIDENT_MODES.includes(before.replyMode)) return;
    await this.options.onUnanswered({
      tenantId: conversation.tenantId,
      botId: conversation.botId,
      question: before.message,
      conversationId: conversation.id,
      reason: 'handoff',
    });
  }
}

/** A visitor's question and the answer mode of the bot's reply (null: none, or no mode). */
type AskedBefore = { message: string; replyMode: string | null };

/** What the contact form sends (LeftContactBody, checked). */
export type LeftContact = { name: string; email: string; question: string };

/** Whether the hand-off offered this conversation the contact form (nobody could come). */
async function contactOffered(tx: DbOrTx, conversationId: number): Promise<boolean> {
  const [offer] = await tx
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, conversationId),
        eq(messages.messageType, 'system'),
        sql`${messages.metadata}->'actions' @> '[{"type":"contact_form"}]'::jsonb`,
      ),
    )
    .limit(1);
  return offer !== undefined;
}

/**
 * Answers the bot gives only when its sources hold the answer (not_found and limit notices are not,
 * nor an answer it said it was not sure of), and the reply to a message that asked nothing: neither
 * leaves a question for the unanswered queue.
 */
const CONFIDENT_MODES = ['qna', 'extractive', 'llm', 'order', 'booking', 'small_talk'];

/** A hand-off notice to both sides of the conversation, as a system message. */
function systemNotice(row: ConversationRow, text: string, metadata: Record<string, unknown>): NewMessage {
  return {
    messageType: 'system',
    messageSource: row.channel,
    message: text,
    senderId: null,
    recipientId: recipientOf(row),
    metadata,
  };
}

/** Where the conversation stands among the workspace's visitors waiting for a person (1: next). */
async function queuePosition(tx: DbOrTx, row: ConversationRow): Promise<number> {
  const [ahead] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(conversations)
    .where(
      and(
        eq(conversations.tenantId, row.tenantId),
        eq(conversations.handoffState, 'human_requested'),
        eq(conversations.isTest, false),
        // Compared in SQL: a JS Date would drop the microseconds PostgreSQL keeps.
        sql`${conversations.humanRequestedAt} <= (select c.human_requested_at from conversations c where c.id = ${row.id})`,
      ),
    );
  return Math.max(1, ahead?.count ?? 1);
}

/**
 * Whether the conversation's client can show the contact form: the web chat (widget, chat page,
 * playground) can; on Instagram, Messenger and WhatsApp the channel already says who the person is.
 */
const hasForms = (row: ConversationRow) => row.channel === 'bot';

/** Whether the visitor sent the contact form since they last asked for a person. */
async function contactLeftSince(tx: DbOrTx, row: ConversationRow): Promise<boolean> {
  const [left] = await tx
    .select({ id: leads.id })
    .from(leads)
    .where(
      and(
        eq(leads.conversationId, row.id),
        eq(leads.tenantId, row.tenantId),
        eq(leads.source, 'contact_form'),
        sql`${leads.createdAt} >= coalesce(
          (select max(e.created_at) from conversation_events e
            where e.conversation_id = ${row.id} and e.to_state = 'human_requested'), '-infinity')`,
      ),
    )
    .limit(1);
  return left !== undefined;
}

/** The bell of everyone who works the inbox: once per request (its time names it). */
const notifyHandoff = (tx: DbOrTx, row: ConversationRow) =>
  notify(tx, {
    tenantId: row.tenantId,
    kind: 'handoff_requested',
    title: 'A visitor asks for a person',
    body: row.name,
    link: `/inbox?conversation=${row.id}&bot=${row.botId}`,
    dedupeKey: `handoff:${row.id}:${row.humanRequestedAt?.getTime() ?? 0}`,
    botId: row.botId,
  });
