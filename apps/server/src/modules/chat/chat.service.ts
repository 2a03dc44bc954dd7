import {
  type Attachment,
  type ChatExchange,
  type ChatMessage,
  type Conversation,
  type ConversationWithMessages,
  type MessageLimit,
  missedAnswer,
  type VisitorLanguage,
} from '@parley/contracts';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../core/db/database.js';
import { isUniqueViolation } from '../../core/db/errors.js';
import { badRequest, notFound } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import { jsonReply } from '../../core/http/serializer.js';
import type { RaterKeys } from '../analytics/rater.js';
import type { BotCache } from '../bots/bot-cache.js';
import type { BotRow } from '../bots/bots.queries.js';
import { sourceLanguagesOf, visitorWelcomeOf } from '../bots/visitor-language.js';
import { bookingOfBot } from '../calendar/calendar.queries.js';
import type { HandoffService, LeftContact } from '../handoff/handoff.service.js';
import { asksForHuman } from '../handoff/intent.js';
import { replyWindowOf } from '../handoff/reply-window.js';
import type { Language } from '../knowledge/languages.js';
import type { UnansweredInput } from '../unanswered/unanswered.service.js';
import type { Answer, AnswerService, Prepared } from './answer.service.js';
import type { ChatHub } from './chat.hub.js';
import {
  type AnswerContext,
  type Appended,
  type AppendOptions,
  appendMessage,
  appendTo,
  botMessagesThisMonth,
  type ConversationRow,
  conversationPage,
  type MessageRow,
  messageByClientId,
  messagesBefore,
  type NewMessage,
  requireConversation,
  startConversation,
  startConversationWith,
  toConversation,
  toMessage,
} from './chat.queries.js';
import { conversations, messages } from './chat.schema.js';
import { messagesRatedBy } from './rated-history.js';
import { replyTexts, toldLanguageOf } from './reply-texts.js';
import { smallTalkOf } from './small-talk.js';

/** Who writes: a signed-in user of the tenant (console, playground) or a widget visitor of one bot. */
export type Actor =
  | { kind: 'user'; tenantId: number; userId: number }
  | {
      kind: 'visitor';
      tenantId: number;
      visitorId: string;
      botId: number;
      /** The page the widget is on, kept with a conversation it starts. */
      pageUrl?: string | null;
      /** The language the widget speaks to the visitor in, kept with a conversation it starts. */
      language?: VisitorLanguage;
      /** A channel user (Instagram, Messenger) rather than a widget visitor. */
      origin?: ChannelOrigin;
    };

/** Where a channel user's message came from, as its conversation and message keep it. */
export type ChannelOrigin = {
  channel: 'instagram' | 'messenger' | 'whatsapp';
  /** The connected account's id (WhatsApp: the phone number id), in the conversation's column of its channel. */
  accountId: string;
  /** The user's profile (name, picture), kept on a conversation it starts. */
  profile: Record<string, unknown> | null;
  /** The message as the channel gave it (console.md, message_metadata). */
  metadata: Record<string, unknown>;
  /** The account is linked to no bot: the message waits for agents and the bot stays silent. */
  agentsOnly: boolean;
};

export type SendRequest = {
  botId: number;
  conversationId?: number;
  message: string;
  attachments?: Attachment[];
  /**
   * The client's id for the message (a widget's own; a channel's message id): sent again, after a
   * reconnect or by a job run again, it is stored and answered once.
   */
  clientId?: string;
  /**
   * A job run again after its first run died: the question that run stored is answered now if it
   * is still the conversation's last word (a socket's copy is not: the first answer may be under way).
   */
  answerIfLeft?: boolean;
};

/** `replayed`: the message was stored before (its client id); nothing was stored or answered now. */
export type SendResult = ChatExchange & { replayed?: true };

export type SendHooks = {
  /** The conversation is known (and the user's message stored): subscribe before it is announced. */
  onConversation?: (conversation: ConversationRow, userMessage: ChatMessage) => void;
  onChunk?: (text: string) => void;
  signal?: AbortSignal;
};

/** Conversations whose holder this node remembers (a hint only; the write decides). */
const HELD_HINTS = 10_000;

/**
 * Conversations and their messages: a message is stored and announced, then answered by the bot
 * unless a human holds the conversation or the month's messages are used up.
 */
export class ChatService {
  /** Conversation id → whether a human held it at its last message on this node (bounded). */
  private readonly held = new Map<number, boolean>();

  constructor(
    private readonly db: Db,
    private readonly hub: ChatHub,
    private readonly bots: BotCache,
    private readonly answers: AnswerService,
    private readonly handoff: HandoffService,
    private readonly options: {
      /** The bot answers the workspace's plan (and add-ons) allow per calendar month. */
      monthlyLimit: (tenantId: number) => Promise<number>;
      /** Told of each bot answer counted, to notice 80 % and 100 % of the allowance. */
      onUsage?: (tenantId: number, used: number, limit: number) => void;
      /** Earlier exchanges of the conversation given to the model with each question. */
      historyTurns: number;
      /** Whether a human agent of the tenant is online (offered when the sources say nothing). */
      agentOnline: (tenantId: number) => Promise<boolean>;
      /** A visitor's question the bot found nothing for: the owner's queue of unanswered questions. */
      onUnanswered?: (input: UnansweredInput) => Promise<unknown>;
      /** How ratings are keyed: a history read shows the reader's own thumbs on each answer. */
      raterKeys: RaterKeys;
    },
  ) {}

  async send(actor: Actor, request: SendRequest, hooks: SendHooks = {}): Promise<SendResult> {
    const bot = await this.botFor(actor, request.botId);
    // Retrieval, the model and the booking do not need the question stored: unless this node saw a
    // human holding the conversation, they start now, beside the write (bench/chat measures the time
    // to the model request). The write says who holds it for certain.
    const expectHeld = request.conversationId !== undefined && this.held.get(request.conversationId) === true;
    let preparing = expectHeld ? null : this.prepare(bot, request.message);
    // Expecting to answer, the write also reads what the answer needs (the month's usage, history).
    const context = expectHeld ? undefined : { history: this.options.historyTurns * 2 };
    let written: { welcome: Appended | null; question: Appended };
    try {
      written = await this.store(actor, bot, request, context);
    } catch (error) {
      // Sent again after a reconnect, though the server had it: the same message, not a second one.
      const before = await this.sentBefore(actor, bot, request, error);
      if (!before) throw error;
      const left = before.conversation.lastSeq === before.message.seq;
      if (request.answerIfLeft && left && !botStaysSilent(actor, before.conversation))
        await this.answerLeftOver(before.conversation);
      return this.replay(before, hooks);
    }
    const { welcome, question } = written;
    const conversation = question.conversation;
    this.remember(conversation);
    const userMessage = toMessage(question.message);
    hooks.onConversation?.(conversation, userMessage);
    // Announced once the caller listens, so its own socket gets the welcome and the question too;
    // other nodes were told by the writes themselves.
    if (welcome) {
      this.hub.startedHere(welcome.conversation);
      this.hub.storedHere(welcome);
    }
    this.hub.storedHere(question);

    // A human holds it, or the channel account has no bot: the bot stays silent (issues 6, 16).
    if (botStaysSilent(actor, conversation)) {
      return { conversation_id: conversation.id, user_message: userMessage, bot_message: null };
    }
    // The visitor asks for a person: the hand-off answers, not the bot (issue 15).
    if (bot.humanButton !== 'never' && asksForHuman(request.message)) {
      const notice = await this.handoff.requestHuman(conversation, question.message.seq);
      return { conversation_id: conversation.id, user_message: userMessage, bot_message: notice };
    }
    // A closed conversation the visitor writes in again is open again.
    if (conversation.handoffState === 'closed')
      await this.handoff.move(conversation.tenantId, conversation.id, 'visitor_wrote', { kind: 'visitor' });
    preparing ??= this.prepare(bot, request.message);
    const { stored, wantsPerson } = await this.reply(actor, bot, question, hooks, preparing);
    // The model heard a wish for a person: the hand-off follows its words.
    if (wantsPerson) {
      const notice = await this.handoff.requestHuman(conversation, question.message.seq);
      return {
        conversation_id: conversation.id,
        user_message: userMessage,
        bot_message: stored ? toMessage(stored) : notice,
      };
    }
    return { conversation_id: conversation.id, user_message: userMessage, bot_message: toMessage(stored!) };
  }

  /**
   * At hand-back (issue 31 item 7): the visitor's last message, when nobody (bot or agent) answered
   * it and it did not ask for a person, gets the bot's answer, on the channel it came from.
   */
  async answerLeftOver(conversation: ConversationRow): Promise<void> {
    const [last] = await this.db
      .select()
      .from(messages)
      .where(
        and(
          eq(messages.conversationId, conversation.id),
          inArray(messages.messageType, ['user', 'bot', 'helpdesk']),
        ),
      )
      .orderBy(desc(messages.seq))
      .limit(1);
    if (last?.messageType !== 'user' || asksForHuman(last.message) || forAgentsOnly(last)) return;
    const bot = await this.bots.require(conversation.tenantId, conversation.botId);
    const actor = actorOf(conversation, last);
    await this.reply(
      actor,
      bot,
      { message: last, conversation, raw: {}, context: null },
      {},
      this.prepare(bot, last.message),
    );
  }

  /**
   * The "Talk to a person" button (a visitor's socket frame, the playground's request): in the given
   * conversation, or in a new one seeded with the welcome message when there is none yet.
   */
  async requestHuman(actor: Actor, botId: number, conversationId: number): Promise<ChatMessage> {
    const bot = await this.botFor(actor, botId);
    let conversation: ConversationRow;
    if (conversationId) {
      conversation = await this.conversationFor(actor, conversationId);
      if (conversation.botId !== bot.id) throw badRequest('This conversation belongs to another bot');
    } else {
      const values = newConversationOf(actor, bot);
      const started = await startConversation(
        this.db,
        values,
        await visitorWelcomeOf(this.db, bot, values.visitorLanguage),
        this.hub.startAnnouncements,
      );
      this.hub.startedHere(started.conversation);
      this.hub.storedHere(started.welcome);
      conversation = started.conversation;
    }
    return this.handoff.requestHuman(conversation);
  }

  /**
   * The contact form (issue 31 item 5), sent by the conversation's own person: its widget visitor,
   * or the signed-in user of a playground or chat-page conversation. Anyone else: "not found".
   */
  async leaveContact(actor: Actor, conversationId: number, details: LeftContact): Promise<ChatMessage> {
    const conversation = await this.conversationFor(actor, conversationId);
    if (actor.kind === 'user' && conversation.userId !== actor.userId)
      throw notFound('Conversation not found');
    return this.handoff.leaveContact(conversation, details);
  }

  /**
   * The reply's JSON as the database builds it (conversationPage): the lists are read often, and
   * mapping and checking every row in JavaScript cost more CPU than the statement.
   */
  async list(
    auth: AuthContext,
    filter: { botId?: number; userId?: number; skip: number; limit: number },
  ): Promise<Conversation[]> {
    return jsonReply(await conversationPage(this.db, { ...filter, tenantId: auth.tenantId }));
  }

  async get(auth: AuthContext, id: number): Promise<ConversationWithMessages> {
    const row = await requireConversation(this.db, auth.tenantId, id);
    const [stored, window] = await Promise.all([
      messagesRatedBy(this.db, id, 0, this.options.raterKeys.keyOf({ kind: 'user', userId: auth.userId })),
      replyWindowOf(this.db, row, new Date()),
    ]);
    return { ...toConversation(row), ...(window ? { reply_window: window } : {}), messages: stored };
  }

  /**
   * Messages after a sequence number: what a client that reconnects missed (after 0: the history a
   * reload shows), each answer with the actor's own rating.
   */
  async history(actor: Actor, conversationId: number, afterSeq: number): Promise<ChatMessage[]> {
    const conversation = await this.conversationFor(actor, conversationId);
    const rater =
      actor.kind === 'user'
        ? { kind: 'user' as const, userId: actor.userId }
        : { kind: 'visitor' as const, botId: actor.botId, visitorId: actor.visitorId };
    return messagesRatedBy(this.db, conversation.id, afterSeq, this.options.raterKeys.keyOf(rater));
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
    const [{ used, start, end }, limit] = await Promise.all([
      botMessagesThisMonth(this.db, tenantId),
      this.options.monthlyLimit(tenantId),
    ]);
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
    return this.bots.require(actor.tenantId, botId);
  }

  private prepare(bot: BotRow, question: string) {
    const booking = this.bots.derived(bot, 'booking', () => bookingOfBot(this.db, bot.id));
    const model = this.bots.derived(bot, 'model', () => this.answers.modelOf(bot));
    return settle(this.answers.prepare(bot, question, booking, model));
  }

  /** The question in an existing conversation, refused in the same statement unless it is the actor's. */
  private async appendQuestion(
    actor: Actor,
    bot: BotRow,
    conversationId: number,
    request: SendRequest,
    answerContext: AppendOptions['answerContext'],
  ) {
    const appended = await appendMessage(this.db, conversationId, this.questionOf(actor, bot, request), {
      guard: {
        tenantId: actor.tenantId,
        botId: bot.id,
        ...(actor.kind === 'visitor' ? { visitorId: actor.visitorId } : { userId: actor.userId }),
      },
      nameFromQuestion: namesConversation(request.message, bot),
      announce: this.hub.storedNotification,
      answerContext,
      // A channel customer's language, once their words tell it (a widget's is its own, from the start).
      visitorLanguage: actor.kind === 'visitor' && actor.origin ? toldLanguageOf(request.message) : null,
    });
    if (appended) return appended;
    // Refused: say why as the checks always have (the slow path of a bad request only).
    const conversation = await this.conversationFor(actor, conversationId);
    if (conversation.botId !== bot.id) throw badRequest('This conversation belongs to another bot');
    throw notFound('Conversation not found');
  }

  /** A new conversation: the bot's welcome message, then the question, which names it. */
  private async startWithQuestion(
    actor: Actor,
    bot: BotRow,
    request: SendRequest,
    answerContext: AppendOptions['answerContext'],
  ) {
    // The welcome is said in the conversation's language: the widget's, or the one a channel
    // customer's first words tell (then the bot's sources need not be read for it).
    const values = newConversationOf(actor, bot, request.message);
    const { welcome, question } = await startConversationWith(
      this.db,
      values,
      await visitorWelcomeOf(this.db, bot, values.visitorLanguage),
      this.hub.startAnnouncements,
      this.questionOf(actor, bot, request),
      {
        nameFromQuestion: namesConversation(request.message, bot),
        announce: this.hub.storedNotification,
        answerContext,
      },
    );
    return { welcome, question };
  }

  private questionOf(actor: Actor, bot: BotRow, request: SendRequest): NewMessage {
    const origin = actor.kind === 'visitor' ? actor.origin : undefined;
    const clientId = request.clientId ? { client_id: request.clientId } : {};
    if (origin)
      return {
        messageType: 'user',
        messageSource: origin.channel,
        message: request.message,
        senderId: senderOf(actor),
        recipientId: origin.accountId,
        attachments: request.attachments ?? [],
        metadata: { message_metadata: origin.metadata, ...clientId },
      };
    return {
      messageType: 'user',
      message: request.message,
      senderId: senderOf(actor),
      recipientId: String(bot.id),
      attachments: request.attachments ?? [],
      metadata: metadataOf({ ...(actor.kind === 'user' ? { user_id: actor.userId } : {}), ...clientId }),
    };
  }

  /** The question in the conversation it names, or in a new one (after the bot's welcome). */
  private async store(
    actor: Actor,
    bot: BotRow,
    request: SendRequest,
    context: AppendOptions['answerContext'],
  ): Promise<{ welcome: Appended | null; question: Appended }> {
    if (!request.conversationId) return this.startWithQuestion(actor, bot, request, context);
    return {
      welcome: null,
      question: await this.appendQuestion(actor, bot, request.conversationId, request, context),
    };
  }

  /** The message stored before with the request's client id, when that is why storing it failed. */
  private async sentBefore(actor: Actor, bot: BotRow, request: SendRequest, error: unknown) {
    if (!request.clientId || !isUniqueViolation(error)) return null;
    return messageByClientId(this.db, {
      tenantId: actor.tenantId,
      botId: bot.id,
      senderId: senderOf(actor),
      clientId: request.clientId,
    });
  }

  /** A message stored before: its caller follows its conversation again, and nothing more happens. */
  private replay(
    before: { message: MessageRow; conversation: ConversationRow },
    hooks: SendHooks,
  ): SendResult {
    const userMessage = toMessage(before.message);
    hooks.onConversation?.(before.conversation, userMessage);
    return {
      conversation_id: before.conversation.id,
      user_message: userMessage,
      bot_message: null,
      replayed: true,
    };
  }

  /** What the question's write did not read (it expected a human to hold the conversation). */
  private async answerContext(tenantId: number, conversationId: number, seq: number): Promise<AnswerContext> {
    const [{ used }, history] = await Promise.all([
      botMessagesThisMonth(this.db, tenantId),
      messagesBefore(this.db, conversationId, seq, this.options.historyTurns * 2),
    ]);
    return { used, history };
  }

  /** The month's-limit notice in the visitor's language (reply-texts.ts): rare, so its languages are read here. */
  private async limitText(bot: BotRow, question: string, widget: VisitorLanguage | null): Promise<string> {
    const setting = widget ?? bot.visitorLanguage;
    const sources = setting === 'auto' ? await sourceLanguagesOf(this.db, bot.tenantId, bot.id) : [];
    return replyTexts(question, sources as Language[], setting).limit;
  }

  /** Whether a human held the conversation at its last message here: a hint to skip preparing an answer. */
  private remember(conversation: ConversationRow): void {
    if (this.held.size >= HELD_HINTS) this.held.delete(this.held.keys().next().value!);
    this.held.set(conversation.id, conversation.isHelpdeskInControl);
  }

  private async reply(
    actor: Actor,
    bot: BotRow,
    { message: question, conversation, context }: Appended,
    hooks: SendHooks,
    preparing: Promise<Settled<Prepared>>,
  ) {
    const recipientId = actor.kind === 'user' ? String(actor.userId) : actor.visitorId;
    const [{ used, history }, limit] = await Promise.all([
      context ?? this.answerContext(bot.tenantId, conversation.id, question.seq),
      this.options.monthlyLimit(bot.tenantId),
    ]);
    if (used < limit) this.options.onUsage?.(bot.tenantId, used + 1, limit);
    const answer =
      used >= limit
        ? limitAnswer(hooks, await this.limitText(bot, question.message, conversation.visitorLanguage))
        : await this.answers.answer(
            {
              bot,
              conversationId: conversation.id,
              question: question.message,
              history,
              welcomeShown: conversation.channel === 'bot',
              messagingApp: conversation.channel !== 'bot',
              visitorLanguage: conversation.visitorLanguage,
              agentOnline: () => this.options.agentOnline(bot.tenantId),
              onChunk: (text) => hooks.onChunk?.(text),
              signal: hooks.signal,
            },
            unwrap(await preparing),
          );
    // Handed to a person without a word of its own: the hand-off's notice is the reply.
    if (answer.wantsPerson && !answer.text.trim()) return { stored: null, wantsPerson: true };
    const stored = await appendTo(
      this.db,
      conversation.id,
      {
        messageType: 'bot',
        messageSource: actor.kind === 'visitor' ? (actor.origin?.channel ?? 'bot') : 'bot',
        message: answer.text,
        senderId: String(bot.id),
        recipientId,
        sources: answer.sources,
        qnaId: answer.qnaId,
        promptTokens: answer.usage?.promptTokens ?? null,
        completionTokens: answer.usage?.completionTokens ?? null,
        metadata: {
          answer_mode: answer.mode,
          actions: answer.actions,
          ...(answer.withheld ? { unverified: answer.withheld.figures } : {}),
        },
      },
      { announce: this.hub.storedNotification, countsAnswer: true },
    );
    // Visitors' questions only: the owner's own tests in the playground teach nothing. Queued before
    // the answer is shown here, so whoever reads the queue after seeing the answer finds it.
    if ((answer.withheld || missedAnswer(answer.mode)) && actor.kind === 'visitor')
      await this.options.onUnanswered?.(unansweredOf(bot, conversation.id, question.message, answer));
    this.hub.storedHere(stored);
    return { stored: stored.message, wantsPerson: answer.wantsPerson === true };
  }
}

/**
 * What the owner's queue keeps of a question the bot did not answer surely: a model's answer that
 * was not given is queued with that answer and its unchecked figures, whatever was said instead.
 */
function unansweredOf(
  bot: BotRow,
  conversationId: number,
  question: string,
  answer: Answer,
): UnansweredInput {
  const queued = { tenantId: bot.tenantId, botId: bot.id, question, conversationId };
  if (answer.withheld)
    return {
      ...queued,
      reason: 'unverified',
      botAnswer: answer.withheld.text,
      unverified: answer.withheld.figures,
    };
  return {
    ...queued,
    reason: answer.mode === 'unsure' ? 'unsure' : answer.lowConfidence ? 'low_confidence' : 'not_found',
    botAnswer: answer.quote ?? null,
  };
}

/**
 * Whether a visitor's message names their conversation: the first question does, a greeting before
 * it does not ("hi" would name the inbox row and lead the most asked questions).
 */
const namesConversation = (message: string, bot: BotRow) => smallTalkOf(message, bot.botName) === null;

/** The conversation's column that names the channel account. */
function accountColumnOf(origin: ChannelOrigin) {
  if (origin.channel === 'instagram') return { instagramAccountId: origin.accountId };
  if (origin.channel === 'whatsapp') return { whatsappPhoneNumberId: origin.accountId };
  return { messengerAccountId: origin.accountId };
}

/** A web conversation of the actor with the bot. A signed-in user's is the owner trying the bot: a test, out of the inbox. */
/**
 * A new conversation's row. A channel customer's language is told by their first message when its
 * words are clear ("¿tenéis envío a Francia?"); a widget visitor's is the widget's.
 */
function newConversationOf(actor: Actor, bot: BotRow, firstMessage = '') {
  const origin = actor.kind === 'visitor' ? actor.origin : undefined;
  if (origin)
    return {
      tenantId: bot.tenantId,
      botId: bot.id,
      userId: null,
      visitorId: actor.kind === 'visitor' ? actor.visitorId : null,
      channel: origin.channel,
      isTest: false,
      pageUrl: null,
      userProfile: origin.profile,
      visitorLanguage: toldLanguageOf(firstMessage),
      ...accountColumnOf(origin),
    };
  return {
    tenantId: bot.tenantId,
    botId: bot.id,
    userId: actor.kind === 'user' ? actor.userId : null,
    visitorId: actor.kind === 'visitor' ? actor.visitorId : null,
    channel: 'bot',
    isTest: actor.kind === 'user',
    pageUrl: actor.kind === 'visitor' ? (actor.pageUrl ?? null) : null,
    visitorLanguage: actor.kind === 'visitor' ? (actor.language ?? null) : null,
  };
}

const CHANNELS = ['instagram', 'messenger', 'whatsapp'] as const;

/** A person holds the conversation, or the channel account has no bot: the bot says nothing. */
const botStaysSilent = (actor: Actor, conversation: ConversationRow) =>
  conversation.isHelpdeskInControl || (actor.kind === 'visitor' && actor.origin?.agentsOnly === true);

/** A channel message the bot was never to answer (a reaction, a sticker, STOP...): its channel said so. */
const forAgentsOnly = (message: MessageRow) =>
  (message.metadata as { message_metadata?: { for_agents?: boolean } } | null)?.message_metadata
    ?.for_agents === true;

/** Who a stored question says wrote it: the signed-in user's id, or the visitor's. */
const senderOf = (actor: Actor): string => (actor.kind === 'user' ? String(actor.userId) : actor.visitorId);

/** A question's metadata, none when there is nothing to keep. */
const metadataOf = (fields: Record<string, unknown>) => (Object.keys(fields).length ? fields : null);

/** Who wrote a stored visitor message, as the chat's actor: the playground's user, a widget visitor or a channel user. */
function actorOf(conversation: ConversationRow, message: MessageRow): Actor {
  if (conversation.userId !== null && !conversation.visitorId)
    return { kind: 'user', tenantId: conversation.tenantId, userId: conversation.userId };
  const channel = CHANNELS.find((c) => c === message.messageSource);
  const origin: ChannelOrigin | undefined = channel
    ? { channel, accountId: message.recipientId ?? '', profile: null, metadata: {}, agentsOnly: false }
    : undefined;
  return {
    kind: 'visitor',
    tenantId: conversation.tenantId,
    visitorId: conversation.visitorId ?? message.senderId ?? '',
    botId: conversation.botId,
    ...(origin ? { origin } : {}),
  };
}

/** Past the month's credits: a notice instead of an answer (agents can still write). */
function limitAnswer(hooks: SendHooks, text: string): Answer {
  hooks.onChunk?.(text);
  return { text, mode: 'limit', sources: [], qnaId: null, usage: null, actions: [] };
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
