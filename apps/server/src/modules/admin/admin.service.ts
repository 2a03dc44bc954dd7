import {
  ADMIN_TEXTS,
  type AdminHealth,
  type AdminJob,
  type AdminJobsPage,
  type AdminMail,
  type AdminMailPage,
  type AdminWorkspace,
  type AdminWorkspaceDetail,
  type AdminWorkspacePage,
} from '@parley/contracts';
import { eq, sql } from 'drizzle-orm';
import { mailOutbox } from '../../core/db/schema.js';
import { conflict, notFound } from '../../core/errors.js';
import type { ModuleDeps } from '../../core/module.js';
import { entitlementsOf } from '../billing/billing.services.js';
import type { Entitlements } from '../billing/entitlements.js';
import { chatServices } from '../chat/chat.module.js';
import { MAIL_JOB } from '../mail/mail.service.js';
import {
  databaseFigures,
  findJob,
  findMail,
  findWorkspace,
  helpdeskSocketsEverywhere,
  iso,
  listJobs,
  listMail,
  listWorkspaces,
  type Page,
  toMail,
  type WorkspaceRow,
  workerFigures,
  workspaceBots,
  workspaceMembers,
} from './admin.queries.js';

/**
 * The platform admins' view over every workspace. Plans come from billing's entitlements (the only
 * reader of plan rows); retries and resends go through the job queue, as the original work did.
 */
export class AdminService {
  private readonly entitlements: Entitlements;

  constructor(private readonly deps: ModuleDeps) {
    this.entitlements = entitlementsOf(deps);
  }

  async workspaces(page: Page, search: string | undefined): Promise<AdminWorkspacePage> {
    const { rows, total } = await listWorkspaces(this.deps.db, page, search, this.deps.clock.now());
    const items = await Promise.all(rows.map((row) => this.withPlan(row)));
    return { items, total, page: page.page, page_size: page.pageSize };
  }

  async workspace(id: number): Promise<AdminWorkspaceDetail> {
    const row = await findWorkspace(this.deps.db, id, this.deps.clock.now());
    if (!row) throw notFound(ADMIN_TEXTS.workspaceNotFound);
    const [summary, entitlement, members, bots] = await Promise.all([
      this.withPlan(row),
      this.entitlements.of(id),
      workspaceMembers(this.deps.db, id),
      workspaceBots(this.deps.db, id),
    ]);
    const { limits } = entitlement;
    return {
      ...summary,
      limits: {
        max_chatbots: limits.max_chatbots,
        max_team_members: limits.max_team_members,
        messages_credits_per_month: limits.messages_credits_per_month,
        trained_characters_per_chatbot: limits.trained_characters_per_chatbot,
      },
      unlimited: entitlement.unlimited,
      complimentary: entitlement.complimentary
        ? {
            subscription_id: entitlement.complimentary.subscriptionId,
            ends_at: entitlement.complimentary.endsAt?.toISOString() ?? null,
            custom_limits: entitlement.complimentary.customLimits,
          }
        : null,
      members,
      bots,
    };
  }

  private async withPlan(row: WorkspaceRow): Promise<AdminWorkspace> {
    const { plan, subscriptionId } = await this.entitlements.of(row.id);
    return {
      id: row.id,
      name: row.name,
      created_at: iso(row.created_at)!,
      owner_email: row.owner_email,
      plan: { id: plan.id, name: plan.name },
      subscription_id: subscriptionId,
      usage: {
        bots: Number(row.bots),
        members: Number(row.members),
        messages_this_month: Number(row.messages_this_month),
        trained_characters: Number(row.trained_characters),
      },
      last_activity_at: iso(row.last_activity_at),
      is_demo: row.is_demo,
    };
  }

  async jobs(page: Page, filter: { status?: string; name?: string }): Promise<AdminJobsPage> {
    const found = await listJobs(this.deps.db, page, filter);
    return { ...found, page: page.page, page_size: page.pageSize };
  }

  /** Runs a failed job again through the queue, with its full number of attempts. */
  async retryJob(id: string): Promise<AdminJob> {
    const job = await findJob(this.deps.db, id);
    if (!job) throw notFound(ADMIN_TEXTS.jobNotFound);
    if (job.status !== 'failed' || !(await this.deps.jobs.retry(id)))
      throw conflict(ADMIN_TEXTS.jobNotFailed);
    return (await findJob(this.deps.db, id))!;
  }

  async mail(page: Page, status: string | undefined): Promise<AdminMailPage> {
    const found = await listMail(this.deps.db, page, status);
    return { ...found, page: page.page, page_size: page.pageSize };
  }

  /**
   * Sends a failed mail again: the outbox row back to queued and a new delivery job, in one
   * transaction, so the job exists only with the row it delivers.
   */
  async resendMail(id: number): Promise<AdminMail> {
    const mail = await findMail(this.deps.db, id);
    if (!mail) throw notFound(ADMIN_TEXTS.mailNotFound);
    if (mail.status !== 'failed') throw conflict(ADMIN_TEXTS.mailNotFailed);
    if (!mail.has_body) throw conflict(ADMIN_TEXTS.mailBodyGone);
    await this.deps.db.transaction(async (tx) => {
      await tx.update(mailOutbox).set({ status: 'queued', error: null }).where(eq(mailOutbox.id, id));
      await this.deps.jobs.enqueue(
        MAIL_JOB,
        { outboxId: id },
        { tenantId: mail.tenant_id, tx, maxAttempts: 8 },
      );
    });
    return toMail((await findMail(this.deps.db, id))!);
  }

  async health(): Promise<AdminHealth> {
    const { db, database } = this.deps;
    const started = performance.now();
    await db.execute(sql`SELECT 1`);
    const ping_ms = Math.round((performance.now() - started) * 100) / 100;
    const [figures, workers, helpdeskEverywhere] = await Promise.all([
      databaseFigures(db),
      workerFigures(db),
      helpdeskSocketsEverywhere(db),
    ]);
    const sockets = chatServices(this.deps).hub.socketCounts();
    const memory = process.memoryUsage();
    return {
      database: { engine: database.kind, ping_ms, ...figures },
      workers: { ...workers, running_here: this.deps.jobs.activeCount },
      sockets: { ...sockets, helpdesk_all_processes: helpdeskEverywhere },
      process: {
        pid: process.pid,
        node_version: process.version,
        uptime_seconds: Math.round(process.uptime()),
        rss_bytes: memory.rss,
        heap_used_bytes: memory.heapUsed,
      },
    };
  }
}
