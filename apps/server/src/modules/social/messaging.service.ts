import { type Attachment, SOCIAL_TEXTS, type SocialChannel } from '@parley/contracts';
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import { type Db, queryPrepared } from '../../core/db/database.js';
import { roles, userRoles, users } from '../../core/db/schema.js';
import { JOBS_CHANNEL, type JobContext, PermanentJobError } from '../../core/jobs/queue.js';
import { KeyedSerial } from '../../core/keyed-serial.js';
import type { ModuleDeps } from '../../core/module.js';
import type { ChatHub } from '../chat/chat.hub.js';
import { appendTo, type ConversationRow } from '../chat/chat.queries.js';
import { conversations, messages } from '../chat/chat.schema.js';
import type { ChannelOrigin, ChatService } from '../chat/chat.service.js';
import type { HandoffService } from '../handoff/handoff.service.js';
import { replyWindowOf } from '../handoff/reply-window.js';
import { forgetQuestion } from '../unanswered/unanswered.service.js';
import type { AccountRow, AccountsService } from './accounts.service.js';
import { buttonRefused, type OutgoingPart, outgoingParts, PERSON_PAYLOAD } from './channel-actions.js';
import { type DeliveryState, recordDelivery, settleSendFailure } from './delivery.js';
import { GraphError, type GraphProfile, type MetaClient, type SendBody } from './meta.client.js';
import { requestPersonOnTap, type StoredTap } from './person-tap.js';
import { type Revision, reviseMessage, revisionOf } from './revisions.js';
import { socialAccounts, socialDeliveries } from './social.schema.js';
import type { InboundEvent, MessagingItem } from './webhook.js';

export const SOCIAL_INBOUND_JOB = 'social.inbound';
/** An inbound event that fails (a database blip) is tried again, then left failed in the queue. */
export const INBOUND_ATTEMPTS = 3;
const DELIVERY_MEMORY_MS = 7 * 24 * 3_600_000;
/** At most this many events in one statement of a burst. */
const TAKE_BATCH = 500;
type Waiting = {
  channel: SocialChannel;
  event: InboundEvent;
  done: (queued: boolean) => void;
  fail: (error: unknown) => void;
};
export type InboundJob = { accountId: number; channel: SocialChannel; item: MessagingItem };
export type SendJob = { messageId: number };

/**
 * Instagram and Messenger conversations: deliveries become jobs (once per message id), a job turns
 * a message into a chat message the bot answers (or agents, when a human holds it or no bot is
 * linked), and every message for the user leaves through the outbox's send job (chat.queries.ts).
 */
export class MessagingService {
  constructor(
    private readonly deps: ModuleDeps,
    private readonly meta: MetaClient,
    private readonly accounts: AccountsService,
    private readonly chat: ChatService,
    private readonly handoff: HandoffService,
    private readonly hub: ChatHub,
  ) {}

  private get db(): Db {
    return this.deps.db;
  }

  /**
   * A verified delivery: each event of a connected account is queued once (Meta retries
   * deliveries; a replay inserts nothing). Deliveries arriving together are taken together: while
   * one statement runs, the next ones wait and then go in one statement (a group commit), so a
   * burst costs a few round trips instead of one each. Events for accounts nobody connected are
   * logged and dropped. Resolves, once stored, with how many were queued.
   */
  async receive(channel: SocialChannel, events: InboundEvent[]): Promise<number> {
    const taken = await Promise.all(
      events.map(
        (event) =>
          new Promise<boolean>((done, fail) => {
            this.waiting.push({ channel, event, done, fail });
            this.scheduleTake();
          }),
      ),
    );
    return taken.filter(Boolean).length;
  }

  private waiting: Waiting[] = [];
  private taking = false;

  private scheduleTake(): void {
    if (this.taking) return; // the running take picks these up when it ends
    this.taking = true;
    setImmediate(() => void this.takeWaiting());
  }

  private async takeWaiting(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, TAKE_BATCH);
      try {
        const queued = await this.take(batch);
        for (const [n, waiting] of batch.entries()) waiting.done(queued.has(n));
      } catch (error) {
        for (const waiting of batch) waiting.fail(error);
      }
    }
    this.taking = false;
  }

  /** One statement: finds the accounts, records the event ids, queues a job per new event, wakes a worker. */
  private async take(batch: Waiting[]): Promise<Set<number>> {
    const input = batch.map(({ channel, event }, n) => ({
      n,
      channel,
      external_id: event.accountExternalId,
      event_id: event.eventId,
      item: event.item,
    }));
    const [row] = await queryPrepared<{ unknown: number[] | null; queued: number[] | null; woke: number }>(
      this.db,
      sql`WITH input AS (
            SELECT * FROM jsonb_to_recordset(${JSON.stringify(input)}::jsonb)
                AS x(n int, channel text, external_id text, event_id text, item jsonb)),
          known AS (
            SELECT DISTINCT ON (input.channel, input.event_id)
                   input.n, input.channel, input.event_id, input.item, a.id AS account_id, a.tenant_id
              FROM input JOIN social_accounts a ON a.channel = input.channel AND a.external_id = input.external_id
             ORDER BY input.channel, input.event_id, input.n),
          fresh AS (
            INSERT INTO social_deliveries (channel, event_id)
            SELECT channel, event_id FROM known
            ON CONFLICT DO NOTHING RETURNING channel, event_id),
          job AS (
            INSERT INTO jobs (name, data, tenant_id, max_attempts)
            SELECT ${SOCIAL_INBOUND_JOB},
                   jsonb_build_object('accountId', known.account_id, 'channel', known.channel, 'item', known.item),
                   known.tenant_id, ${INBOUND_ATTEMPTS}
              FROM known JOIN fresh ON fresh.channel = known.channel AND fresh.event_id = known.event_id
            RETURNING id)
          SELECT (SELECT json_agg(input.n) FROM input WHERE NOT EXISTS (
                    SELECT 1 FROM social_accounts a WHERE a.channel = input.channel AND a.external_id = input.external_id)) AS unknown,
                 (SELECT json_agg(known.n) FROM known JOIN fresh
                     ON fresh.channel = known.channel AND fresh.event_id = known.event_id) AS queued,
                 (SELECT count(*) FROM (SELECT pg_notify(${JOBS_CHANNEL}, ${SOCIAL_INBOUND_JOB}) FROM job LIMIT 1) w)::int AS woke`,
    );
    for (const n of row?.unknown ?? []) {
      const { channel, event } = batch[n]!;
      this.deps.log.warn(
        { channel, account: event.accountExternalId },
        'social: delivery for an account nobody connected; dropped',
      );
    }
    return new Set(row?.queued ?? []);
  }

  /** Forgets delivery ids older than a week: Meta stops retrying a delivery long before. */
  async pruneDeliveries(now: Date): Promise<void> {
    const before = new Date(now.getTime() - DELIVERY_MEMORY_MS);
    await this.db.delete(socialDeliveries).where(lt(socialDeliveries.receivedAt, before));
  }

  /** Per channel user, one event at a time in this process, in the order the jobs run. */
  private readonly users = new KeyedSerial();

  /** One inbound event: an echo of the page's own reply, or a user's message for the bot and the inbox. */
  handleInbound(job: JobContext<InboundJob>): Promise<void> {
    const { item } = job.data;
    const user = item.message?.is_echo ? item.recipient?.id : item.sender?.id;
    return this.users.run(`${job.data.accountId}:${user}`, () => this.handleOne(job));
  }

  private async handleOne(job: JobContext<InboundJob>): Promise<void> {
    const [account] = await this.db
      .select()
      .from(socialAccounts)
      .where(eq(socialAccounts.id, job.data.accountId));
    if (!account) return; // disconnected since: nothing to file it under
    const { item } = job.data;
    if (item.message?.is_echo) return this.handleEcho(account, item);
    const revision = revisionOf(item);
    if (revision) return this.handleRevision(account, String(item.sender!.id), revision);
    if (item.message_edit || item.message?.is_deleted) return; // an edit or unsend of nothing we know
    return this.handleMessage(account, item);
  }

  /**
   * The user edited or unsent a message: the stored copy follows, and the open inbox reloads it. The
   * bot does not answer again: its reply to the first text stands, as it does in the user's app.
   */
  private async handleRevision(account: AccountRow, userId: string, revision: Revision): Promise<void> {
    const revised = await reviseMessage(this.db, account, userId, revision, new Date());
    if (!revised) return;
    const { conversationId, botId, oldText } = revised;
    // Unsent words leave the Q&A screen's unanswered questions too.
    if (revision.kind === 'unsent')
      await forgetQuestion(this.db, { tenantId: account.tenantId, botId, conversationId, question: oldText });
    await this.hub.conversationChanged({ tenantId: account.tenantId, deleted: false, conversationId, botId });
  }

  /**
   * A message sent to the user by the channel's send job (`message`): split at the channel's limit,
   * the "Talk to a person" quick reply on its last part, typed as a reply or, past 24 hours, an
   * agent's message with the HUMAN_AGENT tag. Transient Graph errors are retried by the queue; a
   * dead token or a closed window fails at once; a refused quick reply goes again as plain text.
   */
  async handleSend(job: JobContext<SendJob>, maxAttempts: number): Promise<void> {
    const loaded = await this.loadOutgoing(job.data.messageId);
    if (!loaded) return;
    const { message, conversation, account } = loaded;
    const delivery = (message.metadata as { delivery?: DeliveryState } | null)?.delivery;
    if (delivery?.status === 'sent') return;
    try {
      if (!account?.isActive)
        throw new PermanentJobError(account?.inactiveReason ?? SOCIAL_TEXTS.accountNotFound);
      const window = await replyWindowOf(this.db, conversation, new Date());
      if (window?.state === 'closed' || (window?.state === 'tagged' && message.messageType !== 'helpdesk'))
        throw new PermanentJobError(SOCIAL_TEXTS.windowClosed);
      const channel = conversation.channel as SocialChannel;
      const token = this.accounts.tokenOf(account);
      let plain = delivery?.plain === true;
      let parts = outgoingParts(channel, message, plain);
      let sent = delivery?.parts_sent ?? 0;
      while (sent < parts.length) {
        const part = parts[sent]!;
        try {
          await this.meta.send(
            account.pageId,
            token,
            sendBodyOf(conversation.visitorId!, part, window?.state),
          );
        } catch (error) {
          if (!buttonRefused(part, error)) throw error;
          this.deps.log.warn(
            { err: error, accountId: account.id },
            'social: quick reply refused; sent as text',
          );
          plain = true;
          parts = outgoingParts(channel, message, plain);
          continue;
        }
        sent += 1;
        await recordDelivery(this.db, this.hub, message.id, {
          status: 'queued',
          error: null,
          parts_sent: sent,
          ...(plain ? { plain } : {}),
        });
      }
      await recordDelivery(this.db, this.hub, message.id, {
        status: 'sent',
        error: null,
        ...(plain ? { plain } : {}),
      });
    } catch (error) {
      await settleSendFailure(this.db, this.hub, {
        messageId: message.id,
        conversation,
        permanent: await this.classify(error, account),
        lastAttempt: job.attempt >= maxAttempts,
        reason: reasonOf(error),
      });
      throw error;
    }
  }

  private async handleMessage(account: AccountRow, item: MessagingItem): Promise<void> {
    const userId = String(item.sender!.id);
    const existing = await this.latestConversation(account, userId);
    const botId = existing?.botId ?? account.botId ?? account.lastBotId;
    if (botId === null) {
      this.deps.log.warn(
        { accountId: account.id },
        'social: a message for an account never linked to a bot; dropped',
      );
      return;
    }
    const agentsOnly = account.botId === null || !account.isActive;
    // A tap on "Talk to a person" is no question for the bot: stored, then the hand-off answers it.
    const tapped = tappedPerson(item);
    const profile = existing?.userProfile ?? (await this.profileOf(account, userId));
    const origin: ChannelOrigin = {
      channel: account.channel,
      accountId: account.externalId,
      profile,
      metadata: { ...metadataOf(account, item), ...(tapped ? { for_agents: true } : {}) },
      agentsOnly: agentsOnly || tapped,
    };
    if (!agentsOnly && !tapped && !existing?.isHelpdeskInControl) this.typing(account, userId);
    let stored: StoredTap | undefined;
    const exchange = await this.chat.send(
      { kind: 'visitor', tenantId: account.tenantId, visitorId: userId, botId, origin },
      {
        botId,
        conversationId: existing && existing.botId === botId ? existing.id : undefined,
        message: textOf(item),
        attachments: attachmentsOf(item),
        // Meta's id for the message: a job run again after a crash stores and answers it once.
        clientId: item.message?.mid ?? item.postback?.mid,
        answerIfLeft: true,
      },
      { onConversation: (conversation, message) => (stored = { conversation, seq: message.seq }) },
    );
    if (tapped && !agentsOnly) await requestPersonOnTap(this.handoff, stored, exchange.replayed === true);
  }

  /**
   * The page wrote to the user from Meta's own inbox (an echo not sent by this app): a person has
   * taken over, so it is stored as an agent's message and the bot steps aside.
   */
  private async handleEcho(account: AccountRow, item: MessagingItem): Promise<void> {
    const ownApp = this.deps.config.META_APP_ID;
    if (ownApp && String(item.message?.app_id ?? '') === ownApp) return; // our own send, already stored
    const conversation = await this.latestConversation(account, String(item.recipient!.id));
    if (!conversation) return;
    const stored = await appendTo(
      this.db,
      conversation.id,
      {
        messageType: 'helpdesk',
        messageSource: account.channel,
        message: textOf(item),
        senderId: account.externalId,
        recipientId: conversation.visitorId,
        metadata: {
          from_channel: true,
          answer_mode: 'helpdesk',
          message_metadata: metadataOf(account, item),
        },
      },
      { announce: this.hub.storedNotification },
    );
    this.hub.storedHere(stored);
    await this.handoff.move(
      conversation.tenantId,
      conversation.id,
      'agent_took_over',
      { kind: 'system' },
      {
        agentName: account.pageName,
      },
    );
  }

  private async latestConversation(
    account: AccountRow,
    userId: string,
  ): Promise<ConversationRow | undefined> {
    const column =
      account.channel === 'instagram' ? conversations.instagramAccountId : conversations.messengerAccountId;
    const [row] = await this.db
      .select()
      .from(conversations)
      .where(
        and(
          eq(conversations.tenantId, account.tenantId),
          eq(conversations.channel, account.channel),
          eq(conversations.visitorId, userId),
          eq(column, account.externalId),
        ),
      )
      .orderBy(desc(conversations.lastMessageAt))
      .limit(1);
    return row;
  }

  /** The user's name and picture, fetched once per conversation (a failure leaves the id only). */
  private async profileOf(account: AccountRow, userId: string): Promise<Record<string, unknown>> {
    let profile: GraphProfile = {};
    try {
      profile = await this.meta.profile(userId, this.accounts.tokenOf(account), account.channel);
    } catch (error) {
      this.deps.log.warn({ err: error, accountId: account.id }, 'social: profile unavailable');
    }
    const name =
      profile.name ??
      ([profile.first_name, profile.last_name].filter(Boolean).join(' ') || profile.username || null);
    return {
      name,
      full_name: name,
      first_name: profile.first_name ?? null,
      last_name: profile.last_name ?? null,
      username: profile.username ?? null,
      profile_picture_url: profile.profile_pic ?? null,
      [account.channel === 'instagram' ? 'instagram_user_id' : 'messenger_user_id']: userId,
    };
  }

  /** "Typing..." while the bot thinks; a failure here is not worth a retry. */
  private typing(account: AccountRow, userId: string): void {
    this.meta
      .send(account.pageId, this.accounts.tokenOf(account), {
        recipient: { id: userId },
        sender_action: 'typing_on',
      })
      .catch(() => undefined);
  }

  private async loadOutgoing(messageId: number) {
    const [row] = await this.db
      .select({ message: messages, conversation: conversations })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .where(eq(messages.id, messageId));
    if (!row) return null;
    const { conversation } = row;
    const externalId =
      conversation.channel === 'instagram'
        ? conversation.instagramAccountId
        : conversation.messengerAccountId;
    const [account] = externalId
      ? await this.db
          .select()
          .from(socialAccounts)
          .where(
            and(
              eq(socialAccounts.tenantId, conversation.tenantId),
              eq(socialAccounts.channel, conversation.channel as SocialChannel),
              eq(socialAccounts.externalId, externalId),
            ),
          )
      : [];
    return { ...row, account };
  }

  /** Whether a failure is final; a refused token also stops the account and tells the owner. */
  private async classify(error: unknown, account: AccountRow | undefined): Promise<boolean> {
    if (error instanceof PermanentJobError) return true;
    if (!(error instanceof GraphError)) return false;
    if (
      error.kind === 'token' &&
      account &&
      (await this.accounts.deactivate(account, SOCIAL_TEXTS.tokenExpired))
    )
      await this.tellOwners(account);
    return error.kind !== 'transient';
  }

  private async tellOwners(account: AccountRow): Promise<void> {
    const owners = await this.db
      .select({ email: users.email })
      .from(users)
      .innerJoin(userRoles, eq(userRoles.userId, users.id))
      .innerJoin(roles, and(eq(roles.id, userRoles.roleId), eq(roles.isOwner, true)))
      .where(eq(userRoles.tenantId, account.tenantId));
    const what =
      account.channel === 'instagram'
        ? `Instagram account @${account.username}`
        : `Messenger page ${account.pageName}`;
    for (const { email } of owners)
      await this.deps.mail.send({
        tenantId: account.tenantId,
        to: email,
        subject: `Parley: reconnect your ${what}`,
        text: `${SOCIAL_TEXTS.tokenExpired}\n\nUntil then the bot does not answer its messages. Open Integrations in Parley to connect it again.`,
      });
  }
}

function sendBodyOf(recipient: string, part: OutgoingPart, window: string | undefined): SendBody {
  const { text, button } = part;
  const message = button
    ? {
        text,
        quick_replies: [{ content_type: 'text' as const, title: button.title, payload: button.payload }],
      }
    : { text };
  return window === 'tagged'
    ? { recipient: { id: recipient }, messaging_type: 'MESSAGE_TAG', tag: 'HUMAN_AGENT', message }
    : { recipient: { id: recipient }, messaging_type: 'RESPONSE', message };
}

/** Whether the user tapped the "Talk to a person" quick reply (or a postback that carries its payload). */
const tappedPerson = (item: MessagingItem) =>
  (item.message?.quick_reply?.payload ?? item.postback?.payload) === PERSON_PAYLOAD;

/** What the user wrote: the text, a quick reply's or a postback's title, or what they attached. */
function textOf(item: MessagingItem): string {
  const text =
    item.message?.text ??
    item.postback?.title ??
    item.postback?.payload ??
    item.message?.quick_reply?.payload;
  if (text?.trim()) return text.trim().slice(0, 4000);
  const kinds = (item.message?.attachments ?? []).map((a) => a.type ?? 'file');
  return kinds.length ? `[${kinds.join(', ')}]` : '[message]';
}

/** Images and files as links the inbox shows; a story mention or reply as the story's link. */
function attachmentsOf(item: MessagingItem): Attachment[] {
  return (item.message?.attachments ?? [])
    .filter((a) => a.payload?.url)
    .slice(0, 5)
    .map((a) => ({
      name: a.payload?.title ?? a.type ?? 'attachment',
      url: a.payload!.url!,
      content_type: a.type === 'image' || a.type === 'story_mention' ? 'image/*' : 'application/octet-stream',
      size: 0,
    }));
}

/** console.md's message_metadata: sender, recipient, text, timestamp and the account's id. */
function metadataOf(account: AccountRow, item: MessagingItem): Record<string, unknown> {
  return {
    sender: { id: item.sender?.id },
    recipient: { id: item.recipient?.id },
    message: item.message?.text ?? item.postback?.title ?? null,
    timestamp: item.timestamp ?? null,
    [account.channel === 'instagram' ? 'instagram_account_id' : 'messenger_account_id']: account.externalId,
    ...(item.postback ? { postback: item.postback } : {}),
    ...(item.message?.quick_reply ? { quick_reply: item.message.quick_reply } : {}),
    ...(item.message?.reply_to?.story ? { story: item.message.reply_to.story } : {}),
  };
}

function reasonOf(error: unknown): string {
  if (error instanceof GraphError) {
    if (error.kind === 'token') return SOCIAL_TEXTS.tokenExpired;
    if (error.kind === 'window') return SOCIAL_TEXTS.windowClosed;
    return `Facebook refused the message: ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}
