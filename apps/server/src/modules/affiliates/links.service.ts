import { randomBytes } from 'node:crypto';
import {
  AFFILIATE_TEXTS,
  type CreateLinkBody,
  type Referral,
  type ReferralAnalytics,
  type ReferralLink,
  type ReferralLinkPage,
  type ReferralPage,
  type UpdateLinkBody,
} from '@parley/contracts';
import { and, count, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../core/db/database.js';
import { isUniqueViolation } from '../../core/db/errors.js';
import { conflict, notFound } from '../../core/errors.js';
import type { ModuleDeps } from '../../core/module.js';
import { type AffiliateKeys, affiliateKeys, anonymousWorkspace, conversionRate } from './affiliates.keys.js';
import { referralClicks, referralLinks, referrals } from './affiliates.schema.js';
import type { PartnerRow } from './partners.service.js';

type LinkRow = typeof referralLinks.$inferSelect;
type Page = { page: number; size: number };
const DAY_MS = 86_400_000;

/** A partner's referral links, the referrals they brought and the daily series of both. */
export class LinksService {
  private readonly keys: AffiliateKeys;

  constructor(private readonly deps: Pick<ModuleDeps, 'db' | 'config' | 'clock'>) {
    this.keys = affiliateKeys(deps.config.appSecret);
  }

  private get db(): Db {
    return this.deps.db;
  }

  async create(partner: PartnerRow, body: CreateLinkBody): Promise<ReferralLink> {
    // A chosen code that is taken is the partner's to change; a generated one is retried.
    for (let attempt = 0; attempt < 5; attempt++) {
      const code = body.code ?? randomBytes(5).toString('hex');
      try {
        const [row] = await this.db
          .insert(referralLinks)
          .values({
            partnerId: partner.id,
            code,
            destination: body.destination ?? '/register',
            campaign: body.campaign || null,
          })
          .returning();
        return this.describe(row!);
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        if (body.code) throw conflict(AFFILIATE_TEXTS.codeTaken);
      }
    }
    throw conflict(AFFILIATE_TEXTS.codeTaken);
  }

  async list(partner: PartnerRow, { page, size }: Page): Promise<ReferralLinkPage> {
    const where = eq(referralLinks.partnerId, partner.id);
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(referralLinks)
        .where(where)
        .orderBy(desc(referralLinks.createdAt), desc(referralLinks.id))
        .limit(size)
        .offset((page - 1) * size),
      this.db.select({ n: count() }).from(referralLinks).where(where),
    ]);
    return { items: await this.describeAll(rows), total: total?.n ?? 0, page, size };
  }

  async update(partner: PartnerRow, id: number, body: UpdateLinkBody): Promise<ReferralLink> {
    const changes: Partial<typeof referralLinks.$inferInsert> = {};
    if (body.destination !== undefined) changes.destination = body.destination;
    if (body.campaign !== undefined) changes.campaign = body.campaign || null;
    const [row] =
      Object.keys(changes).length > 0
        ? await this.db.update(referralLinks).set(changes).where(this.own(partner, id)).returning()
        : await this.db.select().from(referralLinks).where(this.own(partner, id));
    if (!row) throw notFound(AFFILIATE_TEXTS.linkNotFound);
    return this.describe(row);
  }

  /** The link goes; its referrals and commissions stay (their link becomes unknown). */
  async remove(partner: PartnerRow, id: number): Promise<void> {
    const gone = await this.db
      .delete(referralLinks)
      .where(this.own(partner, id))
      .returning({ id: referralLinks.id });
    if (gone.length === 0) throw notFound(AFFILIATE_TEXTS.linkNotFound);
  }

  async referrals(partner: PartnerRow, { page, size }: Page): Promise<ReferralPage> {
    const where = eq(referrals.partnerId, partner.id);
    const [rows, [total]] = await Promise.all([
      this.db
        .select({
          id: referrals.id,
          tenantId: referrals.referredTenantId,
          code: referralLinks.code,
          campaign: referralLinks.campaign,
          createdAt: referrals.createdAt,
        })
        .from(referrals)
        .leftJoin(referralLinks, eq(referralLinks.id, referrals.linkId))
        .where(where)
        .orderBy(desc(referrals.createdAt), desc(referrals.id))
        .limit(size)
        .offset((page - 1) * size),
      this.db.select({ n: count() }).from(referrals).where(where),
    ]);
    const items: Referral[] = rows.map((row) => ({
      id: row.id,
      workspace: anonymousWorkspace(this.keys, row.tenantId),
      link_code: row.code,
      campaign: row.campaign,
      created_at: row.createdAt.toISOString(),
    }));
    return { items, total: total?.n ?? 0, page, size };
  }

  /** Clicks and conversions per UTC day over the last `days` days, today included, gaps as zeros. */
  async analytics(partner: PartnerRow, days: number): Promise<ReferralAnalytics> {
    const today = Date.parse(dayOf(this.deps.clock.now()));
    const from = dayOf(new Date(today - (days - 1) * DAY_MS));
    const clicks = await this.db
      .select({ day: referralClicks.day, n: count() })
      .from(referralClicks)
      .innerJoin(referralLinks, eq(referralLinks.id, referralClicks.linkId))
      .where(and(eq(referralLinks.partnerId, partner.id), gte(referralClicks.day, from)))
      .groupBy(referralClicks.day);
    const conversionDay = sql<string>`to_char(${referrals.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
    const conversions = await this.db
      .select({ day: conversionDay, n: count() })
      .from(referrals)
      .where(and(eq(referrals.partnerId, partner.id), gte(referrals.createdAt, new Date(Date.parse(from)))))
      .groupBy(conversionDay);
    const clicksOn = new Map(clicks.map((r) => [r.day, r.n]));
    const conversionsOn = new Map(conversions.map((r) => [r.day, r.n]));
    return {
      days: Array.from({ length: days }, (_, i) => {
        const day = dayOf(new Date(Date.parse(from) + i * DAY_MS));
        return { day, clicks: clicksOn.get(day) ?? 0, conversions: conversionsOn.get(day) ?? 0 };
      }),
    };
  }

  private own(partner: PartnerRow, id: number) {
    return and(eq(referralLinks.id, id), eq(referralLinks.partnerId, partner.id));
  }

  private async describe(row: LinkRow): Promise<ReferralLink> {
    const [described] = await this.describeAll([row]);
    return described!;
  }

  private async describeAll(rows: LinkRow[]): Promise<ReferralLink[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const [clicks, conversions] = await Promise.all([
      this.db
        .select({ id: referralClicks.linkId, n: count() })
        .from(referralClicks)
        .where(inArray(referralClicks.linkId, ids))
        .groupBy(referralClicks.linkId),
      this.db
        .select({ id: referrals.linkId, n: count() })
        .from(referrals)
        .where(inArray(referrals.linkId, ids))
        .groupBy(referrals.linkId),
    ]);
    const clicksOf = new Map(clicks.map((r) => [r.id, r.n]));
    const conversionsOf = new Map(conversions.map((r) => [r.id, r.n]));
    return rows.map((row) => {
      const c = clicksOf.get(row.id) ?? 0;
      const v = conversionsOf.get(row.id) ?? 0;
      return {
        id: row.id,
        code: row.code,
        url: `${this.deps.config.publicUrl}/r/${row.code}`,
        destination: row.destination,
        campaign: row.campaign,
        clicks: c,
        conversions: v,
        conversion_rate: conversionRate(c, v),
        created_at: row.createdAt.toISOString(),
      };
    });
  }
}

export const dayOf = (date: Date): string => date.toISOString().slice(0, 10);
