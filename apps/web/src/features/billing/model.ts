import {
  type Addon,
  type AddonInput,
  type AddonKind,
  type BillingCycle,
  type Checkout,
  type Invoice,
  type MessageLimit,
  PLAN_FEATURES,
  type Plan,
  type PlanConsumption,
  type PlanFeature,
  type PlanInput,
  type Subscription,
  type SubscriptionAddon,
  type SubscriptionStatus,
} from '@parley/contracts';
import { type KeyValueStore, STORAGE_KEYS } from '../../shared/lib/storage';

/**
 * Pure helpers of the billing screens: money from minor units (never a float), usage shares,
 * the plan comparison, what a plan's button does, the plan chosen in a URL, and checkout.
 */

// --- money --------------------------------------------------------------------------------------

/** Digits after the decimal point of a currency (2 for USD and INR, 0 for JPY). */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions()
      .maximumFractionDigits as number;
  } catch {
    return 2;
  }
}

/** 1999 with 2 digits is "19.99", -5 is "-0.05": string work on the integer, no division by 100. */
export function minorToDecimal(minor: number, digits: number): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`not an integer amount: ${minor}`);
  const sign = minor < 0 ? '-' : '';
  const text = String(Math.abs(minor));
  if (digits <= 0) return `${sign}${text}`;
  const padded = text.padStart(digits + 1, '0');
  return `${sign}${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

export type MoneyOptions = {
  locale?: string;
  /** "$19" rather than "$19.00" when there are no minor units (prices on plan cards). */
  trimZeros?: boolean;
};

/** An amount of minor units as money: formatMoney(1900, 'USD') is "$19.00". */
export function formatMoney(minor: number, currency: string, options: MoneyOptions = {}): string {
  const digits = minorDigits(currency);
  const decimal = minorToDecimal(minor, digits);
  const whole = digits > 0 && /\.0+$/.test(decimal);
  const shown = options.trimZeros && whole ? 0 : digits;
  try {
    // Intl formats a decimal string exactly (no float on the way).
    return new Intl.NumberFormat(options.locale ?? 'en-US', {
      style: 'currency',
      currency,
      minimumFractionDigits: shown,
      maximumFractionDigits: digits,
    }).format(decimal as Intl.StringNumericLiteral);
  } catch {
    return `${currency} ${decimal}`;
  }
}

export type ParsedMoney = { ok: true; minor: number } | { ok: false; error: string };

/** Amounts the admin screen accepts: up to 100,000,000 in major units (the contracts' maximum). */
export const MAX_MINOR = 100_000_000_00;

/**
 * A decimal price typed by a person ("19", "19.9", "1,299.00") as minor units, parsed as text:
 * the digits are joined and read as one integer, so "0.29" is 29, never 28.999...
 */
export function parseMoney(text: string, digits = 2): ParsedMoney {
  const value = text.trim().replace(/\s/g, '');
  if (!value) return { ok: false, error: 'Enter a price' };
  const match = /^(\d{1,3}(?:,\d{3})+|\d*)(?:\.(\d*))?$/.exec(value);
  if (!match || (match[1] === '' && !match[2])) return { ok: false, error: 'Enter a price like 19.99' };
  const major = (match[1] ?? '').replaceAll(',', '') || '0';
  const fraction = match[2] ?? '';
  if (fraction.length > digits)
    return {
      ok: false,
      error: digits === 0 ? 'This currency has no decimals' : `Use at most ${digits} decimals`,
    };
  const joined = `${major}${fraction.padEnd(digits, '0')}`.replace(/^0+(?=\d)/, '');
  if (joined.length > String(MAX_MINOR).length) return { ok: false, error: 'The price is too high' };
  const minor = Number.parseInt(joined, 10);
  if (!Number.isSafeInteger(minor) || minor > MAX_MINOR) return { ok: false, error: 'The price is too high' };
  return { ok: true, minor };
}

/** Minor units back to the text the admin form shows ("19.00"). */
export function moneyInput(minor: number, currency: string): string {
  return minorToDecimal(minor, minorDigits(currency));
}

/** What a yearly price saves against twelve monthly ones, in minor units and whole percent. */
export function yearlySaving(plan: Pick<Plan, 'price_monthly' | 'price_yearly'>): {
  amount: number;
  percent: number;
} {
  const twelve = plan.price_monthly * 12;
  const amount = twelve - plan.price_yearly;
  if (amount <= 0 || twelve <= 0) return { amount: 0, percent: 0 };
  return { amount, percent: Math.floor((amount * 100) / twelve) };
}

/** The best whole-percent saving of a yearly price among the plans (for the toggle's label). */
export function bestYearlySaving(plans: readonly Plan[]): number {
  return plans.reduce((best, plan) => Math.max(best, yearlySaving(plan).percent), 0);
}

export function priceOf(plan: Plan, cycle: BillingCycle): number {
  return cycle === 'yearly' ? plan.price_yearly : plan.price_monthly;
}

export const CYCLE_UNIT: Record<BillingCycle, string> = { monthly: 'month', yearly: 'year' };
export const CYCLE_LABEL: Record<BillingCycle, string> = { monthly: 'Monthly', yearly: 'Yearly' };

export function isFree(plan: Pick<Plan, 'price_monthly' | 'price_yearly'>): boolean {
  return plan.price_monthly === 0 && plan.price_yearly === 0;
}

// --- numbers, dates and usage -------------------------------------------------------------------

const count = new Intl.NumberFormat('en-US');
export const formatCount = (n: number) => count.format(n);

/** ISO date as "12 March 2026" in the browser's zone (or the one given, for tests). */
export function formatDate(iso: string | null | undefined, timeZone?: string): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    ...(timeZone ? { timeZone } : {}),
  });
}

/** "1 March 2026 – 1 April 2026", or one end, or ''. */
export function formatPeriod(start: string | null, end: string | null, timeZone?: string): string {
  const from = formatDate(start, timeZone);
  const to = formatDate(end, timeZone);
  if (from && to) return `${from} – ${to}`;
  return from || to;
}

/**
 * Whole percent of a limit used, for a bar: 0 to 100; anything used shows at least 1 %;
 * a limit of 0 with something used is full.
 */
export function percentUsed(used: number, limit: number): number {
  if (used <= 0) return 0;
  if (limit <= 0) return 100;
  return Math.max(1, Math.min(100, Math.floor((used * 100) / limit)));
}

export type UsageColor = 'primary' | 'warning' | 'error';
/** Orange from 80 %, red when used up (as the bots page's message bar). */
export function usageColor(percent: number): UsageColor {
  if (percent >= 100) return 'error';
  if (percent >= 80) return 'warning';
  return 'primary';
}

export type UsageRow = {
  key: 'bots' | 'team' | 'messages';
  label: string;
  used: number;
  limit: number;
  percent: number;
};

/** Bots, team members and this month's messages against the plan (add-ons included by the server). */
export function usageRows(consumption: PlanConsumption, messages?: MessageLimit | null): UsageRow[] {
  const { limits } = consumption;
  const row = (key: UsageRow['key'], label: string, used: number, limit: number): UsageRow => ({
    key,
    label,
    used,
    limit,
    percent: percentUsed(used, limit),
  });
  return [
    row('bots', 'Chatbots', consumption.max_chatbots, limits.max_chatbots),
    row('team', 'Team members', consumption.max_team_members, limits.max_team_members),
    messages
      ? row('messages', 'Messages this month', messages.used, messages.limit)
      : row(
          'messages',
          'Messages this month',
          consumption.messages_per_month,
          limits.messages_credits_per_month,
        ),
  ];
}

export type CharacterSource = { key: string; label: string; characters: number };

/** Trained characters by kind of source, largest first, and their total. */
export function characterSources(consumption: PlanConsumption): {
  sources: CharacterSource[];
  total: number;
} {
  const sources: CharacterSource[] = [
    { key: 'files', label: 'Files', characters: consumption.characters_fileSpace },
    { key: 'websites', label: 'Websites', characters: consumption.characters_websource },
    { key: 'notion', label: 'Notion', characters: consumption.characters_notion },
    { key: 'qna', label: 'Q&A', characters: consumption.characters_qna },
  ];
  return { sources, total: sources.reduce((sum, s) => sum + s.characters, 0) };
}

/** Days a conversation is kept (0: for ever). */
export function retentionText(days: number): string {
  if (days <= 0) return 'Kept for ever';
  if (days % 365 === 0) return days === 365 ? '1 year' : `${days / 365} years`;
  return days === 1 ? '1 day' : `${formatCount(days)} days`;
}

// --- plans --------------------------------------------------------------------------------------

export const FEATURE_LABELS: Record<PlanFeature, string> = {
  access_to_fast_models: 'Fast models',
  advanced_analytics: 'Advanced analytics',
  basic_analytics: 'Basic analytics',
  analytics_dashboard: 'Analytics dashboard',
  allows_api_access: 'API access',
  allows_custom_branding: 'Custom branding',
  allows_file_uploads: 'File uploads',
  capture_leads: 'Lead capture',
  embed_on_unlimited_websites: 'Embed on unlimited websites',
  priority_support: 'Priority support',
  white_labeling: 'White labelling',
  instagram_integration: 'Instagram',
  facebook_integration: 'Facebook Messenger',
  slack_integration: 'Slack',
  wordpress_integration: 'WordPress',
  telegram_integration: 'Telegram',
  whatsapp_integration: 'WhatsApp',
};

export type LimitKey =
  | 'max_chatbots'
  | 'max_team_members'
  | 'messages_credits_per_month'
  | 'trained_characters_per_chatbot'
  | 'chat_history_retention';

export const LIMIT_LABELS: Record<LimitKey, string> = {
  max_chatbots: 'Chatbots',
  max_team_members: 'Team members',
  messages_credits_per_month: 'Messages a month',
  trained_characters_per_chatbot: 'Trained characters per bot',
  chat_history_retention: 'Chat history kept',
};
export const LIMIT_KEYS = Object.keys(LIMIT_LABELS) as LimitKey[];

export function limitText(key: LimitKey, value: number): string {
  return key === 'chat_history_retention' ? retentionText(value) : formatCount(value);
}

/** One row of the comparison: a limit (text per plan) or a feature (included or not, per plan). */
export type ComparisonRow =
  | { kind: 'limit'; key: LimitKey; label: string; values: string[] }
  | { kind: 'feature'; key: PlanFeature; label: string; values: boolean[] };

/** Limits first, then the features any of the plans has (a feature none has is left out). */
export function comparisonRows(plans: readonly Plan[]): ComparisonRow[] {
  const limits: ComparisonRow[] = LIMIT_KEYS.map((key) => ({
    kind: 'limit',
    key,
    label: LIMIT_LABELS[key],
    values: plans.map((plan) => limitText(key, plan[key])),
  }));
  const features: ComparisonRow[] = PLAN_FEATURES.filter((f) => plans.some((plan) => plan[f])).map((key) => ({
    kind: 'feature',
    key,
    label: FEATURE_LABELS[key],
    values: plans.map((plan) => plan[key]),
  }));
  return [...limits, ...features];
}

/** The features a plan includes, by label. */
export function includedFeatures(plan: Plan): string[] {
  return PLAN_FEATURES.filter((f) => plan[f]).map((f) => FEATURE_LABELS[f]);
}

/** Plans in their sort order, then cheapest first. */
export function sortPlans(plans: readonly Plan[]): Plan[] {
  return [...plans].sort((a, b) => a.sort_order - b.sort_order || a.price_monthly - b.price_monthly);
}

// --- subscriptions ------------------------------------------------------------------------------

export const STATUS_LABELS: Record<SubscriptionStatus, string> = {
  created: 'Awaiting payment',
  authenticated: 'In process',
  active: 'Active',
  pending: 'Payment retrying',
  halted: 'Halted',
  cancelled: 'Cancelled',
  completed: 'Completed',
  expired: 'Expired',
};

export type ChipColor = 'default' | 'success' | 'info' | 'warning' | 'error';
export const STATUS_COLORS: Record<SubscriptionStatus, ChipColor> = {
  created: 'warning',
  authenticated: 'info',
  active: 'success',
  pending: 'warning',
  halted: 'error',
  cancelled: 'default',
  completed: 'default',
  expired: 'default',
};

/** States in which a subscription still gives what was bought (as the server's GRANTING). */
export const GRANTING: readonly SubscriptionStatus[] = ['active', 'authenticated', 'pending'];
const FINAL: readonly SubscriptionStatus[] = ['cancelled', 'completed', 'expired'];
export const isFinal = (status: SubscriptionStatus) => FINAL.includes(status);

/** The subscription behind the plan that applies now, if it is a paid one. */
export function currentSubscription(
  subscriptions: readonly Subscription[],
  subscriptionId: number | null,
): Subscription | null {
  if (subscriptionId === null) return null;
  return subscriptions.find((s) => s.id === subscriptionId) ?? null;
}

/** "Renews on …", "Cancels on …" (auto-renew off), or nothing for the free plan. */
export function renewalText(
  subscription: Subscription | null,
  renewsAt: string | null,
  timeZone?: string,
): string {
  if (!subscription) return '';
  if (!subscription.auto_renew) {
    const end = formatDate(subscription.end_date ?? renewsAt, timeZone);
    return end ? `Cancels on ${end}` : 'Cancels at the end of the period';
  }
  const renews = formatDate(renewsAt ?? subscription.end_date, timeZone);
  return renews ? `Renews on ${renews}` : '';
}

/** The plan paid at checkout to start when the one in force ends (it grants nothing before). */
export function scheduledChange(subscriptions: readonly Subscription[]): Subscription | null {
  return subscriptions.find((s) => s.scheduled && s.status === 'authenticated') ?? null;
}

/** "Small starts on 12 January 2026, when your Big plan ends." */
export function scheduledText(
  next: Subscription,
  currentPlan: Pick<Plan, 'name'>,
  timeZone?: string,
): string {
  const day = formatDate(next.start_date, timeZone);
  const when = day ? `on ${day}` : 'at the end of the period';
  // The same plan chosen again after cancelling it: it simply goes on.
  return next.plan.name === currentPlan.name
    ? `${next.plan.name} continues ${when}, when your current period ends.`
    : `${next.plan.name} starts ${when}, when your ${currentPlan.name} plan ends.`;
}

/**
 * When a plan bought now would start: the end of the current one's period when that one is not
 * renewing (cancelled at the end, or given until a date), else null (at once, at checkout).
 */
export function newPlanStart(
  current: Pick<Subscription, 'auto_renew' | 'end_date'> | null,
  endsAt: string | null,
  now: Date = new Date(),
): string | null {
  const end = current ? (current.auto_renew ? null : current.end_date) : endsAt;
  return end && new Date(end).getTime() > now.getTime() ? end : null;
}

/** Whether the subscription can still be cancelled (at the end of its period). */
export function canCancel(subscription: Pick<Subscription, 'status' | 'auto_renew'> | null): boolean {
  return !!subscription && subscription.auto_renew && GRANTING.includes(subscription.status);
}

/** Add-ons bought (on a plan subscription or on the free plan), newest first, without the ones that ended. */
export function boughtAddons(addons: readonly SubscriptionAddon[]): SubscriptionAddon[] {
  return addons
    .filter((link) => !isFinal(link.status) && link.status !== 'created')
    .sort((a, b) => b.id - a.id);
}

export type PlanAction =
  | { kind: 'current' }
  /** A paid plan with nothing paid now: a new subscription, through checkout. */
  | { kind: 'subscribe' }
  /** Another paid plan or cycle on an active, renewing subscription: changed in place. */
  | { kind: 'change'; subscriptionId: number }
  /** The free plan while paying: reached by cancelling. */
  | { kind: 'free' };

/** What a plan's button does for this workspace. */
export function planAction(
  plan: Plan,
  cycle: BillingCycle,
  current: { planId: number; subscription: Subscription | null },
): PlanAction {
  const { subscription } = current;
  if (isFree(plan)) return plan.id === current.planId ? { kind: 'current' } : { kind: 'free' };
  if (plan.id === current.planId && (!subscription || subscription.billing_cycle === cycle))
    return { kind: 'current' };
  if (subscription?.auto_renew && subscription.status === 'active')
    return { kind: 'change', subscriptionId: subscription.id };
  return { kind: 'subscribe' };
}

type Holding = Pick<PlanConsumption['limits'], 'max_chatbots' | 'max_team_members'>;
const HELD: [keyof Holding, string, string][] = [
  ['max_chatbots', 'chatbot', 'chatbots'],
  ['max_team_members', 'team member', 'team members'],
];

/**
 * What the workspace holds past a plan it is moving to ("3 chatbots where Small allows 1"), its
 * add-ons' extra still counted: said before a downgrade, since nothing is removed, only no more added.
 */
export function beyondPlan(plan: Plan, used: Holding, extra: Holding): string[] {
  return HELD.flatMap(([key, one, many]) => {
    const allowed = plan[key] + Math.max(0, extra[key]);
    const held = used[key];
    if (held <= allowed) return [];
    return [
      `${formatCount(held)} ${held === 1 ? one : many} where ${plan.name} allows ${formatCount(allowed)}`,
    ];
  });
}

/**
 * The subscription or add-on paid for at checkout (by Razorpay's id), when it grants at last, or,
 * for a plan that starts when the current one ends, when Razorpay has authorised it.
 */
export function findPaid(
  { subscriptions, addons }: { subscriptions: readonly Subscription[]; addons: readonly SubscriptionAddon[] },
  razorpayId: string,
):
  | { kind: 'plan'; subscription: Subscription }
  | { kind: 'scheduled'; subscription: Subscription }
  | { kind: 'addon'; link: SubscriptionAddon }
  | null {
  const subscription = subscriptions.find(
    (s) => s.razorpay_subscription_id === razorpayId && GRANTING.includes(s.status),
  );
  if (subscription) return { kind: subscription.scheduled ? 'scheduled' : 'plan', subscription };
  const link = addons.find((a) => a.razorpay_subscription_id === razorpayId && GRANTING.includes(a.status));
  return link ? { kind: 'addon', link } : null;
}

// --- invoices -----------------------------------------------------------------------------------

export function invoiceDescription(invoice: Pick<Invoice, 'lines'>): string {
  return invoice.lines
    .map((line) => (line.quantity > 1 ? `${line.description} × ${line.quantity}` : line.description))
    .join(', ');
}

export const INVOICE_STATUS_COLORS: Record<Invoice['status'], ChipColor> = {
  paid: 'success',
  partially_refunded: 'info',
  failed: 'error',
  refunded: 'default',
};

export const INVOICE_STATUS_LABELS: Record<Invoice['status'], string> = {
  paid: 'Paid',
  partially_refunded: 'Partially refunded',
  failed: 'Failed',
  refunded: 'Refunded',
};

/** "Refunded ₹30.00 of ₹118.00" under an invoice's amount, or '' when nothing came back. */
export function refundText(invoice: Pick<Invoice, 'amount' | 'amount_refunded' | 'currency'>): string {
  if (invoice.amount_refunded <= 0) return '';
  const back = formatMoney(invoice.amount_refunded, invoice.currency);
  return invoice.amount_refunded >= invoice.amount
    ? `Refunded in full (${back})`
    : `Refunded ${back} of ${formatMoney(invoice.amount, invoice.currency)}`;
}

// --- add-ons ------------------------------------------------------------------------------------

export const ADDON_KIND_LABELS: Record<AddonKind, { one: string; many: string }> = {
  messages: { one: 'message a month', many: 'messages a month' },
  chatbots: { one: 'chatbot', many: 'chatbots' },
  team_members: { one: 'team member', many: 'team members' },
  characters: { one: 'trained character per bot', many: 'trained characters per bot' },
};
export const ADDON_KIND_NAMES: Record<AddonKind, string> = {
  messages: 'Messages',
  chatbots: 'Chatbots',
  team_members: 'Team members',
  characters: 'Trained characters',
};

/** What a quantity of an add-on adds: "+2,000 messages a month". */
export function addonAdds(addon: Pick<Addon, 'kind' | 'units'>, quantity: number): string {
  const total = addon.units * quantity;
  const words = ADDON_KIND_LABELS[addon.kind];
  return `+${formatCount(total)} ${total === 1 ? words.one : words.many}`;
}

/**
 * An add-on bought, with its figures: "Messages × 2 (+10 messages a month, ₹20.00 a month)", or
 * for one cancelled at the end of its period "(+10 messages a month, until 12 February 2027)".
 */
export function addonFigures(link: SubscriptionAddon, timeZone?: string): string {
  const name = link.quantity > 1 ? `${link.addon.name} × ${link.quantity}` : link.addon.name;
  const adds = addonAdds(link.addon, link.quantity);
  if (!link.auto_renew) {
    const end = formatDate(link.end_date, timeZone);
    return end ? `${name} (${adds}, until ${end})` : `${name} (${adds}, until the end of its period)`;
  }
  const price = formatMoney(link.addon.price_monthly * link.quantity, link.addon.currency);
  return `${name} (${adds}, ${price} a month)`;
}

/** The add-ons bought that still renew: they go on, and are billed, whatever happens to the plan. */
export function renewingAddons(addons: readonly SubscriptionAddon[]): SubscriptionAddon[] {
  return boughtAddons(addons).filter((link) => link.auto_renew);
}

/**
 * What happens to the add-ons when a plan follows the current one on `startsAt`: they are
 * subscriptions of their own, so the ones still running then carry over to it, at their price and
 * on their own renewal dates. '' when there are none.
 */
export function addonsCarryText(
  addons: readonly SubscriptionAddon[],
  nextPlan: string,
  startsAt: string | null,
  timeZone?: string,
): string {
  const start = startsAt ? new Date(startsAt).getTime() : 0;
  const carried = boughtAddons(addons).filter(
    (link) => link.auto_renew || (link.end_date !== null && new Date(link.end_date).getTime() > start),
  );
  if (carried.length === 0) return '';
  const list = carried.map((link) => addonFigures(link, timeZone)).join('; ');
  return `Your add-ons carry over to ${nextPlan} as they are, renewing on their own dates: ${list}. Cancel any you no longer need under Add-ons on the Subscriptions page.`;
}

/**
 * Said before a plan is cancelled or a change undone: add-ons are billed apart from the plan, so
 * they keep renewing on the free plan. '' when none renews.
 */
export function addonsContinueText(addons: readonly SubscriptionAddon[], timeZone?: string): string {
  const renewing = renewingAddons(addons);
  if (renewing.length === 0) return '';
  const list = renewing.map((link) => addonFigures(link, timeZone)).join('; ');
  return renewing.length === 1
    ? `Your add-on is billed apart from the plan and keeps renewing: ${list}. Cancel it under Add-ons if you no longer need it.`
    : `Your add-ons are billed apart from the plan and keep renewing: ${list}. Cancel them under Add-ons if you no longer need them.`;
}

export const ADDON_QUANTITY = { min: 1, max: 1000 } as const;

/** A quantity typed in: a whole number from 1 to 1000, else null. */
export function parseQuantity(text: string): number | null {
  const value = text.trim();
  if (!/^\d{1,4}$/.test(value)) return null;
  const n = Number.parseInt(value, 10);
  return n >= ADDON_QUANTITY.min && n <= ADDON_QUANTITY.max ? n : null;
}

// --- the plan or add-on chosen in a URL (spec console.md section 2, startup) ---------------------

export type StoredChoice = {
  planId: number | null;
  cycle: BillingCycle | null;
  addOnId: number | null;
  addOnCycle: BillingCycle | null;
  quantity: number | null;
};

function cycleOf(text: string | null): BillingCycle | null {
  if (!text) return null;
  const value = text.trim().toLowerCase();
  if (/^(year|yearly|annual|annually|annum|y)$/.test(value)) return 'yearly';
  if (/^(month|monthly|m)$/.test(value)) return 'monthly';
  return null;
}

function idOf(text: string | null): number | null {
  if (!text || !/^\d{1,9}$/.test(text.trim())) return null;
  const n = Number.parseInt(text, 10);
  return n > 0 ? n : null;
}

export function readStoredChoice(store: KeyValueStore): StoredChoice {
  return {
    planId: idOf(store.getItem(STORAGE_KEYS.planId)),
    cycle: cycleOf(store.getItem(STORAGE_KEYS.planFrequency)),
    addOnId: idOf(store.getItem(STORAGE_KEYS.addOnId)),
    addOnCycle: cycleOf(store.getItem(STORAGE_KEYS.addOnPlan)),
    quantity: parseQuantity(store.getItem(STORAGE_KEYS.addOnQuant) ?? ''),
  };
}

export function clearStoredPlan(store: KeyValueStore): void {
  store.removeItem(STORAGE_KEYS.planId);
  store.removeItem(STORAGE_KEYS.planFrequency);
}

export function clearStoredAddon(store: KeyValueStore): void {
  store.removeItem(STORAGE_KEYS.addOnId);
  store.removeItem(STORAGE_KEYS.addOnPlan);
  store.removeItem(STORAGE_KEYS.addOnQuant);
}

// --- checkout -----------------------------------------------------------------------------------

export type CheckoutTarget = { kind: 'page'; url: string } | { kind: 'script'; url: string };

/**
 * Where the payment happens. `checkout_url` is Razorpay's checkout.js (load it, open Checkout) or,
 * when the server is configured with a page holding the subscription id (the test fake), that page:
 * opened with a return_url to come back to.
 */
export function checkoutTarget(checkout: Checkout, returnUrl: string): CheckoutTarget {
  const url = checkout.checkout_url;
  const isPage =
    url.includes(checkout.subscription_id) || url.includes(encodeURIComponent(checkout.subscription_id));
  if (!isPage) return { kind: 'script', url };
  const page = new URL(url);
  page.searchParams.set('return_url', returnUrl);
  return { kind: 'page', url: page.toString() };
}

/** The console's page checkout comes back to, with what Razorpay paid for (read by the upgrade page). */
export function returnUrlFor(origin: string, razorpaySubscriptionId?: string, status?: 'paid'): string {
  const url = new URL('/upgrade', origin);
  if (razorpaySubscriptionId) url.searchParams.set('razorpay_subscription_id', razorpaySubscriptionId);
  if (status) url.searchParams.set('status', status);
  return url.toString();
}

// --- the admin forms ----------------------------------------------------------------------------

/** A plan as the body of PUT /admin/pricing/plans/{id} (to flip a switch without the dialog). */
export function planToInput(plan: Plan): PlanInput {
  const features = Object.fromEntries(PLAN_FEATURES.map((f) => [f, plan[f]])) as Record<PlanFeature, boolean>;
  return {
    ...features,
    name: plan.name,
    description: plan.description,
    currency: plan.currency,
    price_monthly: plan.price_monthly,
    price_yearly: plan.price_yearly,
    max_chatbots: plan.max_chatbots,
    max_team_members: plan.max_team_members,
    messages_credits_per_month: plan.messages_credits_per_month,
    trained_characters_per_chatbot: plan.trained_characters_per_chatbot,
    chat_history_retention: plan.chat_history_retention,
    is_default: plan.is_default,
    is_active: plan.is_active,
    sort_order: plan.sort_order,
  };
}

export function addonToInput(addon: Addon): AddonInput {
  return {
    name: addon.name,
    description: addon.description,
    kind: addon.kind,
    units: addon.units,
    currency: addon.currency,
    price_monthly: addon.price_monthly,
    is_active: addon.is_active,
  };
}

/** A whole number typed in a limit field (0 allowed), else null. */
export function parseCount(text: string, max = 100_000_000): number | null {
  const value = text.trim().replaceAll(',', '');
  if (!/^\d{1,9}$/.test(value)) return null;
  const n = Number.parseInt(value, 10);
  return n <= max ? n : null;
}
