import { type AdminPlanGrantResult, BILLING_TEXTS, type PlanLimits } from '@parley/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../core/db/database.js';
import { tenants } from '../../core/db/schema.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';
import { plans, subscriptions } from './billing.schema.js';
import type { Entitlements } from './entitlements.js';
import { GRANTING, listSubscriptions } from './subscriptions.queries.js';

export type PlanGrant = {
  planId: number;
  endsAt: Date | null;
  limits: Partial<PlanLimits> | null;
};

/**
 * A platform admin puts a workspace on a plan without payment (any plan, offered or not), until an
 * end date or for good, optionally with custom limits. It is a subscription like any other, marked
 * complimentary, so the entitlements read it as they read a paid one: the newest that grants applies.
 * A grant replaces the admin's previous one; a paid subscription underneath applies again when the
 * grant ends. Refused while plans are off: there would be nothing to limit.
 */
export async function grantPlan(
  db: Db,
  entitlements: Entitlements,
  tenantId: number,
  grant: PlanGrant,
  now: Date,
): Promise<AdminPlanGrantResult> {
  if (!entitlements.plansEnabled) throw conflict(BILLING_TEXTS.grantPlansOff);
  if (grant.endsAt && grant.endsAt.getTime() <= now.getTime())
    throw badRequest(BILLING_TEXTS.grantEndsInPast);
  const customLimits = grant.limits && Object.keys(grant.limits).length > 0 ? grant.limits : null;
  return db.transaction(async (tx) => {
    const [tenant] = await tx
      .select({ id: tenants.id, name: tenants.name })
      .from(tenants)
      .where(eq(tenants.id, tenantId))
      .for('update');
    if (!tenant) throw notFound(BILLING_TEXTS.workspaceNotFound);
    const [plan] = await tx
      .select({ id: plans.id, name: plans.name })
      .from(plans)
      .where(eq(plans.id, grant.planId));
    if (!plan) throw notFound(BILLING_TEXTS.planNotFound);
    await endGrants(tx, tenantId);
    const [row] = await tx
      .insert(subscriptions)
      .values({
        tenantId,
        planId: plan.id,
        billingCycle: 'monthly',
        status: 'active',
        autoRenew: false,
        startDate: now,
        endDate: grant.endsAt,
        complimentary: true,
        customLimits,
      })
      .returning({ id: subscriptions.id });
    const subscription = (await listSubscriptions(tx, tenantId)).find((s) => s.id === row?.id) ?? null;
    return { message: BILLING_TEXTS.granted(plan.name, tenant.name), subscription };
  });
}

/** Ends the plan an admin gave: the workspace is back on what it pays for, or the default plan. */
export async function endGrant(db: Db, tenantId: number): Promise<AdminPlanGrantResult> {
  return db.transaction(async (tx) => {
    const [tenant] = await tx
      .select({ id: tenants.id, name: tenants.name })
      .from(tenants)
      .where(eq(tenants.id, tenantId))
      .for('update');
    if (!tenant) throw notFound(BILLING_TEXTS.workspaceNotFound);
    const ended = await endGrants(tx, tenantId);
    if (ended === 0) throw notFound(BILLING_TEXTS.noComplimentary);
    return { message: BILLING_TEXTS.grantEnded(tenant.name), subscription: null };
  });
}

async function endGrants(tx: Tx, tenantId: number): Promise<number> {
  const ended = await tx
    .update(subscriptions)
    .set({ status: 'cancelled' })
    .where(
      and(
        eq(subscriptions.tenantId, tenantId),
        eq(subscriptions.complimentary, true),
        inArray(subscriptions.status, GRANTING),
      ),
    )
    .returning({ id: subscriptions.id });
  return ended.length;
}
