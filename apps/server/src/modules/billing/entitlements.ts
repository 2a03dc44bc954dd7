import {
  type AddonKind,
  BILLING_TEXTS,
  PLAN_FEATURES,
  type PlanFeature,
  type PlanLimits,
} from '@parley/contracts';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import { type Clock, systemClock } from '../../core/clock.js';
import { type DbOrTx, queryRows } from '../../core/db/database.js';
import { tenants } from '../../core/db/schema.js';
import { paymentRequired } from '../../core/errors.js';
import { bots } from '../bots/bots.schema.js';
import { documents } from '../knowledge/knowledge.schema.js';
import { addons, plans, subscriptionAddons, subscriptions } from './billing.schema.js';
import { defaultPlan, type PlanRow } from './plans.js';
import { GRANTING, grantingAt } from './subscriptions.queries.js';

/** What a workspace may do now: its plan's limits plus its add-ons, and the plan's features. */
export type Entitlement = {
  plan: PlanRow;
  limits: PlanLimits;
  features: Record<PlanFeature, boolean>;
  subscriptionId: number | null;
  renewsAt: Date | null;
  /** PLAN_LIMITS=off: nothing is limited. */
  unlimited: boolean;
  /** The plan comes from a platform admin (no payment): its end and its custom limits. */
  complimentary: {
    subscriptionId: number;
    endsAt: Date | null;
    customLimits: Partial<PlanLimits> | null;
  } | null;
};

/**
 * The placeholder of a limit with plans off (never enforced, `unlimited` says so): the most a plan
 * may set, so answers still fit the contracts' limits.
 */
const UNLIMITED = 100_000_000;

/** What one unit of an add-on kind raises. */
const RAISES: Record<AddonKind, keyof PlanLimits> = {
  messages: 'messages_credits_per_month',
  chatbots: 'max_chatbots',
  team_members: 'max_team_members',
  characters: 'trained_characters_per_chatbot',
};

const LABELS: Record<PlanFeature, string> = Object.fromEntries(
  PLAN_FEATURES.map((f) => [f, f.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase())]),
) as Record<PlanFeature, string>;

/**
 * The one answer to "may this workspace do X, and how much is left" (ARCHITECTURE.md, Billing): no
 * other module reads plan rows. A workspace with no subscription that grants has the default plan.
 */
export class Entitlements {
  constructor(
    private readonly db: DbOrTx,
    private readonly config: Pick<Config, 'PLAN_LIMITS' | 'MONTHLY_MESSAGE_LIMIT'>,
    private readonly clock: Clock = systemClock,
  ) {}

  /** PLAN_LIMITS=on: plans limit workspaces. Off (the default): nothing is limited. */
  get plansEnabled(): boolean {
    return this.config.PLAN_LIMITS === 'on';
  }

  async of(tenantId: number, tx: DbOrTx = this.db): Promise<Entitlement> {
    const [current] = await tx
      .select({
        plan: plans,
        id: subscriptions.id,
        endDate: subscriptions.endDate,
        autoRenew: subscriptions.autoRenew,
        complimentary: subscriptions.complimentary,
        customLimits: subscriptions.customLimits,
      })
      .from(subscriptions)
      .innerJoin(plans, eq(plans.id, subscriptions.planId))
      // The newest that grants now: a plan scheduled to follow one still in force waits for its start.
      .where(and(eq(subscriptions.tenantId, tenantId), grantingAt(this.clock.now())))
      .orderBy(desc(subscriptions.id))
      .limit(1);
    const plan = current?.plan ?? (await defaultPlan(tx));
    const custom = current?.complimentary ? (current.customLimits ?? null) : null;
    const limits = await this.withAddons(tx, tenantId, { ...limitsOf(plan), ...(custom ?? {}) });
    const unlimited = this.config.PLAN_LIMITS === 'off';
    return {
      plan,
      limits: unlimited ? unlimitedLimits(this.config.MONTHLY_MESSAGE_LIMIT) : limits,
      features: Object.fromEntries(
        PLAN_FEATURES.map((f) => [f, unlimited || plan.features[f] === true]),
      ) as Record<PlanFeature, boolean>,
      subscriptionId: current?.id ?? null,
      renewsAt: current?.autoRenew ? (current.endDate ?? null) : null,
      unlimited,
      complimentary: current?.complimentary
        ? { subscriptionId: current.id, endsAt: current.endDate ?? null, customLimits: custom }
        : null,
    };
  }

  /**
   * The first plan on offer (cheapest, then the admins' order) that includes a feature: what a
   * card names when the workspace's plan does not. Null when plans are off or no plan offers it.
   */
  async planWith(feature: PlanFeature, tx: DbOrTx = this.db): Promise<string | null> {
    if (!this.plansEnabled) return null;
    const [row] = await tx
      .select({ name: plans.name })
      .from(plans)
      .where(and(eq(plans.isActive, true), sql`(${plans.features} ->> ${feature})::boolean IS TRUE`))
      .orderBy(asc(plans.priceMonthly), asc(plans.sortOrder), asc(plans.id))
      .limit(1);
    return row?.name ?? null;
  }

  private async withAddons(tx: DbOrTx, tenantId: number, limits: PlanLimits): Promise<PlanLimits> {
    const bought = await tx
      .select({
        kind: addons.kind,
        units: sql<number>`sum(${addons.units}::bigint * ${subscriptionAddons.quantity})::float8`,
      })
      .from(subscriptionAddons)
      .innerJoin(addons, eq(addons.id, subscriptionAddons.addonId))
      .where(and(eq(subscriptionAddons.tenantId, tenantId), inArray(subscriptionAddons.status, GRANTING)))
      .groupBy(addons.kind);
    const raised = { ...limits };
    for (const { kind, units } of bought) raised[RAISES[kind]] += Number(units);
    return raised;
  }

  /**
   * Refuses one more bot past the plan's (and add-ons') number, naming the plan. Called in the
   * transaction that creates the bot: the workspace's row is locked first, so two creations at
   * once cannot both take the last place.
   */
  async requireBotSlot(tx: DbOrTx, tenantId: number): Promise<void> {
    const { plan, limits, unlimited } = await this.of(tenantId, tx);
    if (unlimited) return;
    await lockTenant(tx, tenantId);
    const [row] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(bots)
      .where(eq(bots.tenantId, tenantId));
    if ((row?.n ?? 0) >= limits.max_chatbots) {
      throw paymentRequired(
        BILLING_TEXTS.limitReached(plural(limits.max_chatbots, 'chatbot'), limits.max_chatbots, plan.name),
      );
    }
  }

  /**
   * Refuses an invitation past the plan's team size: members and open invitations (other than one
   * to the same address, which the new one replaces) count. In the inviting transaction, locked.
   */
  async requireTeamSlot(tx: DbOrTx, tenantId: number, email: string): Promise<void> {
    const { plan, limits, unlimited } = await this.of(tenantId, tx);
    if (unlimited) return;
    await lockTenant(tx, tenantId);
    const [row] = await queryRows<{ n: number }>(
      tx,
      sql`SELECT (SELECT count(*) FROM users WHERE tenant_id = ${tenantId})
          + (SELECT count(*) FROM invitations WHERE tenant_id = ${tenantId} AND accepted_at IS NULL
               AND revoked_at IS NULL AND expires_at > now() AND lower(email) <> lower(${email}))::int AS n`,
    );
    if (Number(row?.n ?? 0) >= limits.max_team_members) {
      throw paymentRequired(
        BILLING_TEXTS.limitReached(
          plural(limits.max_team_members, 'team member'),
          limits.max_team_members,
          plan.name,
        ),
      );
    }
  }

  /** Asked on every bot answer: with nothing limited, the one allowance of the configuration, no query. */
  async monthlyMessages(tenantId: number): Promise<number> {
    if (this.config.PLAN_LIMITS === 'off') return this.config.MONTHLY_MESSAGE_LIMIT;
    return (await this.of(tenantId)).limits.messages_credits_per_month;
  }

  /**
   * Refuses a bot holding more trained characters than the plan allows: called in the transaction
   * that attaches sources to it (files, websites, Notion, stores), after the links are written, so
   * a refusal rolls them back before any training starts.
   */
  async requireBotCharacters(tx: DbOrTx, tenantId: number, botId: number): Promise<void> {
    const { plan, limits, unlimited } = await this.of(tenantId, tx);
    if (unlimited) return;
    const [row] = await queryRows<{ n: number }>(tx, botCharactersQuery(tenantId, botId));
    if (Number(row?.n ?? 0) > limits.trained_characters_per_chatbot) {
      throw paymentRequired(
        BILLING_TEXTS.charactersReached(limits.trained_characters_per_chatbot, plan.name),
      );
    }
  }

  /**
   * Refuses training `characters` into a collection (a website's pages, a Notion workspace, a file
   * group, a store, a bot's Q&A), in place of what the source items `replacing` hold now, when a
   * bot answering from it would then hold more than the plan allows: sources that grow after they
   * were attached are checked before the document is written, not only when attached.
   */
  async requireRoomFor(
    tx: DbOrTx,
    tenantId: number,
    source: SourceRef,
    replacing: number[],
    characters: number,
  ): Promise<void> {
    // Asked for every page and record trained: no query at all when nothing is limited.
    if (this.config.PLAN_LIMITS === 'off') return;
    const added = characters - (await heldBy(tx, tenantId, source.type, replacing));
    if (added <= 0) return;
    const { plan, limits, unlimited } = await this.of(tenantId, tx);
    if (unlimited) return;
    for (const botId of await botsAnsweringFrom(tx, tenantId, source)) {
      const [row] = await queryRows<{ n: number }>(tx, botCharactersQuery(tenantId, botId));
      if (Number(row?.n ?? 0) + added > limits.trained_characters_per_chatbot) {
        throw paymentRequired(
          BILLING_TEXTS.charactersReached(limits.trained_characters_per_chatbot, plan.name),
        );
      }
    }
  }

  async requireFeature(tenantId: number, feature: PlanFeature, tx: DbOrTx = this.db): Promise<void> {
    const { plan, features } = await this.of(tenantId, tx);
    if (!features[feature]) throw paymentRequired(BILLING_TEXTS.featureNotInPlan(LABELS[feature], plan.name));
  }

  async hasFeature(tenantId: number, feature: PlanFeature): Promise<boolean> {
    if (this.config.PLAN_LIMITS === 'off') return true;
    return (await this.of(tenantId)).features[feature];
  }
}

/** The characters of every document a bot answers from: its collections, its stores and its Q&A. */
const botCharactersQuery = (tenantId: number, botId: number) => sql`
  SELECT coalesce(sum(d.character_count), 0)::float8 AS n FROM documents d
  WHERE d.tenant_id = ${tenantId} AND (
    (d.source_type = 'file' AND d.collection_id IN
      (SELECT file_group_id FROM bot_file_groups WHERE tenant_id = ${tenantId} AND bot_id = ${botId}))
    OR (d.source_type = 'web' AND d.collection_id IN
      (SELECT web_source_id FROM bot_web_sources WHERE tenant_id = ${tenantId} AND bot_id = ${botId}))
    OR (d.source_type = 'notion' AND d.collection_id IN
      (SELECT notion_workspace_id FROM bot_notion_workspaces WHERE tenant_id = ${tenantId} AND bot_id = ${botId}))
    OR (d.source_type = 'store' AND d.collection_id IN
      (SELECT unnest(ARRAY[shopify_store_id, woocommerce_store_id]) FROM bots WHERE tenant_id = ${tenantId} AND id = ${botId}))
    OR (d.source_type = 'qna' AND d.collection_id = ${botId}))`;

/** A collection of trained documents: its source type and id (for Q&A, the bot itself). */
export type SourceRef = { type: 'file' | 'web' | 'notion' | 'store' | 'qna'; collectionId: number };

/** Characters the source items' documents hold now (what their new text replaces). */
async function heldBy(
  tx: DbOrTx,
  tenantId: number,
  type: SourceRef['type'],
  sourceIds: number[],
): Promise<number> {
  if (sourceIds.length === 0) return 0;
  const [row] = await tx
    .select({ n: sql<number>`coalesce(sum(${documents.characterCount}), 0)::float8` })
    .from(documents)
    .where(
      and(
        eq(documents.tenantId, tenantId),
        eq(documents.sourceType, type),
        inArray(documents.sourceId, sourceIds),
      ),
    );
  return Number(row?.n ?? 0);
}

/** The bots that answer from a collection. */
async function botsAnsweringFrom(
  tx: DbOrTx,
  tenantId: number,
  { type, collectionId }: SourceRef,
): Promise<number[]> {
  if (type === 'qna') return [collectionId];
  const links = {
    file: sql`SELECT bot_id FROM bot_file_groups WHERE tenant_id = ${tenantId} AND file_group_id = ${collectionId}`,
    web: sql`SELECT bot_id FROM bot_web_sources WHERE tenant_id = ${tenantId} AND web_source_id = ${collectionId}`,
    notion: sql`SELECT bot_id FROM bot_notion_workspaces WHERE tenant_id = ${tenantId} AND notion_workspace_id = ${collectionId}`,
    store: sql`SELECT id AS bot_id FROM bots WHERE tenant_id = ${tenantId} AND ${collectionId} IN (shopify_store_id, woocommerce_store_id)`,
  };
  const rows = await queryRows<{ bot_id: number }>(tx, links[type]);
  return rows.map((r) => r.bot_id);
}

/** Serialises a workspace's limited creations (bots, invitations) for the caller's transaction. */
async function lockTenant(tx: DbOrTx, tenantId: number): Promise<void> {
  await tx.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, tenantId)).for('update');
}

export function limitsOf(plan: PlanRow): PlanLimits {
  return {
    max_chatbots: plan.maxChatbots,
    max_team_members: plan.maxTeamMembers,
    messages_credits_per_month: plan.messagesCreditsPerMonth,
    trained_characters_per_chatbot: plan.trainedCharactersPerChatbot,
    chat_history_retention: plan.chatHistoryRetention,
  };
}

const unlimitedLimits = (messages: number): PlanLimits => ({
  max_chatbots: UNLIMITED,
  max_team_members: UNLIMITED,
  messages_credits_per_month: messages,
  trained_characters_per_chatbot: UNLIMITED,
  chat_history_retention: 0,
});

const plural = (n: number, word: string) => (n === 1 ? word : `${word}s`);
