import {
  type Attachment,
  BOT,
  type ChatExchange,
  type ChatMessage,
  type ConversationWithMessages,
  type MessageLimit,
} from '@parley/contracts';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../core/db/database.js';
import { badRequest, notFound } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import { type BotRow, requireBot } from '../bots/bots.queries.js';
import { bots } from '../bots/bots.schema.js';
import { bookingOfBot } from '../calendar/calendar.queries.js';
import type { Answer, AnswerService, Prepared } from './answer.service.js';
import type { ChatHub } from './chat.hub.js';
import {
  appendMessage,
  botMessagesThisMonth,
  type ConversationRow,
  countBotAnswer,
  type MessageRow,
  messagesAfter,
  messagesBefore,
  requireConversation,
  startConversation,
  toConversation,
  toMessage,
} from './chat.queries.js';
import { conversations } from './chat.schema.js';

/** Who writes: a signed-in user of the tenant (console, playground) or a widget visitor of one bot. */
export type Actor =
  | { kind: 'user'; tenantId: number; userId: number }
  | { kind: 'visitor'; tenantId: number; visitorId: string; botId: number };

export type SendRequest = {
  botId: number;
  conversationId?: number;
  message: string;
  attachments?: Attachment[];
};

export type SendHooks = {
  /** The conversation is known (and the user's message stored): subscribe before it is announced. */
  onConversation?: (conversation: ConversationRow, userMessage: ChatMessage) => void;
  onChunk?: (text: string) => void;
  signal?: AbortSignal;
};

export const LIMIT_TEXT =
  'This bot has answered all the messages its plan allows this month. Our team has been notified and will get back to you.';
const NAME_CHARS = 60;

/**
 * Conversations and their messages: a message is stored and announced, then answered by the bot
 * unless a human holds the conversation or the month's messages are used up.
 */
export class ChatService {
  constructor(
    private readonly db: Db,
    private readonly hub: ChatHub,
    private readonly answers: AnswerService,
    private readonly options: {
      monthlyLimit: number;
      /** Earlier exchanges of the conversation given to the model with each question. */
      historyTurns: number;
      /** Whether a human agent of the tenant is online (offered when the sources say nothing). */
      agentOnline: (tenantId: number) => Promise<boolean>;
    },
  ) {}

  async send(actor: Actor, request: SendRequest, hooks: SendHooks = {}): Promise<ChatExchange> {
    const bot = await this.botFor(actor, request.botId);
    const started = request.conversationId ? null : await this.start(actor, bot);
    let conversation = started?.conversation ?? (await this.conversationFor(actor, request.conversationId!));
    if (conversation.botId !== bot.id) throw badRequest('This conversation belongs to another bot');
    // Agents answer other people's conversations through the help desk, never as their author.
    if (actor.kind === 'user' && conversation.userId !== actor.userId)
      throw notFound('Conversation not found');

    // Retrieval, the model and the booking do not need the question stored: they start now, beside
    // the writes and announcements below (bench/chat measures the time to the model request).
    const preparing = conversation.isHelpdeskInControl
      ? null
      : settle(this.answers.prepare(bot, request.message, bookingOfBot(this.db, bot.id)));
    const userRow = await appendMessage(this.db, conversation, {
      messageType: 'user',
      message: request.message,
      senderId: actor.kind === 'user' ? String(actor.userId) : actor.visitorId,
      recipientId: String(bot.id),
      attachments: request.attachments ?? [],
      metadata: actor.kind === 'user' ? { user_id: actor.userId } : null,
    });
    conversation = await this.nameAfterFirstQuestion(conversation, request.message);
    const userMessage = toMessage(userRow);
    hooks.onConversation?.(conversation, userMessage);
    // Announced once the caller listens, so its own socket gets the welcome and the question too.
    // Local listeners hear at once; the wait for other processes' NOTIFY runs beside the answer.
    const announced = this.announceQuestion(conversation, started?.welcome ?? null, userRow);

    // A human holds it: the bot stays silent on every channel (issue 6).
    if (!preparing) {
      await announced;
      return { conversation_id: conversation.id, user_message: userMessage, bot_message: null };
    }
    const botRow = await this.reply(actor, bot, conversation, userRow, hooks, preparing);
    await announced;
    return { conversation_id: conversation.id, user_message: userMessage, bot_message: toMessage(botRow) };
  }

  async list(auth: AuthContext, filter: { botId?: number; userId?: number; skip: number; limit: number }) {
    const where = and(
      eq(conversations.tenantId, auth.tenantId),
      filter.botId ? eq(conversations.botId, filter.botId) : undefined,
      filter.userId ? eq(conversations.userId, filter.userId) : undefined,
    );
    const rows = await this.db
      .select()
      .from(conversations)
      .where(where)
      .orderBy(desc(conversations.lastMessageAt), desc(conversations.id))
      .offset(filter.skip)
      .limit(filter.limit);
    return rows.map(toConversation);
  }

  async get(auth: AuthContext, id: number): Promise<ConversationWithMessages> {
    const row = await requireConversation(this.db, auth.tenantId, id);
    return { ...toConversation(row), messages: (await messagesAfter(this.db, id)).map(toMessage) };
  }

  /** Messages after a sequence number: what a client that reconnects missed. */
  async history(actor: Actor, conversationId: number, afterSeq: number): Promise<ChatMessage[]> {
    const conversation = await this.conversationFor(actor, conversationId);
    return (await messagesAfter(this.db, conversation.id, afterSeq)).map(toMessage);
  }

  async remove(auth: AuthContext, id: number): Promise<void> {
    const row = await requireConversation(this.db, auth.tenantId, id);
    await this.db.delete(conversations).where(eq(conversations.id, id));
    await this.hub.conversationChanged({
      tenantId: row.tenantId,
      conversationId: row.id,
      botId: row.botId,
      deleted: true,
    });
  }

  async messageLimit(tenantId: number): Promise<MessageLimit> {
    const { used, start, end } = await botMessagesThisMonth(this.db, tenantId);
    const limit = this.options.monthlyLimit;
    return {
      used,
      limit,
      remaining: Math.max(0, limit - used),
      period_start: start.toISOString(),
      period_end: end.toISOString(),
    };
  }

  async conversationFor(actor: Actor, conversationId: number): Promise<ConversationRow> {
    const conversation = await requireConversation(this.db, actor.tenantId, conversationId);
    // A visitor reaches only their own conversations with their bot; anything else "does not exist".
    if (
      actor.kind === 'visitor' &&
      (conversation.visitorId !== actor.visitorId || conversation.botId !== actor.botId)
    ) {
      throw notFound('Conversation not found');
    }
    return conversation;
  }

  private async botFor(actor: Actor, botId: number): Promise<BotRow> {
    if (actor.kind === 'visitor' && botId !== actor.botId) throw notFound('Bot not found');
    return requireBot(this.db, actor.tenantId, botId);
  }

  private start(actor: Actor, bot: BotRow) {
    return startConversation(
      this.db,
      {
        tenantId: bot.tenantId,
        botId: bot.id,
        userId: actor.kind === 'user' ? actor.userId : null,
        visitorId: actor.kind === 'visitor' ? actor.visitorId : null,
        channel: 'bot',
      },
      bot.welcomeMessage,
    );
  }

  private async reply(
    actor: Actor,
    bot: BotRow,
    conversation: ConversationRow,
    question: MessageRow,
    hooks: SendHooks,
    preparing: Promise<Settled<Prepared>>,
  ) {
    const recipientId = actor.kind === 'user' ? String(actor.userId) : actor.visitorId;
    const [{ used }, history] = await Promise.all([
      botMessagesThisMonth(this.db, bot.tenantId),
      messagesBefore(this.db, conversation.id, question.seq, this.options.historyTurns * 2),
    ]);
    const answer =
      used >= this.options.monthlyLimit
        ? limitAnswer(hooks)
        : await this.answers.answer(
            {
              bot,
              question: question.message,
              history,
              agentOnline: () => this.options.agentOnline(bot.tenantId),
              onChunk: (text) => hooks.onChunk?.(text),
              signal: hooks.signal,
            },
            unwrap(await preparing),
          );
    const row = await this.db.transaction(async (tx) => {
      const stored = await appendMessage(tx, conversation, {
        messageType: 'bot',
        message: answer.text,
        senderId: String(bot.id),
        recipientId,
        sources: answer.sources,
        qnaId: answer.qnaId,
        promptTokens: answer.usage?.promptTokens ?? null,
        completionTokens: answer.usage?.completionTokens ?? null,
        metadata: { answer_mode: answer.mode, actions: answer.actions },
      });
      await countBotAnswer(tx, bot.tenantId);
      return stored;
    });
    await this.announce(row);
    return row;
  }

  private async announceQuestion(
    conversation: ConversationRow,
    welcome: MessageRow | null,
    question: MessageRow,
  ) {
    if (welcome) {
      await this.announce(welcome);
      await this.hub.conversationChanged({
        tenantId: conversation.tenantId,
        conversationId: conversation.id,
        botId: conversation.botId,
        deleted: false,
      });
    }
    await this.announce(question);
  }

  /** 'New Chat' until the first question, which then names it (the inbox shows it). */
  private async nameAfterFirstQuestion(conversation: ConversationRow, message: string) {
    if (conversation.name !== BOT.newConversationName) return conversation;
    const name = message.replace(/\s+/g, ' ').trim().slice(0, NAME_CHARS);
    const [renamed] = await this.db
      .update(conversations)
      .set({ name })
      .where(and(eq(conversations.id, conversation.id), eq(conversations.name, BOT.newConversationName)))
      .returning();
    return renamed ?? (await requireConversation(this.db, conversation.tenantId, conversation.id));
  }

  private announce(row: MessageRow) {
    return this.hub.stored({ tenantId: row.tenantId, conversationId: row.conversationId, messageId: row.id });
  }
}

/** The bot a visitor's identity is bound to, by uuid. */
export async function botByUuid(db: Db, uuid: string): Promise<BotRow | null> {
  const [row] = await db.select().from(bots).where(eq(bots.uuid, uuid));
  return row ?? null;
}

/** Past the month's credits: a notice instead of an answer (agents can still write). */
function limitAnswer(hooks: SendHooks): Answer {
  hooks.onChunk?.(LIMIT_TEXT);
  return { text: LIMIT_TEXT, mode: 'limit', sources: [], qnaId: null, usage: null, actions: [] };
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** A promise started early whose failure must surface where it is awaited, not as an unhandled rejection. */
function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

function unwrap<T>(settled: Settled<T>): T {
  if (!settled.ok) throw settled.error;
  return settled.value;
}
