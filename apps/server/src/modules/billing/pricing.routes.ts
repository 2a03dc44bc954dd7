import {
  Addon,
  AddonInput,
  AdminPlanGrant,
  AdminPlanGrantResult,
  BILLING_TEXTS,
  IdParams,
  PendingSubscriptions,
  Plan,
  PlanConsumption,
  PlanInput,
  SubscriptionsResponse,
  TenantIdParams,
} from '@parley/contracts';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { invitations, users } from '../../core/db/schema.js';
import { notFound } from '../../core/errors.js';
import { type AuthContext, requireAuth } from '../../core/http/request-context.js';
import type { ModuleDeps } from '../../core/module.js';
import { bots } from '../bots/bots.schema.js';
import { botMessagesThisMonth } from '../chat/chat.queries.js';
import { documents } from '../knowledge/knowledge.schema.js';
import { addons } from './billing.schema.js';
import { paymentsConfigured } from './billing.services.js';
import { endGrant, grantPlan } from './complimentary.js';
import type { Entitlements } from './entitlements.js';
import { listAddons, listPlans, saveAddon, savePlan, toAddon, toPlan } from './plans.js';
import { listAddonLinks, listSubscriptions } from './subscriptions.queries.js';

const tags = ['Plans and subscriptions'];

/** The caller's own tenant only: another tenant's id answers 404, never a hint that it exists. */
function ownTenant(auth: AuthContext, tenantId: number): number {
  if (tenantId !== auth.tenantId) throw notFound('Tenant not found');
  return tenantId;
}

/**
 * Plans, add-ons, a workspace's subscriptions and consumption (integrations-and-billing.md section
 * 7), and the platform admins' management of plans and add-ons.
 */
export const pricingRoutes =
  (deps: ModuleDeps, entitlements: Entitlements): FastifyPluginAsyncZod =>
  async (app) => {
    const { db } = deps;
    app.get(
      '/pricing/plans',
      { schema: { tags, summary: 'Plans on offer', response: { 200: z.array(Plan) } } },
      async () => (await listPlans(db)).filter((p) => p.isActive).map(toPlan),
    );
    app.get(
      '/pricing/addons',
      { schema: { tags, summary: 'Add-ons on offer', response: { 200: z.array(Addon) } } },
      async () => (await listAddons(db)).filter((a) => a.isActive).map(toAddon),
    );
    app.get(
      '/pricing/subscriptions/:tenantId',
      {
        schema: {
          tags,
          summary: "The plan that applies now and the workspace's subscriptions",
          params: TenantIdParams,
          response: { 200: SubscriptionsResponse },
        },
      },
      async (request) => {
        const tenantId = ownTenant(requireAuth(request), request.params.tenantId);
        const [current, subscriptions, addons] = await Promise.all([
          entitlements.of(tenantId),
          listSubscriptions(db, tenantId, undefined, deps.clock.now()),
          listAddonLinks(db, tenantId),
        ]);
        return {
          plans_enabled: entitlements.plansEnabled,
          payments_enabled: paymentsConfigured(deps.config),
          current: {
            plan: toPlan(current.plan),
            subscription_id: current.subscriptionId,
            renews_at: current.renewsAt?.toISOString() ?? null,
            complimentary: current.complimentary !== null,
            ends_at: current.complimentary?.endsAt?.toISOString() ?? null,
            limits: current.limits,
          },
          subscriptions,
          addons,
        };
      },
    );
    app.get(
      '/pricing/subscriptions/pending/:tenantId',
      {
        schema: {
          tags,
          summary: 'Subscriptions started but not paid yet (checkout not completed)',
          params: TenantIdParams,
          response: { 200: PendingSubscriptions },
        },
      },
      async (request) => ({
        pending_subscriptions: await listSubscriptions(
          db,
          ownTenant(requireAuth(request), request.params.tenantId),
          ['created'],
          deps.clock.now(),
        ),
      }),
    );
    app.get(
      '/pricing/subscriptions/inprocess/:tenantId',
      {
        schema: {
          tags,
          summary: 'Subscriptions whose payment is being processed or retried',
          params: TenantIdParams,
          response: { 200: PendingSubscriptions },
        },
      },
      async (request) => ({
        pending_subscriptions: await listSubscriptions(
          db,
          ownTenant(requireAuth(request), request.params.tenantId),
          ['authenticated', 'pending'],
          deps.clock.now(),
        ),
      }),
    );
    app.get(
      '/pricing/consumption/:tenantId',
      {
        schema: {
          tags,
          summary: 'What the workspace uses against its limits',
          params: TenantIdParams,
          response: { 200: PlanConsumption },
        },
      },
      async (request) =>
        consumption(deps, entitlements, ownTenant(requireAuth(request), request.params.tenantId)),
    );

    app.get(
      '/admin/pricing/plans',
      { schema: { tags, summary: 'Every plan, offered or not', response: { 200: z.array(Plan) } } },
      async () => (await listPlans(db)).map(toPlan),
    );
    app.post(
      '/admin/pricing/plans',
      { schema: { tags, summary: 'Create a plan', body: PlanInput, response: { 201: Plan } } },
      async (request, reply) => reply.status(201).send(toPlan(await savePlan(db, request.body))),
    );
    app.put(
      '/admin/pricing/plans/:id',
      {
        schema: {
          tags,
          summary: 'Change a plan (new subscriptions get the new prices)',
          params: IdParams,
          body: PlanInput,
          response: { 200: Plan },
        },
      },
      async (request) => toPlan(await savePlan(db, request.body, request.params.id)),
    );
    app.get(
      '/admin/pricing/addons',
      { schema: { tags, summary: 'Every add-on, offered or not', response: { 200: z.array(Addon) } } },
      async () => (await listAddons(db)).map(toAddon),
    );
    app.post(
      '/admin/pricing/addons',
      { schema: { tags, summary: 'Create an add-on', body: AddonInput, response: { 201: Addon } } },
      async (request, reply) => reply.status(201).send(toAddon(await saveAddon(db, request.body))),
    );
    app.put(
      '/admin/pricing/addons/:id',
      {
        schema: {
          tags,
          summary: 'Change an add-on',
          params: IdParams,
          body: AddonInput,
          response: { 200: Addon },
        },
      },
      async (request) => {
        const [exists] = await db
          .select({ id: addons.id })
          .from(addons)
          .where(eq(addons.id, request.params.id));
        if (!exists) throw notFound(BILLING_TEXTS.addonNotFound);
        return toAddon(await saveAddon(db, request.body, request.params.id));
      },
    );
    app.put(
      '/admin/workspaces/:id/plan',
      {
        schema: {
          tags,
          summary: 'Put a workspace on a plan without payment (complimentary), until a date or for good',
          params: IdParams,
          body: AdminPlanGrant,
          response: { 200: AdminPlanGrantResult },
        },
      },
      async (request) =>
        grantPlan(
          db,
          entitlements,
          request.params.id,
          {
            planId: request.body.plan_id,
            endsAt: request.body.ends_at ? new Date(request.body.ends_at) : null,
            limits: request.body.limits,
          },
          deps.clock.now(),
        ),
    );
    app.delete(
      '/admin/workspaces/:id/plan',
      {
        schema: {
          tags,
          summary: 'End the plan an admin gave: back to the paid plan or the default',
          params: IdParams,
          response: { 200: AdminPlanGrantResult },
        },
      },
      async (request) => endGrant(db, request.params.id),
    );
  };

/** The spec's plan consumption: trained characters by source, bots, team and this month's messages. */
async function consumption(
  deps: ModuleDeps,
  entitlements: Entitlements,
  tenantId: number,
): Promise<PlanConsumption> {
  const { db } = deps;
  const [current, characters, [botCount], [memberCount], [invited], messages] = await Promise.all([
    entitlements.of(tenantId),
    db
      .select({
        type: documents.sourceType,
        n: sql<number>`coalesce(sum(${documents.characterCount}), 0)::float8`,
      })
      .from(documents)
      .where(eq(documents.tenantId, tenantId))
      .groupBy(documents.sourceType),
    db.select({ n: sql<number>`count(*)::int` }).from(bots).where(eq(bots.tenantId, tenantId)),
    db.select({ n: sql<number>`count(*)::int` }).from(users).where(eq(users.tenantId, tenantId)),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(invitations)
      .where(
        and(
          eq(invitations.tenantId, tenantId),
          isNull(invitations.acceptedAt),
          isNull(invitations.revokedAt),
          gt(invitations.expiresAt, new Date()),
        ),
      ),
    botMessagesThisMonth(db, tenantId),
  ]);
  const of = (type: string) => Number(characters.find((c) => c.type === type)?.n ?? 0);
  return {
    characters_fileSpace: of('file'),
    characters_websource: of('web'),
    characters_notion: of('notion'),
    characters_qna: of('qna'),
    max_chatbots: botCount?.n ?? 0,
    max_team_members: (memberCount?.n ?? 0) + (invited?.n ?? 0),
    messages_per_month: messages.used,
    limits: current.limits,
    plan: current.plan.name,
    unlimited: current.unlimited,
  };
}
