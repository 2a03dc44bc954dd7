import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { tooManyRequests } from '../../core/errors.js';

export type AttemptLimits = {
  perIpPerMinute: number;
  perAccountPer15Minutes: number;
  signupsPerIpPerHour: number;
};

/**
 * The limiter's key for a known account, whatever name was typed to reach it, so its email and its
 * username share one budget of failures.
 */
export const accountKey = (userId: number) => `user:${userId}`;

/**
 * Limits for sign-in, codes and resets: every attempt counts against the caller's IP; failures
 * (and code requests) count against the account, so guessing one account's password from many
 * addresses is slowed as well. Sign-ups (each one a new workspace) have their own hourly budget per
 * IP. Kept in memory: with several nodes each node enforces its share.
 */
export class AttemptLimiter {
  private readonly ip: RateLimiterMemory;
  private readonly account: RateLimiterMemory;
  private readonly signups: RateLimiterMemory;

  constructor(limits: AttemptLimits) {
    this.ip = new RateLimiterMemory({ keyPrefix: 'ip', points: limits.perIpPerMinute, duration: 60 });
    this.account = new RateLimiterMemory({
      keyPrefix: 'account',
      points: limits.perAccountPer15Minutes,
      duration: 900,
    });
    this.signups = new RateLimiterMemory({
      keyPrefix: 'signup',
      points: limits.signupsPerIpPerHour,
      duration: 3600,
    });
  }

  async signupFromIp(ip: string): Promise<void> {
    await consume(this.signups, ip);
  }

  async attemptFromIp(ip: string): Promise<void> {
    await consume(this.ip, ip);
  }

  /** Refuses when the account has used up its failures, without counting this attempt. */
  async ensureAccountAllowed(account: string): Promise<void> {
    const state = await this.account.get(normalise(account));
    if (state && state.remainingPoints <= 0) throw tooManyRequests(seconds(state));
  }

  async countAgainstAccount(account: string): Promise<void> {
    await consume(this.account, normalise(account));
  }

  async clearAccount(account: string): Promise<void> {
    await this.account.delete(normalise(account));
  }
}

const normalise = (account: string) => account.trim().toLowerCase();
const seconds = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

async function consume(limiter: RateLimiterMemory, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) throw tooManyRequests(seconds(rejection));
    throw rejection;
  }
}
