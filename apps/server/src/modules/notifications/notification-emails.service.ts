import {
  type EmailLog,
  type EmailLogEntry,
  MESSAGES,
  NOTIFICATION_LIMITS,
  type SendEmailBody,
} from '@parley/contracts';
import { and, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../core/db/database.js';
import { mailOutbox, tenants, users } from '../../core/db/schema.js';
import { badRequest, notFound, tooManyRequests } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import { requireBot } from '../bots/bots.queries.js';
import type { MailService } from '../mail/mail.service.js';
import { notificationEmails } from './notifications.schema.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** The log answers at most this many mails, newest first. */
const LOG_LIMIT = 500;

export type EmailLogFilters = {
  start_date?: string;
  end_date?: string;
  tenant_id?: number;
  bot_id?: number;
};

/**
 * POST /notification/send-email and GET /notification/emails/: a workspace mails its own teammates
 * about a bot or a conversation, through the outbox (so delivery is retried), at most
 * NOTIFICATION_LIMITS.emailsPerHour per workspace across every process (counted in the database).
 */
export class NotificationEmailsService {
  constructor(
    private readonly db: Db,
    private readonly mail: MailService,
  ) {}

  async send(auth: AuthContext, body: SendEmailBody): Promise<number[]> {
    const tenantId = auth.tenantId;
    return this.db.transaction(async (tx) => {
      // One sender of the workspace at a time, so two requests cannot both take the last slot.
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('notification-emails'), ${tenantId})`);
      await this.checkRate(tx, tenantId);
      if (body.bot_id !== undefined) await requireBot(tx, tenantId, body.bot_id);
      const recipients = await tx
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(and(eq(users.tenantId, tenantId), inArray(users.id, body.user_ids)));
      if (recipients.length !== new Set(body.user_ids).size) throw notFound('User not found');
      const ids: number[] = [];
      for (const recipient of recipients) {
        const outboxId = await this.mail.send(
          { to: recipient.email, subject: body.subject, text: body.message, tenantId },
          tx,
        );
        await tx
          .insert(notificationEmails)
          .values({ tenantId, outboxId, botId: body.bot_id ?? null, sentBy: auth.userId });
        ids.push(outboxId);
      }
      return ids;
    });
  }

  /** The rate counts recipients: one request to 20 teammates is 20 mails. */
  private async checkRate(tx: DbOrTx, tenantId: number): Promise<void> {
    const since = new Date(Date.now() - HOUR_MS);
    const [row] = await tx
      .select({
        n: sql<number>`count(*)::int`,
        oldest: sql<string | null>`min(${notificationEmails.createdAt})`,
      })
      .from(notificationEmails)
      .where(and(eq(notificationEmails.tenantId, tenantId), gte(notificationEmails.createdAt, since)));
    if ((row?.n ?? 0) < NOTIFICATION_LIMITS.emailsPerHour) return;
    const oldest = row?.oldest ? new Date(row.oldest).getTime() : Date.now();
    throw tooManyRequests(Math.max(1, Math.ceil((oldest + HOUR_MS - Date.now()) / 1000)));
  }

  /**
   * The mail log of one workspace: the caller's own, or any for a platform admin. Another workspace
   * (or a bot of another) answers 404, as if it did not exist.
   */
  async log(auth: AuthContext, filters: EmailLogFilters): Promise<EmailLog> {
    const tenantId = await this.tenantOf(auth, filters.tenant_id);
    if (filters.bot_id !== undefined) await requireBot(this.db, tenantId, filters.bot_id);
    const { from, to } = period(filters);
    const rows = await this.db
      .select({
        id: mailOutbox.id,
        tenantId: notificationEmails.tenantId,
        botId: notificationEmails.botId,
        sentBy: notificationEmails.sentBy,
        to: mailOutbox.toAddress,
        subject: mailOutbox.subject,
        status: mailOutbox.status,
        createdAt: notificationEmails.createdAt,
        sentAt: mailOutbox.sentAt,
      })
      .from(notificationEmails)
      .innerJoin(mailOutbox, eq(mailOutbox.id, notificationEmails.outboxId))
      .where(
        and(
          eq(notificationEmails.tenantId, tenantId),
          filters.bot_id === undefined ? undefined : eq(notificationEmails.botId, filters.bot_id),
          from ? gte(notificationEmails.createdAt, from) : undefined,
          to ? lt(notificationEmails.createdAt, to) : undefined,
        ),
      )
      .orderBy(desc(notificationEmails.createdAt), desc(notificationEmails.id))
      .limit(LOG_LIMIT);
    return { emails: rows.map(toEntry) };
  }

  private async tenantOf(auth: AuthContext, requested: number | undefined): Promise<number> {
    if (requested === undefined || requested === auth.tenantId) return auth.tenantId;
    if (!auth.ability.can('read', 'Admin')) throw notFound();
    const [tenant] = await this.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, requested));
    if (!tenant) throw notFound();
    return tenant.id;
  }
}

/** Whole UTC days, both ends included. */
function period(filters: EmailLogFilters): { from?: Date; to?: Date } {
  const from = filters.start_date ? new Date(`${filters.start_date}T00:00:00Z`) : undefined;
  const to = filters.end_date
    ? new Date(new Date(`${filters.end_date}T00:00:00Z`).getTime() + DAY_MS)
    : undefined;
  if (from && to && from >= to) throw badRequest('start_date must not be after end_date');
  return { from, to };
}

function toEntry(row: {
  id: number;
  tenantId: number;
  botId: number | null;
  sentBy: number | null;
  to: string;
  subject: string;
  status: EmailLogEntry['status'];
  createdAt: Date;
  sentAt: Date | null;
}): EmailLogEntry {
  return {
    id: row.id,
    tenant_id: row.tenantId,
    bot_id: row.botId,
    sent_by: row.sentBy,
    to: row.to,
    subject: row.subject,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    sent_at: row.sentAt ? row.sentAt.toISOString() : null,
  };
}

export const EMAIL_SENT = MESSAGES.notification.emailSent;
