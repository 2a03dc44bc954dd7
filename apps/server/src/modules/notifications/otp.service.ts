import { AUTH_LIMITS, MESSAGES } from '@parley/contracts';
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { deriveKey, keyedHash, randomDigits, safeEqual } from '../../core/crypto.js';
import type { Db, DbOrTx } from '../../core/db/database.js';
import { otpCodes, users } from '../../core/db/schema.js';
import { badRequest } from '../../core/errors.js';
import type { JobQueue } from '../../core/jobs/queue.js';
import { type AttemptLimiter, accountKey } from '../auth/attempt-limiter.js';
import { hashPassword } from '../auth/passwords.js';
import type { SessionResolver } from '../auth/sessions.js';
import type { TokenService } from '../auth/tokens.js';
import type { MailService } from '../mail/mail.service.js';
import { findUserByEmail } from '../users/users.queries.js';

type Purpose = 'verify' | 'reset';
type ResetJob = { email: string };
const RESET_JOB = 'auth.password-reset';

/**
 * One-time codes: six digits, keyed-hashed at rest, valid 10 minutes, 5 tries, single use. A new
 * code replaces the previous one. Password reset answers the same whether or not the address has
 * an account, so it cannot be used to find out who is a customer.
 */
export class OtpService {
  private readonly key: Buffer;

  constructor(
    private readonly db: Db,
    secret: string,
    private readonly mail: MailService,
    private readonly limiter: AttemptLimiter,
    private readonly tokens: TokenService,
    private readonly sessions: SessionResolver,
    private readonly publicUrl: string,
    private readonly jobs: JobQueue,
  ) {
    this.key = deriveKey(secret, 'otp');
  }

  async sendVerificationCode(ip: string, email: string): Promise<void> {
    await this.throttle(ip, email);
    await this.db.transaction(async (tx) => {
      const code = await this.issue(tx, email, 'verify');
      await this.mail.send(
        {
          to: email,
          subject: `Your Parley code: ${code}`,
          text: codeText(code, 'confirm your email address'),
        },
        tx,
      );
    });
  }

  async verifyEmail(ip: string, email: string, otp: string): Promise<void> {
    await this.limiter.attemptFromIp(ip);
    await this.check(email, 'verify', otp, true);
    await this.db
      .update(users)
      .set({ emailVerified: true })
      .where(sql`lower(${users.email}) = lower(${email})`);
  }

  /**
   * Queues the reset whether or not the address has an account: the request does the same work
   * either way, so neither its answer nor its timing tells who is a customer. The job looks it up.
   */
  async requestPasswordReset(ip: string, email: string): Promise<void> {
    await this.throttle(ip, email);
    await this.jobs.enqueue<ResetJob>(RESET_JOB, { email }, { maxAttempts: 3 });
  }

  registerWorker(): void {
    this.jobs.register<ResetJob>(RESET_JOB, (job) => this.sendResetCode(job.data.email));
  }

  private async sendResetCode(email: string): Promise<void> {
    const user = await findUserByEmail(this.db, email);
    if (!user) return;
    await this.db.transaction(async (tx) => {
      const code = await this.issue(tx, email, 'reset');
      const link = `${this.publicUrl}/reset-password?email=${encodeURIComponent(email)}&otp=${code}`;
      await this.mail.send(
        {
          to: email,
          tenantId: user.tenantId,
          subject: 'Reset your Parley password',
          text: `${codeText(code, 'reset your password')}\n\nOr open this link: ${link}\n\nIf you did not ask for this, ignore this mail.`,
        },
        tx,
      );
    });
  }

  async verifyPasswordReset(ip: string, email: string, otp: string): Promise<void> {
    await this.limiter.attemptFromIp(ip);
    await this.check(email, 'reset', otp, false);
  }

  /** Sets the new password and signs the account out everywhere. */
  async completePasswordReset(ip: string, email: string, otp: string, newPassword: string): Promise<void> {
    await this.limiter.attemptFromIp(ip);
    const passwordHash = await hashPassword(newPassword);
    const user = await findUserByEmail(this.db, email);
    await this.check(email, 'reset', otp, true);
    if (!user) throw badRequest(MESSAGES.otp.invalid);
    await this.db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, user.id));
      await this.tokens.revokeAllForUser(tx, user.id);
    });
    await this.limiter.clearAccount(accountKey(user.id));
    await this.sessions.changed(user.tenantId);
    await this.sessions.revoked(user.id);
  }

  private async throttle(ip: string, email: string): Promise<void> {
    await this.limiter.attemptFromIp(ip);
    await this.limiter.ensureAccountAllowed(`otp:${email}`);
    await this.limiter.countAgainstAccount(`otp:${email}`);
  }

  private async issue(tx: DbOrTx, email: string, purpose: Purpose): Promise<string> {
    const code = randomDigits(AUTH_LIMITS.otpDigits);
    await tx
      .update(otpCodes)
      .set({ consumedAt: new Date() })
      .where(and(eq(otpCodes.email, email), eq(otpCodes.purpose, purpose), isNull(otpCodes.consumedAt)));
    await tx.insert(otpCodes).values({
      email,
      purpose,
      codeHash: keyedHash(this.key, code),
      expiresAt: new Date(Date.now() + AUTH_LIMITS.otpTtlMinutes * 60_000),
    });
    return code;
  }

  /**
   * Checks a code against the live one; a wrong code uses up one of the tries (counted atomically,
   * so parallel guesses cannot exceed them). `consume` marks it used.
   */
  private async check(email: string, purpose: Purpose, otp: string, consume: boolean): Promise<void> {
    const [live] = await this.db
      .select()
      .from(otpCodes)
      .where(
        and(
          eq(otpCodes.email, email),
          eq(otpCodes.purpose, purpose),
          isNull(otpCodes.consumedAt),
          gt(otpCodes.expiresAt, new Date()),
        ),
      )
      .orderBy(desc(otpCodes.id))
      .limit(1);
    if (!live) throw badRequest(MESSAGES.otp.invalid);
    if (live.attempts >= AUTH_LIMITS.otpMaxAttempts) throw badRequest(MESSAGES.otp.tooManyAttempts);
    if (!safeEqual(live.codeHash, keyedHash(this.key, otp))) {
      const [counted] = await this.db
        .update(otpCodes)
        .set({ attempts: sql`${otpCodes.attempts} + 1` })
        .where(and(eq(otpCodes.id, live.id), lt(otpCodes.attempts, AUTH_LIMITS.otpMaxAttempts)))
        .returning({ attempts: otpCodes.attempts });
      throw badRequest(
        counted && counted.attempts < AUTH_LIMITS.otpMaxAttempts
          ? MESSAGES.otp.invalid
          : MESSAGES.otp.tooManyAttempts,
      );
    }
    if (!consume) return;
    const used = await this.db
      .update(otpCodes)
      .set({ consumedAt: new Date() })
      .where(and(eq(otpCodes.id, live.id), isNull(otpCodes.consumedAt)))
      .returning({ id: otpCodes.id });
    if (used.length === 0) throw badRequest(MESSAGES.otp.invalid);
  }
}

const codeText = (code: string, purpose: string) =>
  `Your code to ${purpose} is ${code}.\n\nIt expires in ${AUTH_LIMITS.otpTtlMinutes} minutes and works once.`;
