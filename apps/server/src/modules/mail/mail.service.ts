import { eq } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Db, DbOrTx } from '../../core/db/database.js';
import { mailOutbox } from '../../core/db/schema.js';
import type { JobQueue } from '../../core/jobs/queue.js';
import { isUserOfTenant } from './mail.queries.js';

export const MAIL_JOB = 'mail.send';
/** Why a mail was not sent, as the mail logs show it (`error` of a 'dropped' mail). */
export const DROPPED_TEAMMATE_REMOVED =
  'Not sent: the recipient was removed from the workspace before the mail could be delivered';

export type Mail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  tenantId?: number | null;
  /** Where the recipient's reply goes, when not to Parley's own address (a visitor who left theirs). */
  replyTo?: string;
};
type Logger = { info(obj: object, msg: string): void };
type MailJob = { outboxId: number };
type OutboxRow = typeof mailOutbox.$inferSelect;

/**
 * The one way Parley sends mail. Every message is written to the outbox and delivered by a job
 * (retried with back-off when the SMTP server is down). Without SMTP_URL the message stays in the
 * outbox and its links are logged, so a local user can still accept an invitation or reset a
 * password. Delivered bodies are cleared, so codes and links do not linger in the database.
 *
 * A workspace's mail to one of its users (its tenant set, its address a user of that tenant when
 * queued) is mail to a teammate: a lead's details, a conversation link, a billing notice. Delivery
 * can come long after (SMTP down, retries), so it is sent only if the address still belongs to a
 * user of that tenant; otherwise it is dropped, its body cleared and the reason kept, because a
 * removed person must not receive the workspace's mail. Mail to anyone else (an invitation to a
 * new person, a visitor, the contact address) is never dropped.
 */
export class MailService {
  private transport: Transporter | undefined;

  constructor(
    private readonly db: Db,
    private readonly jobs: JobQueue,
    private readonly options: { smtpUrl?: string; from: string; logger: Logger },
  ) {}

  /** Whether mail leaves this server (SMTP configured); otherwise it stays in the outbox. */
  get delivers(): boolean {
    return Boolean(this.options.smtpUrl);
  }

  /** Queues a mail; pass the caller's transaction so the mail exists only if its cause does. */
  async send(mail: Mail, tx: DbOrTx = this.db): Promise<number> {
    const tenantId = mail.tenantId ?? null;
    const toTeammate = tenantId !== null && (await isUserOfTenant(tx, tenantId, mail.to));
    const [row] = await tx
      .insert(mailOutbox)
      .values({
        tenantId: mail.tenantId ?? null,
        toAddress: mail.to,
        subject: mail.subject,
        textBody: mail.text,
        htmlBody: mail.html,
        replyTo: mail.replyTo ?? null,
        toTeammate,
      })
      .returning({ id: mailOutbox.id });
    if (!row) throw new Error('outbox insert returned nothing');
    await this.jobs.enqueue<MailJob>(
      MAIL_JOB,
      { outboxId: row.id },
      { tenantId: mail.tenantId ?? null, tx, maxAttempts: 8 },
    );
    return row.id;
  }

  registerWorker(): void {
    this.jobs.register<MailJob>(MAIL_JOB, async (job) => this.deliver(job.data.outboxId));
  }

  private async deliver(outboxId: number): Promise<void> {
    const [mail] = await this.db.select().from(mailOutbox).where(eq(mailOutbox.id, outboxId));
    if (!mail || mail.status === 'sent' || mail.status === 'kept' || mail.status === 'dropped') return;
    if (await this.teammateRemoved(mail)) return this.drop(mail, DROPPED_TEAMMATE_REMOVED);
    if (!this.options.smtpUrl) {
      this.options.logger.info(
        { mailId: mail.id, to: mail.toAddress, subject: mail.subject, links: linksIn(mail.textBody ?? '') },
        'mail kept in the outbox (no SMTP_URL configured)',
      );
      await this.db.update(mailOutbox).set({ status: 'kept' }).where(eq(mailOutbox.id, outboxId));
      return;
    }
    this.transport ??= nodemailer.createTransport(this.options.smtpUrl);
    await this.transport.sendMail({
      from: this.options.from,
      to: mail.toAddress,
      subject: mail.subject,
      text: mail.textBody ?? '',
      html: mail.htmlBody ?? undefined,
      replyTo: mail.replyTo ?? undefined,
    });
    await this.db
      .update(mailOutbox)
      .set({ status: 'sent', sentAt: new Date(), textBody: null, htmlBody: null, replyTo: null, error: null })
      .where(eq(mailOutbox.id, outboxId));
  }

  /** Checked at every attempt, so a removal during an SMTP outage stops the retries' mail too. */
  private async teammateRemoved(mail: OutboxRow): Promise<boolean> {
    if (!mail.toTeammate || mail.tenantId === null) return false;
    return !(await isUserOfTenant(this.db, mail.tenantId, mail.toAddress));
  }

  /** Not sent, and its body (a lead's details, links) cleared: the logs show the reason instead. */
  private async drop(mail: OutboxRow, reason: string): Promise<void> {
    this.options.logger.info({ mailId: mail.id, subject: mail.subject, reason }, 'mail dropped');
    await this.db
      .update(mailOutbox)
      .set({ status: 'dropped', error: reason, textBody: null, htmlBody: null, replyTo: null })
      .where(eq(mailOutbox.id, mail.id));
  }

  close(): void {
    this.transport?.close();
  }
}

const linksIn = (text: string): string[] => text.match(/https?:\/\/\S+/g) ?? [];
