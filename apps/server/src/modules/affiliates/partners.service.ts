import {
  AFFILIATE_TEXTS,
  type MoneyTotal,
  type PartnerCheck,
  type PartnerProfile,
  type UpdatePartnerBody,
} from '@parley/contracts';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { encryptSecret } from '../../core/crypto.js';
import type { Db } from '../../core/db/database.js';
import { conflict, notFound } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import type { ModuleDeps } from '../../core/module.js';
import { AUTHZ_CHANGED, type AuthzChanged } from '../auth/sessions.js';
import { type AffiliateKeys, affiliateKeys, conversionRate } from './affiliates.keys.js';
import { commissions, partners, referralClicks, referralLinks, referrals } from './affiliates.schema.js';

export type PartnerRow = typeof partners.$inferSelect;

/** Partner accounts: becoming one, the profile with its derived statistics. */
export class PartnersService {
  private readonly keys: AffiliateKeys;

  constructor(private readonly deps: Pick<ModuleDeps, 'db' | 'config' | 'events'>) {
    this.keys = affiliateKeys(deps.config.appSecret);
  }

  private get db(): Db {
    return this.deps.db;
  }

  /** Whether the caller is a partner. Another user's id answers 404: nobody probes accounts. */
  async check(auth: AuthContext, userId: number | undefined): Promise<PartnerCheck> {
    if (userId !== undefined && userId !== auth.userId) throw notFound(AFFILIATE_TEXTS.partnerNotFound);
    const row = await this.find(auth.userId);
    return { user_id: auth.userId, is_partner: row !== undefined };
  }

  /**
   * Makes the caller a partner as well: they keep their workspace and roles, and the account menu
   * switches between the workspace and the partner area (issue 31). Doing it twice changes nothing;
   * a platform admin cannot.
   */
  async become(auth: AuthContext): Promise<PartnerProfile> {
    const user = auth.user;
    if (user.user_type.toLowerCase() === 'admin') throw conflict(AFFILIATE_TEXTS.adminCannotBecome);
    const displayName = `${user.first_name} ${user.last_name}`.trim() || user.username;
    await this.db
      .insert(partners)
      .values({ tenantId: auth.tenantId, userId: auth.userId, displayName })
      .onConflictDoNothing();
    // The cached caller (and every node's) must see is_partner at once.
    await this.deps.events.publish<AuthzChanged>(AUTHZ_CHANGED, { tenantId: auth.tenantId });
    return this.profile(auth);
  }

  async require(auth: AuthContext): Promise<PartnerRow> {
    const row = await this.find(auth.userId);
    if (!row) throw notFound(AFFILIATE_TEXTS.partnerNotFound);
    return row;
  }

  async profile(auth: AuthContext): Promise<PartnerProfile> {
    return this.describe(await this.require(auth));
  }

  async update(auth: AuthContext, body: UpdatePartnerBody): Promise<PartnerProfile> {
    const row = await this.require(auth);
    const changes: Partial<typeof partners.$inferInsert> = {};
    if (body.display_name !== undefined) changes.displayName = body.display_name;
    if (body.payout_details !== undefined) {
      const details = body.payout_details;
      changes.payoutDetailsSealed = details ? encryptSecret(this.keys.payout, details) : null;
      changes.payoutDetailsHint = details ? hintOf(details) : null;
    }
    if (Object.keys(changes).length > 0)
      await this.db.update(partners).set(changes).where(eq(partners.id, row.id));
    return this.profile(auth);
  }

  private async find(userId: number): Promise<PartnerRow | undefined> {
    const [row] = await this.db.select().from(partners).where(eq(partners.userId, userId));
    return row;
  }

  private async describe(row: PartnerRow): Promise<PartnerProfile> {
    const [links, clicks, conversions, money] = await Promise.all([
      this.db.select({ n: count() }).from(referralLinks).where(eq(referralLinks.partnerId, row.id)),
      this.db
        .select({ n: count() })
        .from(referralClicks)
        .innerJoin(referralLinks, eq(referralLinks.id, referralClicks.linkId))
        .where(eq(referralLinks.partnerId, row.id)),
      this.db.select({ n: count() }).from(referrals).where(eq(referrals.partnerId, row.id)),
      moneyOf(this.db, row.id),
    ]);
    const clickCount = clicks[0]?.n ?? 0;
    const conversionCount = conversions[0]?.n ?? 0;
    return {
      id: row.id,
      user_id: row.userId,
      display_name: row.displayName,
      payout_details_set: row.payoutDetailsSealed !== null,
      payout_details_hint: row.payoutDetailsHint,
      total_earned: money.earned,
      pending_commissions: money.pending,
      pending_count: money.pendingCount,
      link_count: links[0]?.n ?? 0,
      clicks: clickCount,
      conversions: conversionCount,
      conversion_rate: conversionRate(clickCount, conversionCount),
      created_at: row.createdAt.toISOString(),
    };
  }
}

/** Earned (approved and paid, less any clawback) and pending, per currency. */
async function moneyOf(db: Db, partnerId: number) {
  const rows = await db
    .select({
      status: commissions.status,
      currency: commissions.currency,
      amount: sql<string>`sum(${commissions.amount})`,
      // Commissions, not the negative lines that take a refunded share back.
      n: sql<number>`count(*) filter (where ${commissions.amount} > 0)`.mapWith(Number),
    })
    .from(commissions)
    .where(
      and(eq(commissions.partnerId, partnerId), inArray(commissions.status, ['pending', 'approved', 'paid'])),
    )
    .groupBy(commissions.status, commissions.currency);
  const totals = (statuses: string[]): MoneyTotal[] => {
    const byCurrency = new Map<string, number>();
    for (const row of rows.filter((r) => statuses.includes(r.status)))
      byCurrency.set(row.currency, (byCurrency.get(row.currency) ?? 0) + Number(row.amount));
    return [...byCurrency].map(([currency, amount]) => ({ currency, amount })).sort(byCode);
  };
  const pendingCount = rows.filter((r) => r.status === 'pending').reduce((n, r) => n + r.n, 0);
  return { earned: totals(['approved', 'paid']), pending: totals(['pending']), pendingCount };
}

const byCode = (a: MoneyTotal, b: MoneyTotal) => a.currency.localeCompare(b.currency);

/** The last four characters, so the partner recognises the account; never the whole of it. */
const hintOf = (details: string) => `…${details.replace(/\s+/g, '').slice(-4)}`;
