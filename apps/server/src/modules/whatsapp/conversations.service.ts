import {
  type Attachment,
  type ConversationTemplateBody,
  OPT_IN_WORDS,
  OPT_OUT_WORDS,
  WHATSAPP_TEXTS,
} from '@parley/contracts';
import { and, desc, eq, sql } from 'drizzle-orm';
import { type Db, queryPrepared } from '../../core/db/database.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import { JOBS_CHANNEL, type JobContext, PermanentJobError } from '../../core/jobs/queue.js';
import { KeyedSerial } from '../../core/keyed-serial.js';
import type { ModuleDeps } from '../../core/module.js';
import { bots } from '../bots/bots.schema.js';
import { sourceLanguagesOf } from '../bots/visitor-language.js';
import type { ChatHub } from '../chat/chat.hub.js';
import { appendTo, type ConversationRow } from '../chat/chat.queries.js';
import { conversations, messages } from '../chat/chat.schema.js';
import type { ChannelOrigin, ChatService } from '../chat/chat.service.js';
import { replyTexts } from '../chat/reply-texts.js';
import type { HandoffService } from '../handoff/handoff.service.js';
import { replyWindowOf } from '../handoff/reply-window.js';
import type { Language } from '../knowledge/languages.js';
import {
  buttonRefused,
  type OutgoingPart,
  outgoingParts,
  PERSON_PAYLOAD,
} from '../social/channel-actions.js';
import { type DeliveryState, recordDelivery, settleSendFailure } from '../social/delivery.js';
import { GraphError } from '../social/meta.client.js';
import { requestPersonOnTap, type StoredTap } from '../social/person-tap.js';
import type { WhatsAppAccountRow, WhatsAppAccountsService } from './accounts.service.js';
import { type CloudClient, type CloudMessage, MediaTooLarge } from './cloud.client.js';
import { failureReason, knownFailure } from './failure-reasons.js';
import { baseMime, MEDIA_MAX_BYTES, storeMedia } from './media.js';
import { templateMessage } from './template-rules.js';
import type { TemplatesService } from './templates.service.js';
import {
  type CloudInbound,
  type CloudStatus,
  type InboundMessage,
  isConversational,
  isUnreaction,
  isWordlessMedia,
  mediaOfInbound,
  type TemplateReview,
  textOfInbound,
  type WhatsAppDelivery,
} from './webhook.js';
import {
  whatsappAccounts,
  whatsappContacts,
  whatsappRecipients,
  whatsappTemplates,
} from './whatsapp.schema.js';

export const WHATSAPP_INBOUND_JOB = 'whatsapp.inbound';
export const INBOUND_ATTEMPTS = 3;
export type InboundJob = { accountId: number; profileName: string | null; message: CloudInbound };
export type SendJob = { messageId: number };
/** Campaign messages name their recipient row in the callback Meta returns on every status. */
export const CALLBACK_PREFIX = 'parley-recipient:';

/** Status order: a later webhook never moves a message back (read, then a late "delivered"). */
const STATUS_ORDER = ['queued', 'sending', 'sent', 'failed', 'delivered', 'read'] as const;
/** error_code of a recipient whose send was interrupted: any status webhook may still settle it. */
export const INTERRUPTED_CODE = -1;

/**
 * WhatsApp conversations: webhook deliveries become jobs once per message id, a job files the
 * message under the number's bot (which answers) or its agents, statuses settle campaign logs and
 * inbox messages, template reviews settle templates; every message for the customer leaves
 * through the outbox's whatsapp.send job.
 */
export class WhatsAppConversations {
  constructor(
    private readonly deps: ModuleDeps,
    private readonly cloud: CloudClient,
    private readonly accounts: WhatsAppAccountsService,
    private readonly templates: TemplatesService,
    private readonly chat: ChatService,
    private readonly handoff: HandoffService,
    private readonly hub: ChatHub,
  ) {}

  private get db(): Db {
    return this.deps.db;
  }

  /** A verified delivery: messages queued once each, statuses and reviews applied at once. */
  async receive(delivery: WhatsAppDelivery): Promise<void> {
    if (delivery.messages.length) await this.queueMessages(delivery.messages);
    if (delivery.statuses.length) await this.applyStatuses(delivery.statuses);
    for (const review of delivery.templates) await this.applyReview(review);
  }

  /** One statement: known numbers only, each message id once (Meta retries deliveries), a job per new one. */
  private async queueMessages(inbound: InboundMessage[]): Promise<void> {
    const input = inbound.map((m) => ({
      phone_number_id: m.phoneNumberId,
      event_id: m.message.id,
      profile_name: m.profileName,
      message: m.message,
    }));
    await queryPrepared(
      this.db,
      sql`WITH input AS (
            SELECT DISTINCT ON (event_id) * FROM jsonb_to_recordset(${JSON.stringify(input)}::jsonb)
                AS x(phone_number_id text, event_id text, profile_name text, message jsonb)),
          known AS (
            SELECT input.*, a.id AS account_id, a.tenant_id
              FROM input JOIN whatsapp_accounts a ON a.phone_number_id = input.phone_number_id),
          fresh AS (
            INSERT INTO social_deliveries (channel, event_id)
            SELECT 'whatsapp', event_id FROM known
            ON CONFLICT DO NOTHING RETURNING event_id),
          job AS (
            INSERT INTO jobs (name, data, tenant_id, max_attempts)
            SELECT ${WHATSAPP_INBOUND_JOB},
                   jsonb_build_object('accountId', known.account_id, 'profileName', known.profile_name,
                                      'message', known.message),
                   known.tenant_id, ${INBOUND_ATTEMPTS}
              FROM known JOIN fresh ON fresh.event_id = known.event_id
            RETURNING id)
          SELECT (SELECT count(*) FROM (SELECT pg_notify(${JOBS_CHANNEL}, ${WHATSAPP_INBOUND_JOB}) FROM job LIMIT 1) w)::int AS woke`,
    );
  }

  /**
   * Sent, delivered, read and failed: on campaign recipients (named by the callback) and on inbox
   * messages (named by their wamid), never moving a message back. One statement for the delivery.
   */
  async applyStatuses(statuses: Array<CloudStatus & { phoneNumberId: string }>): Promise<void> {
    const byMessage = new Map<string, StatusUpdate>();
    for (const status of statuses) {
      const update = byMessage.get(status.id) ?? {
        id: status.id,
        phone_number_id: status.phoneNumberId,
        recipient_id: recipientIdOf(status.biz_opaque_callback_data),
        status: 'sent',
        sent_at: null,
        delivered_at: null,
        read_at: null,
        code: null,
        error: null,
        reason: null,
      };
      const at = status.timestamp
        ? new Date(Number(status.timestamp) * 1000).toISOString()
        : new Date().toISOString();
      if (status.status === 'sent') update.sent_at ??= at;
      if (status.status === 'delivered') update.delivered_at ??= at;
      if (status.status === 'read') update.read_at ??= at;
      if (status.status === 'failed') {
        const error = status.errors?.[0];
        update.code = error?.code ?? null;
        update.error = [error?.title ?? error?.message ?? 'Failed', error?.error_data?.details]
          .filter(Boolean)
          .join(': ');
        update.reason = failureReason(error);
      }
      if (rankOf(status.status) > rankOf(update.status)) update.status = status.status;
      byMessage.set(status.id, update);
    }
    const input = JSON.stringify([...byMessage.values()]);
    const order = sql.raw(`ARRAY[${STATUS_ORDER.map((s) => `'${s}'`).join(',')}]`);
    const [row] = await queryPrepared<{
      failed: Array<{ tenant_id: number; conversation_id: number; bot_id: number }> | null;
    }>(
      this.db,
      sql`WITH x AS (
            SELECT x.*, a.tenant_id FROM jsonb_to_recordset(${input}::jsonb)
                AS x(id text, phone_number_id text, recipient_id bigint, status text, sent_at timestamptz,
                     delivered_at timestamptz, read_at timestamptz, code int, error text, reason text)
              JOIN whatsapp_accounts a ON a.phone_number_id = x.phone_number_id),
          recipients AS (
            UPDATE whatsapp_campaign_recipients r SET
                   status = CASE WHEN array_position(${order}, x.status) > array_position(${order}, r.status)
                                   OR r.error_code = ${INTERRUPTED_CODE} THEN x.status ELSE r.status END,
                   wa_message_id = coalesce(r.wa_message_id, x.id),
                   sent_at = coalesce(r.sent_at, x.sent_at, x.delivered_at, x.read_at),
                   delivered_at = coalesce(r.delivered_at, x.delivered_at, x.read_at),
                   read_at = coalesce(r.read_at, x.read_at),
                   error_code = CASE WHEN x.status = 'failed' THEN x.code
                                     WHEN r.error_code = ${INTERRUPTED_CODE} THEN NULL ELSE r.error_code END,
                   error = CASE WHEN x.status = 'failed' THEN x.error
                                WHEN r.error_code = ${INTERRUPTED_CODE} THEN NULL ELSE r.error END,
                   updated_at = now()
              FROM x WHERE x.recipient_id IS NOT NULL AND r.id = x.recipient_id AND r.tenant_id = x.tenant_id
            RETURNING r.id),
          inbox AS (
            UPDATE messages m SET metadata = jsonb_set(m.metadata, '{delivery}',
                     (m.metadata->'delivery') || jsonb_build_object('status', x.status, 'error', x.reason))
              FROM x WHERE x.recipient_id IS NULL AND m.metadata->'delivery'->>'wamid' = x.id
               AND m.tenant_id = x.tenant_id
               AND coalesce(array_position(${order}, m.metadata->'delivery'->>'status'), 0)
                   < array_position(${order}, x.status)
            RETURNING m.tenant_id, m.conversation_id, m.bot_id, x.status)
          SELECT (SELECT count(*) FROM recipients)::int AS recipients,
                 (SELECT json_agg(DISTINCT jsonb_build_object('tenant_id', tenant_id,
                         'conversation_id', conversation_id, 'bot_id', bot_id))
                    FROM inbox WHERE status = 'failed') AS failed`,
    );
    // A message WhatsApp could not deliver shows as failed in the open thread at once.
    for (const failed of row?.failed ?? [])
      await this.hub.conversationChanged({
        tenantId: failed.tenant_id,
        conversationId: failed.conversation_id,
        botId: failed.bot_id,
        deleted: false,
      });
  }

  /** A template's review: approved, rejected with the reason, paused, disabled. */
  private async applyReview(review: TemplateReview): Promise<void> {
    const status = review.event.toUpperCase();
    await this.db
      .update(whatsappTemplates)
      .set({
        status,
        metaTemplateId: review.templateId,
        rejectedReason: status === 'REJECTED' ? (review.reason ?? 'Rejected by Meta') : null,
        updatedAt: new Date(),
      })
      .where(
        and(
          sql`${whatsappTemplates.accountId} IN (SELECT id FROM whatsapp_accounts WHERE waba_id = ${review.wabaId})`,
          sql`(${whatsappTemplates.metaTemplateId} = ${review.templateId} OR (${whatsappTemplates.metaTemplateId} IS NULL
                AND ${whatsappTemplates.name} = ${review.name} AND ${whatsappTemplates.language} = ${review.language}))`,
        ),
      );
  }

  /** Per customer, one message at a time in this process, in the order the jobs run. */
  private readonly customers = new KeyedSerial();

  /** One customer message: opt-out words, campaign replies, then the bot or the agents. */
  handleInbound(job: JobContext<InboundJob>): Promise<void> {
    return this.customers.run(`${job.data.accountId}:${job.data.message.from}`, () => this.handleOne(job));
  }

  private async handleOne(job: JobContext<InboundJob>): Promise<void> {
    const [account] = await this.db
      .select()
      .from(whatsappAccounts)
      .where(eq(whatsappAccounts.id, job.data.accountId));
    if (!account) return; // removed since: nothing to file it under
    const { message, profileName } = job.data;
    if (isUnreaction(message)) return;
    const phone = `+${message.from.replace(/^\+/, '')}`;
    const media = await this.mediaOf(account, message, job.attempt);
    const wordless = isWordlessMedia(message);
    // The note is for the agents: a caption the bot answers stays as the customer wrote it.
    const text = media.note && wordless ? `${textOfInbound(message)} ${media.note}` : textOfInbound(message);
    await this.markReplied(account, phone);
    const consent = consentOf(message, text);
    if (consent) await this.setConsent(account, phone, profileName, consent);

    const existing = await this.latestConversation(account, message.from);
    const botId = existing?.botId ?? account.botId ?? account.lastBotId;
    if (botId === null) {
      this.deps.log.warn(
        { accountId: account.id },
        'whatsapp: a message for a number never linked to a bot; dropped',
      );
      return;
    }
    const unlinked = account.botId === null || !account.isActive;
    // A tap on "Talk to a person" is no question for the bot: stored, then the hand-off answers it.
    const tapped = message.interactive?.button_reply?.id === PERSON_PAYLOAD;
    const agentsOnly = unlinked || consent !== null || wordless || !isConversational(message) || tapped;
    const botAnswers = !agentsOnly && !existing?.isHelpdeskInControl;
    if (account.isActive) this.markRead(account, message.id, botAnswers);
    const origin: ChannelOrigin = {
      channel: 'whatsapp',
      accountId: account.phoneNumberId,
      profile: existing?.userProfile ?? profileOf(message.from, profileName),
      // Said on the message too, so a hand-back does not answer it later (ChatService.answerLeftOver).
      metadata: { ...metadataOf(account, message, profileName), ...(agentsOnly ? { for_agents: true } : {}) },
      agentsOnly,
    };
    let stored: StoredTap | undefined;
    const exchange = await this.chat.send(
      { kind: 'visitor', tenantId: account.tenantId, visitorId: message.from, botId, origin },
      {
        botId,
        conversationId: existing && existing.botId === botId ? existing.id : undefined,
        message: text,
        attachments: [...attachmentsOf(message), ...media.attachments],
        // The wamid: a job run again after a crash stores and answers the message once.
        clientId: message.id,
        answerIfLeft: true,
      },
      { onConversation: (conversation, question) => (stored = { conversation, seq: question.seq }) },
    );
    if (tapped && !unlinked) return requestPersonOnTap(this.handoff, stored, exchange.replayed === true);
    // A job run again after its first run stored the message: that run said it already.
    if (exchange.replayed) return;
    if (consent)
      await this.say(
        exchange.conversation_id,
        consent === 'out' ? WHATSAPP_TEXTS.optedOut : WHATSAPP_TEXTS.optedIn,
        {
          consent,
        },
      );
    else if (wordless && account.botId !== null && account.isActive && !existing?.isHelpdeskInControl)
      await this.say(
        exchange.conversation_id,
        await this.mediaUnreadText(account.tenantId, botId, existing),
        {
          media_unread: true,
        },
      );
  }

  /** The bot's line to a file sent with no words, in the customer's language as far as the bot knows it. */
  private async mediaUnreadText(tenantId: number, botId: number, conversation?: ConversationRow) {
    const [bot] = await this.db
      .select({ setting: bots.visitorLanguage })
      .from(bots)
      .where(and(eq(bots.id, botId), eq(bots.tenantId, tenantId)));
    const setting = conversation?.visitorLanguage ?? bot?.setting ?? 'auto';
    const sources = setting === 'auto' ? await sourceLanguagesOf(this.db, tenantId, botId) : [];
    return replyTexts('', sources as Language[], setting).mediaUnread;
  }

  /** A fixed bot line for the customer (sent by the outbox like any bot message). */
  private async say(conversationId: number, message: string, metadata: Record<string, unknown>) {
    await appendTo(
      this.db,
      conversationId,
      { messageType: 'bot', messageSource: 'whatsapp', message, metadata },
      { announce: this.hub.storedNotification },
    );
  }

  /**
   * The customer's file, downloaded while Meta's link lasts and kept for the agents. Throttling or
   * an outage is retried with the job; past that, or for a file too large, the message is still
   * filed, with a note saying the file is not there.
   */
  private async mediaOf(
    account: WhatsAppAccountRow,
    message: CloudInbound,
    attempt: number,
  ): Promise<{ attachments: Attachment[]; note: string | null }> {
    const media = mediaOfInbound(message);
    if (!media?.id) return { attachments: [], note: null };
    try {
      const token = this.accounts.tokenOf(account);
      const info = await this.cloud.mediaInfo(media.id, token);
      if (!info.url) throw new GraphError('no media url in the answer', 200, null, null);
      if ((info.file_size ?? 0) > MEDIA_MAX_BYTES) throw new MediaTooLarge();
      const mime = baseMime(info.mime_type ?? media.mime_type);
      const bytes = await this.cloud.download(info.url, token, MEDIA_MAX_BYTES);
      const url = await storeMedia(this.deps.config.DATA_DIR, account.tenantId, bytes, mime);
      const name = media.filename?.trim() || `${message.type}${extensionOf(url)}`;
      return { attachments: [{ name, url, content_type: mime, size: bytes.length }], note: null };
    } catch (error) {
      if (error instanceof GraphError && error.kind === 'transient' && attempt < INBOUND_ATTEMPTS)
        throw error;
      this.deps.log.warn({ accountId: account.id, err: error }, 'whatsapp: a customer file was not kept');
      return {
        attachments: [],
        note:
          error instanceof MediaTooLarge
            ? `(file not kept: larger than ${MEDIA_MAX_BYTES / 1024 / 1024} MB)`
            : '(the file could not be downloaded from WhatsApp)',
      };
    }
  }

  /**
   * A message for the customer (the outbox's job): text split at 4,096 characters with the sources
   * as links, the "Talk to a person" reply button on its last part, or a template. Free-form
   * messages (buttons too) only within 24 hours of the customer's last message. A refused button
   * goes again as plain text that says how to ask for a person.
   */
  async handleSend(job: JobContext<SendJob>, maxAttempts: number): Promise<void> {
    const loaded = await this.loadOutgoing(job.data.messageId);
    if (!loaded) return;
    const { message, conversation, account } = loaded;
    const delivery = (message.metadata as { delivery?: DeliveryState } | null)?.delivery;
    if (delivery && delivery.status !== 'queued' && delivery.status !== 'failed') return;
    try {
      if (!account?.isActive)
        throw new PermanentJobError(account?.inactiveReason ?? WHATSAPP_TEXTS.accountNotFound);
      const template = (message.metadata as { template?: CloudMessage } | null)?.template;
      const window = await replyWindowOf(this.db, conversation, new Date());
      if (!template && window?.state === 'closed') throw new PermanentJobError(WHATSAPP_TEXTS.windowClosed);
      const token = this.accounts.tokenOf(account);
      const plan = (plain: boolean): Array<{ body: CloudMessage; part?: OutgoingPart }> =>
        template
          ? [{ body: template }]
          : outgoingParts('whatsapp', message, plain).map((part) => ({ body: cloudMessageOf(part), part }));
      let plain = delivery?.plain === true;
      let bodies = plan(plain);
      let sent = delivery?.parts_sent ?? 0;
      while (sent < bodies.length) {
        const { body, part } = bodies[sent]!;
        let wamid: string;
        try {
          wamid = await this.cloud.send(account.phoneNumberId, token, conversation.visitorId!, body);
        } catch (error) {
          if (!part || !buttonRefused(part, error)) throw error;
          this.deps.log.warn(
            { err: error, accountId: account.id },
            'whatsapp: reply button refused; sent as text',
          );
          plain = true;
          bodies = plan(plain);
          continue;
        }
        sent += 1;
        await recordDelivery(this.db, this.hub, message.id, {
          status: sent === bodies.length ? 'sent' : 'queued',
          error: null,
          parts_sent: sent,
          wamid,
          ...(plain ? { plain } : {}),
        });
      }
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

  /**
   * An agent's approved template in a conversation (the way back after the 24-hour window): stored
   * as the agent's message, sent by the outbox.
   */
  async sendTemplate(auth: AuthContext, conversationId: number, body: ConversationTemplateBody) {
    const [conversation] = await this.db
      .select()
      .from(conversations)
      .where(and(eq(conversations.id, conversationId), eq(conversations.tenantId, auth.tenantId)));
    if (conversation?.channel !== 'whatsapp' || !conversation.whatsappPhoneNumberId)
      throw notFound('Conversation not found');
    const account = await this.accounts.byPhoneNumberId(auth.tenantId, conversation.whatsappPhoneNumberId);
    if (!account) throw notFound(WHATSAPP_TEXTS.accountNotFound);
    const template = await this.templates.requireRow(auth, body.template_id);
    if (template.accountId !== account.id) throw notFound(WHATSAPP_TEXTS.templateNotFound);
    if (template.status !== 'APPROVED') throw conflict(WHATSAPP_TEXTS.templateNotApproved);
    const { message, text } = templateMessage(template, body.variables, body.header_value);
    if (!message) throw badRequest(text);
    const stored = await appendTo(
      this.db,
      conversation.id,
      {
        messageType: 'helpdesk',
        messageSource: 'whatsapp',
        message: text,
        senderId: String(auth.userId),
        recipientId: conversation.visitorId,
        metadata: { answer_mode: 'helpdesk', template: message, template_id: template.id },
      },
      { announce: this.hub.storedNotification },
    );
    this.hub.storedHere(stored);
    return { message: 'Template sent', message_id: stored.message.id };
  }

  private async markReplied(account: WhatsAppAccountRow, phone: string): Promise<void> {
    await this.db
      .update(whatsappRecipients)
      .set({ repliedAt: new Date() })
      .where(
        and(
          eq(whatsappRecipients.tenantId, account.tenantId),
          eq(whatsappRecipients.phone, phone),
          sql`${whatsappRecipients.repliedAt} IS NULL`,
          sql`${whatsappRecipients.status} IN ('sent', 'delivered', 'read')`,
          sql`${whatsappRecipients.sentAt} > now() - interval '7 days'`,
          sql`${whatsappRecipients.campaignId} IN (SELECT id FROM whatsapp_campaigns WHERE account_id = ${account.id})`,
        ),
      );
  }

  /** STOP opts the number out of every later campaign (a contact is created to remember it); START back in. */
  private async setConsent(
    account: WhatsAppAccountRow,
    phone: string,
    name: string | null,
    consent: 'out' | 'in',
  ): Promise<void> {
    const optedOutAt = consent === 'out' ? new Date() : null;
    await this.db
      .insert(whatsappContacts)
      .values({ tenantId: account.tenantId, accountId: account.id, phone, name, optedOutAt })
      .onConflictDoUpdate({
        target: [whatsappContacts.accountId, whatsappContacts.phone],
        set: { optedOutAt, updatedAt: new Date() },
      });
  }

  private markRead(account: WhatsAppAccountRow, messageId: string, typing: boolean): void {
    this.cloud
      .markRead(account.phoneNumberId, this.accounts.tokenOf(account), messageId, typing)
      .catch(() => undefined); // blue ticks and "typing…" are not worth a retry
  }

  private async latestConversation(
    account: WhatsAppAccountRow,
    waId: string,
  ): Promise<ConversationRow | undefined> {
    const [row] = await this.db
      .select()
      .from(conversations)
      .where(
        and(
          eq(conversations.tenantId, account.tenantId),
          eq(conversations.channel, 'whatsapp'),
          eq(conversations.visitorId, waId),
          eq(conversations.whatsappPhoneNumberId, account.phoneNumberId),
        ),
      )
      .orderBy(desc(conversations.lastMessageAt))
      .limit(1);
    return row;
  }

  private async loadOutgoing(messageId: number) {
    const [row] = await this.db
      .select({ message: messages, conversation: conversations })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .where(eq(messages.id, messageId));
    if (!row?.conversation.whatsappPhoneNumberId) return null;
    const account = await this.accounts.byPhoneNumberId(
      row.conversation.tenantId,
      row.conversation.whatsappPhoneNumberId,
    );
    return { ...row, account };
  }

  private async classify(error: unknown, account: WhatsAppAccountRow | undefined): Promise<boolean> {
    if (error instanceof PermanentJobError) return true;
    if (!(error instanceof GraphError)) return false;
    if (error.kind === 'token' && account)
      await this.accounts.deactivate(account, WHATSAPP_TEXTS.tokenExpired);
    return error.kind !== 'transient';
  }
}

type StatusUpdate = {
  id: string;
  phone_number_id: string;
  recipient_id: number | null;
  status: string;
  sent_at: string | null;
  delivered_at: string | null;
  read_at: string | null;
  code: number | null;
  /** Meta's words, as campaign logs and analytics keep them. */
  error: string | null;
  /** What the inbox shows under the message (failure-reasons.ts). */
  reason: string | null;
};

const rankOf = (status: string) => STATUS_ORDER.indexOf(status as (typeof STATUS_ORDER)[number]);

function recipientIdOf(callback: string | undefined): number | null {
  if (!callback?.startsWith(CALLBACK_PREFIX)) return null;
  const id = Number(callback.slice(CALLBACK_PREFIX.length));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

function consentOf(message: CloudInbound, text: string): 'out' | 'in' | null {
  if (message.type !== 'text' && message.type !== 'button' && message.type !== 'interactive') return null;
  const said = text
    .trim()
    .toLowerCase()
    .replace(/[.!]+$/, '');
  if ((OPT_OUT_WORDS as readonly string[]).includes(said)) return 'out';
  if ((OPT_IN_WORDS as readonly string[]).includes(said)) return 'in';
  return null;
}

/** console.md's user_profile for a WhatsApp customer: the profile name and the number. */
function profileOf(waId: string, profileName: string | null): Record<string, unknown> {
  return {
    name: profileName,
    full_name: profileName,
    phoneNumber: `+${waId}`,
    platform: 'whatsapp',
    userId: waId,
    wa_id: waId,
    source: 'whatsapp',
  };
}

/** console.md's message_metadata, with message_data.contact_info (profile_name, wa_id). */
function metadataOf(account: WhatsAppAccountRow, message: CloudInbound, profileName: string | null) {
  return {
    sender: { id: message.from },
    recipient: { id: account.phoneNumberId },
    message: message.text?.body ?? null,
    // Meta gives seconds; the reply window reads milliseconds (handoff/reply-window.ts).
    timestamp: message.timestamp ? Number(message.timestamp) * 1000 : null,
    whatsapp_phone_number_id: account.phoneNumberId,
    wamid: message.id,
    type: message.type ?? null,
    message_data: {
      contact_info: { profile_name: profileName, wa_id: message.from },
      ...(message.location ? { location: message.location } : {}),
      ...(message.contacts ? { contacts: message.contacts } : {}),
      ...(message.interactive ? { interactive: message.interactive } : {}),
      ...(message.reaction ? { reaction: message.reaction } : {}),
      ...(message.context ? { context: message.context } : {}),
    },
  };
}

/** Media arrive as ids (downloading needs the token): shown as named attachments with a location link when there is one. */
function attachmentsOf(message: CloudInbound): Attachment[] {
  if (message.location?.latitude !== undefined)
    return [
      {
        name: message.location.name ?? 'Location',
        url: `https://maps.google.com/?q=${message.location.latitude},${message.location.longitude}`,
        content_type: 'text/uri-list',
        size: 0,
      },
    ];
  return [];
}

const extensionOf = (url: string) => url.slice(url.lastIndexOf('.'));

/** A part of an answer on the wire: text with link previews, or with its button an interactive message. */
function cloudMessageOf({ text, button }: OutgoingPart): CloudMessage {
  if (!button) return { type: 'text', text: { body: text, preview_url: true } };
  return {
    type: 'interactive',
    interactive: {
      type: 'button',
      body: { text },
      action: { buttons: [{ type: 'reply', reply: { id: button.payload, title: button.title } }] },
    },
  };
}

function reasonOf(error: unknown): string {
  if (error instanceof GraphError) {
    if (error.kind === 'token') return WHATSAPP_TEXTS.tokenExpired;
    if (error.kind === 'window') return WHATSAPP_TEXTS.windowClosed;
    return knownFailure(error.code) ?? `WhatsApp refused the message: ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}
