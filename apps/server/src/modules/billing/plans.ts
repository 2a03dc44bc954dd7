import {
  type Addon,
  type AddonInput,
  BILLING_TEXTS,
  PLAN_FEATURES,
  type Plan,
  type PlanFeature,
  type PlanInput,
} from '@parley/contracts';

type PlanValues = z.output<typeof PlanInput>;
type AddonValues = z.output<typeof AddonInput>;

import { asc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../core/db/database.js';
import { isUniqueViolation } from '../../core/db/errors.js';
import { conflict, notFound } from '../../core/errors.js';
import { addons, plans } from './billing.schema.js';

export type PlanRow = typeof plans.$inferSelect;
export type AddonRow = typeof addons.$inferSelect;

const features = (...names: PlanFeature[]) => Object.fromEntries(names.map((n) => [n, true]));
const BASIC = ['basic_analytics', 'capture_leads', 'allows_file_uploads'] as const;
const STARTER = [
  ...BASIC,
  'instagram_integration',
  'facebook_integration',
  'embed_on_unlimited_websites',
] as const;
const PRO = [
  ...STARTER,
  'whatsapp_integration',
  'advanced_analytics',
  'analytics_dashboard',
  'allows_api_access',
  'allows_custom_branding',
  'access_to_fast_models',
] as const;

/** The plans a new install starts with (prices in cents); platform admins change them in the console. */
export const DEFAULT_PLANS: Array<Omit<typeof plans.$inferInsert, 'id'>> = [
  {
    name: 'Free',
    description: 'One bot to try Parley on your website.',
    priceMonthly: 0,
    priceYearly: 0,
    maxChatbots: 1,
    maxTeamMembers: 1,
    messagesCreditsPerMonth: 100,
    trainedCharactersPerChatbot: 400_000,
    chatHistoryRetention: 30,
    features: features(...BASIC),
    isDefault: true,
    sortOrder: 0,
  },
  {
    name: 'Starter',
    description: 'A few bots on your site, Instagram and Messenger.',
    priceMonthly: 1900,
    priceYearly: 19000,
    maxChatbots: 3,
    maxTeamMembers: 3,
    messagesCreditsPerMonth: 2000,
    trainedCharactersPerChatbot: 2_000_000,
    chatHistoryRetention: 90,
    features: features(...STARTER),
    sortOrder: 1,
  },
  {
    name: 'Pro',
    description: 'WhatsApp, analytics, your own branding and the API.',
    priceMonthly: 4900,
    priceYearly: 49000,
    maxChatbots: 10,
    maxTeamMembers: 10,
    messagesCreditsPerMonth: 10_000,
    trainedCharactersPerChatbot: 10_000_000,
    chatHistoryRetention: 365,
    features: features(...PRO),
    sortOrder: 2,
  },
  {
    name: 'Business',
    description: 'Every channel and feature, white labelling and priority support.',
    priceMonthly: 14900,
    priceYearly: 149000,
    maxChatbots: 50,
    maxTeamMembers: 50,
    messagesCreditsPerMonth: 50_000,
    trainedCharactersPerChatbot: 50_000_000,
    chatHistoryRetention: 0,
    features: features(...PLAN_FEATURES),
    sortOrder: 3,
  },
];

export const DEFAULT_ADDONS: Array<Omit<typeof addons.$inferInsert, 'id'>> = [
  {
    name: '1,000 messages',
    description: '1,000 more bot answers a month.',
    kind: 'messages',
    units: 1000,
    priceMonthly: 1000,
  },
  { name: 'Extra chatbot', description: 'One more bot.', kind: 'chatbots', units: 1, priceMonthly: 900 },
  {
    name: 'Extra team member',
    description: 'One more seat for your team.',
    kind: 'team_members',
    units: 1,
    priceMonthly: 500,
  },
  {
    name: '1,000,000 characters',
    description: 'One million more trained characters per bot.',
    kind: 'characters',
    units: 1_000_000,
    priceMonthly: 500,
  },
];

/** Seeds the default plans and add-ons once, on an install that has none (every process may call it). */
export async function seedPlans(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    // One seeder at a time across processes; the check below then sees the other's rows.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${0x0b11}, 1)`);
    const [existing] = await tx.select({ id: plans.id }).from(plans).limit(1);
    if (existing) return;
    await tx.insert(plans).values(DEFAULT_PLANS);
    await tx.insert(addons).values(DEFAULT_ADDONS);
  });
}

export function toPlan(row: PlanRow): Plan {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    currency: row.currency,
    price_monthly: row.priceMonthly,
    price_yearly: row.priceYearly,
    max_chatbots: row.maxChatbots,
    max_team_members: row.maxTeamMembers,
    messages_credits_per_month: row.messagesCreditsPerMonth,
    trained_characters_per_chatbot: row.trainedCharactersPerChatbot,
    chat_history_retention: row.chatHistoryRetention,
    ...(Object.fromEntries(PLAN_FEATURES.map((f) => [f, row.features[f] === true])) as Record<
      PlanFeature,
      boolean
    >),
    is_default: row.isDefault,
    is_active: row.isActive,
    sort_order: row.sortOrder,
  };
}

export function toAddon(row: AddonRow): Addon {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    kind: row.kind,
    units: row.units,
    currency: row.currency,
    price_monthly: row.priceMonthly,
    is_active: row.isActive,
  };
}

export const listPlans = (db: DbOrTx) => db.select().from(plans).orderBy(asc(plans.sortOrder), asc(plans.id));
export const listAddons = (db: DbOrTx) => db.select().from(addons).orderBy(asc(addons.id));

export async function defaultPlan(db: DbOrTx): Promise<PlanRow> {
  const [row] = await db
    .select()
    .from(plans)
    .where(eq(plans.isDefault, true))
    .orderBy(asc(plans.id))
    .limit(1);
  if (!row) throw notFound(BILLING_TEXTS.planNotFound);
  return row;
}

function planValues(input: PlanValues) {
  return {
    name: input.name,
    description: input.description,
    currency: input.currency,
    priceMonthly: input.price_monthly,
    priceYearly: input.price_yearly,
    maxChatbots: input.max_chatbots,
    maxTeamMembers: input.max_team_members,
    messagesCreditsPerMonth: input.messages_credits_per_month,
    trainedCharactersPerChatbot: input.trained_characters_per_chatbot,
    chatHistoryRetention: input.chat_history_retention,
    features: Object.fromEntries(PLAN_FEATURES.map((f) => [f, input[f] === true])),
    isDefault: input.is_default,
    isActive: input.is_active,
    sortOrder: input.sort_order,
  };
}

/**
 * Saves a plan (platform admins). Exactly one plan is the default: marking one clears the others,
 * in the same transaction. A price change starts new provider plans (providers' plans are fixed).
 */
export async function savePlan(db: Db, input: PlanValues, id?: number): Promise<PlanRow> {
  const values = planValues(input);
  try {
    return await db.transaction(async (tx) => {
      if (values.isDefault) await tx.update(plans).set({ isDefault: false }).where(eq(plans.isDefault, true));
      const [row] = id
        ? await tx
            .update(plans)
            .set({ ...values, providerPlanIds: {} })
            .where(eq(plans.id, id))
            .returning()
        : await tx.insert(plans).values(values).returning();
      if (!row) throw notFound(BILLING_TEXTS.planNotFound);
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(BILLING_TEXTS.nameTaken);
    throw error;
  }
}

export async function saveAddon(db: Db, input: AddonValues, id?: number): Promise<AddonRow> {
  const values = {
    name: input.name,
    description: input.description,
    kind: input.kind,
    units: input.units,
    currency: input.currency,
    priceMonthly: input.price_monthly,
    isActive: input.is_active,
  };
  const [row] = id
    ? await db
        .update(addons)
        .set({ ...values, providerPlanId: null })
        .where(eq(addons.id, id))
        .returning()
    : await db.insert(addons).values(values).returning();
  if (!row) throw notFound(BILLING_TEXTS.addonNotFound);
  return row;
}
