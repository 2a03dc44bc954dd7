import { and, eq } from 'drizzle-orm';
import { tenants } from '../../core/db/schema.js';
import type { ModuleDeps } from '../../core/module.js';
import { notify } from '../notifications/notifications.service.js';
import { ownerEmails } from '../roles/roles.queries.js';
import { usageNotices as notices } from './billing.schema.js';

/** Shares of the monthly messages at which the owners are told (issue: 80 % and 100 %). */
const THRESHOLDS = [80, 100] as const;

const made = new WeakMap<ModuleDeps, UsageNotices>();
export const usageNotices = (deps: ModuleDeps): UsageNotices => {
  let service = made.get(deps);
  if (!service) {
    service = new UsageNotices(deps);
    made.set(deps, service);
  }
  return service;
};

/** Mails a workspace's owners when its bot answers reach 80 % and 100 % of the month's allowance, once each. */
export class UsageNotices {
  constructor(private readonly deps: ModuleDeps) {}

  async noticeMessages(tenantId: number, used: number, limit: number, now = new Date()): Promise<void> {
    // Integers only: used / limit ≥ t / 100 without division.
    const crossed = THRESHOLDS.filter((t) => used * 100 >= limit * t && (used - 1) * 100 < limit * t);
    for (const threshold of crossed) await this.send(tenantId, threshold, limit, now);
  }

  private async send(tenantId: number, threshold: number, limit: number, now: Date) {
    const period = now.toISOString().slice(0, 7);
    await this.deps.db.transaction(async (tx) => {
      // The key, not a read, decides: a notice goes once per month and threshold, whoever races.
      const [inserted] = await tx
        .insert(notices)
        .values({ tenantId, period, threshold })
        .onConflictDoNothing()
        .returning({ tenantId: notices.tenantId });
      if (!inserted) return;
      const [tenant] = await tx
        .select({ name: tenants.name })
        .from(tenants)
        .where(and(eq(tenants.id, tenantId)));
      if (threshold >= 100) {
        await notify(tx, {
          tenantId,
          kind: 'limit_reached',
          title: 'Your bots have used all their messages this month',
          body: `${limit.toLocaleString('en-US')} bot messages used for ${period}.`,
          link: '/upgrade',
          dedupeKey: `limit:messages:${period}`,
        });
      }
      for (const to of await ownerEmails(tx, tenantId)) {
        await this.deps.mail.send(
          {
            to,
            tenantId,
            subject:
              threshold >= 100
                ? 'Your bots have used all their messages this month'
                : `Your bots have used ${threshold}% of their messages this month`,
            text: [
              `Your workspace ${tenant?.name ?? ''} has used ${threshold}% of its ${limit.toLocaleString('en-US')} bot messages for ${period}.`,
              threshold >= 100
                ? 'Your bots now answer visitors with a notice until the month ends; your agents can still reply.'
                : 'When all are used, your bots answer visitors with a notice until the month ends.',
              `Upgrade your plan or add messages: ${this.deps.config.publicUrl}/upgrade`,
            ].join('\n\n'),
          },
          tx,
        );
      }
    });
  }
}
