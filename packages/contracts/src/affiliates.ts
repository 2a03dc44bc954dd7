import { z } from 'zod';
import { Id, inputText } from './common.js';
import { need, open, type RouteRule, signedIn } from './rules.js';

/**
 * The affiliate programme (spec console.md: Partner profile, Referral link, Commission, the calls
 * under /affiliation/partners). Partners read and change only their own rows; platform admins see
 * every partner's balance and mark payouts.
 */
export const AFFILIATE_ROUTE_RULES = {
  // The programme's terms, shown on the public /partner page.
  'GET /affiliation/partners/terms': open,
  'GET /affiliation/partners/check': signedIn,
  'POST /affiliation/partners/become': signedIn,
  'GET /affiliation/partners/me': need('Partner', 'read'),
  'PUT /affiliation/partners/me': need('Partner', 'write'),
  'GET /affiliation/partners/analytics': need('Partner', 'read'),
  'POST /affiliation/partners/links': need('Partner', 'write'),
  'GET /affiliation/partners/links': need('Partner', 'read'),
  'PUT /affiliation/partners/links/:id': need('Partner', 'write'),
  'DELETE /affiliation/partners/links/:id': need('Partner', 'write'),
  'GET /affiliation/partners/referrals': need('Partner', 'read'),
  'GET /affiliation/partners/commissions': need('Partner', 'read'),
  'GET /admin/affiliation/partners': need('Admin', 'read'),
  'GET /admin/affiliation/partners.csv': need('Admin', 'read'),
  'POST /admin/affiliation/partners/:id/payouts': need('Admin', 'write'),
} as const satisfies Record<string, RouteRule>;

/** The spec's Affiliation texts (section 8), and the server's own details. */
export const AFFILIATE_TEXTS = {
  loadProfileFailed: 'Failed to load partner profile',
  updateProfileFailed: 'Failed to update partner profile',
  becomeFailed: 'Failed to become partner',
  createLinkFailed: 'Failed to create referral link',
  loadLinksFailed: 'Failed to load referral links',
  updateLinkFailed: 'Failed to update referral link',
  deleteLinkFailed: 'Failed to delete referral link',
  loadAnalyticsFailed: 'Failed to load referral analytics',
  profileUpdated: 'Partner profile updated successfully',
  becamePartner: 'Successfully converted to partner account',
  linkCreated: 'Referral link created successfully',
  linkUpdated: 'Referral link updated successfully',
  linkDeleted: 'Referral link deleted successfully',
  linkNotFound: 'Referral link not found',
  partnerNotFound: 'Partner not found',
  codeTaken: 'This referral code is already taken',
  adminCannotBecome: 'A platform admin cannot become a partner',
  nothingToPay: 'This partner has no approved commissions to pay',
  payoutChanged:
    'The approved balance has changed since you loaded it: check the new amount before marking the payout',
  payoutMarked: 'Payout marked as paid',
  badDestination: 'Destination must be a public page of Parley, such as /register',
} as const;

/** Lists default to page 1, size 10 (spec section 9). */
export const AFFILIATE_LIMITS = { pageDefault: 10, pageMax: 100, analyticsDaysMax: 365 } as const;

const Whole = (label: string, fallback: number, min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${label} must be a whole number`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${label} must be between ${min} and ${max}`)
    .default(fallback);

export const AffiliatePageQuery = z.object({
  page: Whole('page', 1, 1, 1_000_000),
  size: Whole('size', AFFILIATE_LIMITS.pageDefault, 1, AFFILIATE_LIMITS.pageMax),
});
export type AffiliatePageQuery = z.input<typeof AffiliatePageQuery>;

/** What a partner earns and for how long (the server's configuration). */
export const AffiliateTerms = z.object({
  commission_percent: z.number(),
  commission_months: z.number().int(),
  cookie_days: z.number().int(),
  refund_window_days: z.number().int(),
});
export type AffiliateTerms = z.infer<typeof AffiliateTerms>;

export const PartnerCheckQuery = z.object({ user_id: Id.optional() });
export const PartnerCheck = z.object({ user_id: z.number().int(), is_partner: z.boolean() });
export type PartnerCheck = z.infer<typeof PartnerCheck>;

/** Money: an integer of minor units with its currency. */
export const MoneyTotal = z.object({ currency: z.string(), amount: z.number().int() });
export type MoneyTotal = z.infer<typeof MoneyTotal>;

export const PartnerProfile = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  display_name: z.string(),
  /** Payout details are never sent back, only whether they are set and their last characters. */
  payout_details_set: z.boolean(),
  payout_details_hint: z.string().nullable(),
  /** Approved and paid commissions, per currency. */
  total_earned: z.array(MoneyTotal),
  pending_commissions: z.array(MoneyTotal),
  pending_count: z.number().int(),
  link_count: z.number().int(),
  clicks: z.number().int(),
  conversions: z.number().int(),
  /** Conversions per click, in percent, one decimal. */
  conversion_rate: z.number(),
  created_at: z.string(),
});
export type PartnerProfile = z.infer<typeof PartnerProfile>;

export const BecomePartnerResponse = z.object({ message: z.string(), partner: PartnerProfile });
export type BecomePartnerResponse = z.infer<typeof BecomePartnerResponse>;

export const UpdatePartnerBody = z.object({
  display_name: inputText().trim().min(1, 'Display name is required').max(100).optional(),
  /** Bank or UPI details for payouts; an empty string clears them. */
  payout_details: inputText().trim().max(1000).optional(),
});
export type UpdatePartnerBody = z.infer<typeof UpdatePartnerBody>;

export const PartnerProfileResponse = z.object({ message: z.string(), partner: PartnerProfile });
export type PartnerProfileResponse = z.infer<typeof PartnerProfileResponse>;

/** A path on Parley (its signup by default); never another host, never the API. */
export const LinkDestination = inputText()
  .max(200)
  .refine(
    (path) => /^\/(?![/\\])[A-Za-z0-9\-._~/?=&%+]*$/.test(path) && !/^\/(api|r)(\/|$|\?)/.test(path),
    AFFILIATE_TEXTS.badDestination,
  );

export const LinkCode = inputText()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9-]{2,31}$/, 'Code must be 3 to 32 letters, digits or dashes');

export const CreateLinkBody = z.object({
  code: LinkCode.optional(),
  destination: LinkDestination.default('/register'),
  campaign: inputText().trim().max(100).optional(),
});
export type CreateLinkBody = z.input<typeof CreateLinkBody>;

export const UpdateLinkBody = z.object({
  destination: LinkDestination.optional(),
  campaign: inputText().trim().max(100).nullable().optional(),
});
export type UpdateLinkBody = z.infer<typeof UpdateLinkBody>;

export const ReferralLink = z.object({
  id: z.number().int(),
  code: z.string(),
  /** The address to share: /r/{code} on Parley. */
  url: z.string(),
  destination: z.string(),
  campaign: z.string().nullable(),
  clicks: z.number().int(),
  conversions: z.number().int(),
  conversion_rate: z.number(),
  created_at: z.string(),
});
export type ReferralLink = z.infer<typeof ReferralLink>;

export const LinkResponse = z.object({ message: z.string(), link: ReferralLink });
export type LinkResponse = z.infer<typeof LinkResponse>;

const paged = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), size: z.number().int() });

export const ReferralLinkPage = paged(ReferralLink);
export type ReferralLinkPage = z.infer<typeof ReferralLinkPage>;

/** A referred workspace, shown only by an anonymised name. */
export const Referral = z.object({
  id: z.number().int(),
  workspace: z.string(),
  link_code: z.string().nullable(),
  campaign: z.string().nullable(),
  created_at: z.string(),
});
export type Referral = z.infer<typeof Referral>;
export const ReferralPage = paged(Referral);
export type ReferralPage = z.infer<typeof ReferralPage>;

export const PAYOUT_STATUSES = ['pending', 'approved', 'paid', 'reversed'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

export const Commission = z.object({
  id: z.number().int(),
  workspace: z.string(),
  /** The payment net of tax, and the commission on it, in minor units of `currency`. */
  amount: z.number().int(),
  commission_amount: z.number().int(),
  currency: z.string(),
  payout_status: z.enum(PAYOUT_STATUSES),
  earned_at: z.string(),
  /** When a pending commission is approved (the refund window ends). */
  approves_at: z.string(),
  paid_at: z.string().nullable(),
});
export type Commission = z.infer<typeof Commission>;
export const CommissionPage = paged(Commission);
export type CommissionPage = z.infer<typeof CommissionPage>;

export const AnalyticsQuery = z.object({
  days: Whole('days', 30, 1, AFFILIATE_LIMITS.analyticsDaysMax),
});
export const ReferralAnalytics = z.object({
  days: z.array(z.object({ day: z.string(), clicks: z.number().int(), conversions: z.number().int() })),
});
export type ReferralAnalytics = z.infer<typeof ReferralAnalytics>;

export const PartnerBalance = z.object({
  currency: z.string(),
  pending: z.number().int(),
  approved: z.number().int(),
  paid: z.number().int(),
});
export const AdminPartner = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  display_name: z.string(),
  email: z.string(),
  payout_details: z.string().nullable(),
  links: z.number().int(),
  referrals: z.number().int(),
  balances: z.array(PartnerBalance),
  created_at: z.string(),
});
export type AdminPartner = z.infer<typeof AdminPartner>;
export const AdminPartnerPage = paged(AdminPartner);
export type AdminPartnerPage = z.infer<typeof AdminPartnerPage>;

export const PayoutBody = z.object({
  currency: z.string().regex(/^[A-Z]{3}$/, 'currency must be a code'),
  /**
   * The approved balance the admin saw and paid, in minor units: the payout is recorded only when
   * it is still the balance, so a commission approved or refunded meanwhile is never marked paid unseen.
   */
  amount: z
    .number({ error: 'Amount must be the approved balance in minor units' })
    .int('Amount must be the approved balance in minor units')
    .positive('Amount must be the approved balance in minor units'),
});
export type PayoutBody = z.infer<typeof PayoutBody>;
export const Payout = z.object({
  id: z.number().int(),
  partner_id: z.number().int(),
  amount: z.number().int(),
  currency: z.string(),
  commissions: z.number().int(),
  paid_at: z.string(),
});
export const PayoutResponse = z.object({ message: z.string(), payout: Payout });
export type PayoutResponse = z.infer<typeof PayoutResponse>;
