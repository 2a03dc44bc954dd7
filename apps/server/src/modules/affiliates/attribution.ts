import { eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isbot } from 'isbot';
import { keyedHash, signPayload, verifyPayload } from '../../core/crypto.js';
import type { ModuleDeps } from '../../core/module.js';
import { type AffiliateKeys, affiliateKeys } from './affiliates.keys.js';
import { partners, referralClicks, referralLinks, referrals } from './affiliates.schema.js';
import { dayOf } from './links.service.js';

/** The first-party attribution cookie: which link a visitor followed, and when. */
export const ATTRIBUTION_COOKIE = 'parley_ref';
/** The link, its partner (so a link deleted since still attributes) and the click time. */
type AttributionClaim = { l: number; p?: number; t: number };
const DAY_MS = 86_400_000;
const CODE = /^[A-Za-z0-9-]{1,64}$/;

/**
 * /r/{code}: counts a click (not a bot's, and one per visitor, link and day), remembers the link in
 * a signed first-party cookie for AFFILIATE_COOKIE_DAYS, and a signup within that window becomes the
 * link's referral.
 */
export class Attribution {
  private readonly keys: AffiliateKeys;

  constructor(private readonly deps: Pick<ModuleDeps, 'db' | 'config' | 'clock' | 'log'>) {
    this.keys = affiliateKeys(deps.config.appSecret);
  }

  private get windowMs(): number {
    return this.deps.config.AFFILIATE_COOKIE_DAYS * DAY_MS;
  }

  /** Where the visitor goes: the link's destination, or the home page for a code that is not a link. */
  async visit(request: FastifyRequest, reply: FastifyReply, code: string): Promise<string> {
    // Only what a code can be reaches the database (a NUL or a 10 kB path is simply not a link).
    if (!CODE.test(code)) return '/';
    const [link] = await this.deps.db
      .select({
        id: referralLinks.id,
        partnerId: referralLinks.partnerId,
        destination: referralLinks.destination,
      })
      .from(referralLinks)
      .where(eq(referralLinks.code, code.toLowerCase()));
    if (!link) return '/';
    const agent = request.headers['user-agent'] ?? '';
    // Crawlers and link previews neither count nor carry an attribution.
    if (!agent || isbot(agent)) return link.destination;
    const now = this.deps.clock.now();
    await this.deps.db
      .insert(referralClicks)
      .values({ linkId: link.id, day: dayOf(now), visitorHash: this.visitor(request.ip, agent) })
      .onConflictDoNothing();
    const value = signPayload(this.keys.attribution, {
      l: link.id,
      p: link.partnerId,
      t: now.getTime(),
    } satisfies AttributionClaim);
    reply.setCookie(ATTRIBUTION_COOKIE, value, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: this.deps.config.cookieSecure,
      maxAge: this.windowMs / 1000,
    });
    return link.destination;
  }

  /**
   * A new workspace signed up: with a valid cookie from within the window, it is the link's
   * referral (once: a workspace is referred at most once). Never fails the signup.
   */
  async signedUp(request: FastifyRequest, reply: FastifyReply, tenantId: number): Promise<void> {
    const cookie = request.cookies[ATTRIBUTION_COOKIE];
    if (!cookie) return;
    reply.clearCookie(ATTRIBUTION_COOKIE, { path: '/' });
    try {
      const claim = verifyPayload<AttributionClaim>(this.keys.attribution, cookie);
      const now = this.deps.clock.now();
      if (!claim || !Number.isSafeInteger(claim.l) || typeof claim.t !== 'number') return;
      if (now.getTime() - claim.t > this.windowMs || claim.t > now.getTime() + 60_000) return;
      const source = await this.sourceOf(claim);
      if (!source) return;
      await this.deps.db
        .insert(referrals)
        .values({ ...source, referredTenantId: tenantId, createdAt: now })
        .onConflictDoNothing();
    } catch (err) {
      this.deps.log.error({ err }, 'affiliates: recording a referral failed');
    }
  }

  /**
   * Who brought the visitor: the link they followed, or, when the partner has deleted it since, the
   * partner alone (a deleted link keeps its referrals, and one followed in time still earns one).
   */
  private async sourceOf(
    claim: AttributionClaim,
  ): Promise<{ partnerId: number; linkId: number | null } | null> {
    const [link] = await this.deps.db
      .select({ id: referralLinks.id, partnerId: referralLinks.partnerId })
      .from(referralLinks)
      .where(eq(referralLinks.id, claim.l));
    if (link) return { partnerId: link.partnerId, linkId: link.id };
    if (!Number.isSafeInteger(claim.p)) return null;
    const [partner] = await this.deps.db
      .select({ id: partners.id })
      .from(partners)
      .where(eq(partners.id, claim.p!));
    return partner ? { partnerId: partner.id, linkId: null } : null;
  }

  /** One visitor: a keyed hash of address and browser, so repeats are known and no address is kept. */
  private visitor(ip: string, agent: string): string {
    return keyedHash(this.keys.visitor, `${ip}\n${agent}`);
  }
}
