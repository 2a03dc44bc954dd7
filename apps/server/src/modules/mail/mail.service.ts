import { eq } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Db, DbOrTx } from '../../core/db/database.js';
import { mailOutbox } from '../../core/db/schema.js';
import type { JobQueue } from '../../core/jobs/queue.js';

export const MAIL_JOB = 'mail.send';

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

/**
 * The one way Parley sends mail. Every message is written to the outbox and delivered by a job
 * (retried with back-off when the SMTP server is down). Without SMTP_URL the message stays in the
 * outbox and its links are logged, so a local user can still accept an invitation or reset a
 * password. Delivered bodies are cleared, so codes and links do not linger in the database.
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
    const [row] = await tx
      .insert(mailOutbox)
      .values({
        tenantId: mail.tenantId ?? null,
        toAddress: mail.to,
        subject: mail.subject,
        textBody: mail.text,
        htmlBody: mail.html,
        replyTo: mail.replyTo ?? null,
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
    if (!mail || mail.status === 'sent' || mail.status === 'kept') return;
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

  close(): void {
    this.transport?.close();
  }
}

const linksIn = (text: string): string[] => text.match(/https?:\/\/\S+/g) ?? [];
