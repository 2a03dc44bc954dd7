import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { JobProgress } from '@parley/contracts';
import { and, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { type Database, type DbOrTx, queryRows, sql } from '../db/database.js';
import { jobs } from '../db/schema.js';

/** pino-compatible subset, so the app's logger can be passed as is. */
export type Logger = {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
};

/** What `get` answers: the shape the API serves (defined once, in the contracts). */
export type { JobProgress };
export type JobStatus = JobProgress['status'];

export type JobContext<T> = {
  id: string;
  name: string;
  data: T;
  tenantId: number | null;
  /** 1 on the first run. */
  attempt: number;
  /** Records progress and extends the lease. */
  progress(current: number, total: number): Promise<void>;
  /** Aborted when this run lost its lease or the queue stopped without waiting for it. */
  signal: AbortSignal;
};

export type JobHandler<T> = (job: JobContext<T>) => Promise<unknown>;

export type RegisterOptions = {
  /** Used by `enqueue` in this process when the caller gives none; default 5. */
  maxAttempts?: number;
  /** Retry n waits backoffBaseMs * 2^(n-1), at most 10 minutes; default 1000. */
  backoffBaseMs?: number;
};

export type EnqueueOptions = {
  tenantId?: number | null;
  maxAttempts?: number;
  delayMs?: number;
  /** Enqueue inside the caller's transaction: the job exists, and workers hear of it, only if it commits. */
  tx?: DbOrTx;
};

export type JobQueueOptions = {
  workerId?: string;
  pollMs?: number;
  leaseMs?: number;
  concurrency?: number;
  logger?: Logger;
};

export type StopOptions = {
  /** How long to wait for running handlers; those still running are abandoned to lease expiry. */
  timeoutMs?: number;
};

/** NOTIFY channel carrying the name of a freshly enqueued job. */
/** A failure no retry can mend (a refused token, a closed messaging window): the job fails at once. */
export class PermanentJobError extends Error {}

export const JOBS_CHANNEL = 'parley_jobs';

const DEFAULT_MAX_ATTEMPTS = 5;
const DEFAULT_BACKOFF_BASE_MS = 1000;
const MAX_BACKOFF_MS = 10 * 60_000;
const MAX_ERROR_LENGTH = 1000;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Registration = { handler: JobHandler<unknown>; maxAttempts?: number; backoffBaseMs: number };

type ClaimedRow = {
  id: string;
  name: string;
  data: unknown;
  tenant_id: number | null;
  attempts: number;
  max_attempts: number;
};

/** One run of one job: identified by (worker, attempt), which is what guards every later write. */
type Run = {
  job: ClaimedRow;
  controller: AbortController;
  heartbeat: NodeJS.Timeout | undefined;
  /** Set once the handler returned: a heartbeat racing the final write must not read as a lost lease. */
  settled: boolean;
  done: Promise<void>;
};

const consoleLogger: Logger = {
  info: (obj, msg) => console.info(msg ?? '', obj),
  warn: (obj, msg) => console.warn(msg ?? '', obj),
  error: (obj, msg) => console.error(msg ?? '', obj),
};

/**
 * A durable job queue on the `jobs` table. Workers claim with `FOR UPDATE SKIP LOCKED` and hold a
 * lease they keep extending; a job whose lease expired belongs to a dead worker and is claimed again.
 */
export class JobQueue {
  readonly workerId: string;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly concurrency: number;
  private readonly logger: Logger;
  private readonly registrations = new Map<string, Registration>();
  private readonly runs = new Map<string, Run>();
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private polling: Promise<void> | undefined;
  private pollAgain = false;

  constructor(
    private readonly database: Database,
    options: JobQueueOptions = {},
  ) {
    this.workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.pollMs = options.pollMs ?? 1000;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.concurrency = options.concurrency ?? 4;
    this.logger = options.logger ?? consoleLogger;
  }

  register<T>(name: string, handler: JobHandler<T>, options: RegisterOptions = {}): void {
    this.registrations.set(name, {
      handler: handler as JobHandler<unknown>,
      maxAttempts: options.maxAttempts,
      backoffBaseMs: options.backoffBaseMs ?? DEFAULT_BACKOFF_BASE_MS,
    });
  }

  async enqueue<T>(name: string, data: T, options: EnqueueOptions = {}): Promise<string> {
    const executor = options.tx ?? this.database.db;
    const maxAttempts =
      options.maxAttempts ?? this.registrations.get(name)?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    const [row] = await executor
      .insert(jobs)
      .values({
        name,
        data: data ?? {},
        tenantId: options.tenantId ?? null,
        maxAttempts,
        runAfter: options.delayMs ? sql`now() + ${msInterval(options.delayMs)}` : undefined,
      })
      .returning({ id: jobs.id });
    await this.announce(name, options.tx);
    return row!.id;
  }

  async get(id: string, tenantId?: number | null): Promise<JobProgress | null> {
    // A malformed id would be a uuid cast error in PostgreSQL; to a caller it is just "no such job".
    if (!UUID_RE.test(id)) return null;
    const conditions: SQL[] = [eq(jobs.id, id)];
    if (tenantId !== undefined)
      conditions.push(tenantId === null ? isNull(jobs.tenantId) : eq(jobs.tenantId, tenantId));
    const [row] = await this.database.db
      .select()
      .from(jobs)
      .where(and(...conditions))
      .limit(1);
    return row ? toProgress(row) : null;
  }

  /**
   * Queues a failed job again, now, with its full number of attempts (an admin's retry). Only a
   * failed job: one still queued or running would then run twice. Its last error stays until the
   * new run ends. Answers false when no such failed job exists.
   */
  async retry(id: string): Promise<boolean> {
    if (!UUID_RE.test(id)) return false;
    const [row] = await this.database.db
      .update(jobs)
      .set({
        status: 'queued',
        attempts: 0,
        runAfter: sql`now()`,
        lockedBy: null,
        lockedUntil: null,
        completedAt: null,
        updatedAt: sql`now()`,
      })
      .where(and(eq(jobs.id, id), eq(jobs.status, 'failed')))
      .returning({ name: jobs.name });
    if (!row) return false;
    await this.announce(row.name, undefined);
    return true;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      this.unlisten = await this.database.listen(JOBS_CHANNEL, (name) => {
        if (this.registrations.has(name)) this.poll();
      });
    } catch (err) {
      // Without notifications the queue still works, only at the pace of polling.
      this.logger.error({ err }, 'jobs: listen failed; polling only');
    }
    this.timer = setInterval(() => this.poll(), this.pollMs);
    this.timer.unref();
    this.poll();
  }

  async stop(options: StopOptions = {}): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearInterval(this.timer);
    await this.unlisten?.().catch((err) => this.logger.warn({ err }, 'jobs: unlisten failed'));
    // A claim in flight may still start a run; wait for it so that run is awaited below too.
    await this.polling;
    const settled = await waitAll(
      [...this.runs.values()].map((run) => run.done),
      options.timeoutMs ?? 10_000,
    );
    if (!settled) this.abandonRuns();
  }

  /** Number of handlers running in this process. */
  get activeCount(): number {
    return this.runs.size;
  }

  /**
   * Wakes workers. Inside a transaction pg_notify is delivered on commit and dropped on rollback; it
   * must go through `tx` too, as PGlite's single connection would wait on the open transaction.
   */
  private async announce(name: string, tx: DbOrTx | undefined): Promise<void> {
    try {
      if (tx) await tx.execute(sql`SELECT pg_notify(${JOBS_CHANNEL}, ${name})`);
      else await this.database.notify(JOBS_CHANNEL, name);
    } catch (err) {
      // Inside a transaction the error has aborted it, so the caller must know; otherwise the job
      // is stored and polling will find it.
      if (tx) throw err;
      this.logger.warn({ err, name }, 'jobs: notify failed');
    }
  }

  /** Claims jobs until the slots are full or none is due; never two polls at once. */
  private poll(): void {
    if (!this.running) return;
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    this.polling = this.fillSlots().finally(() => {
      this.polling = undefined;
    });
  }

  private async fillSlots(): Promise<void> {
    do {
      this.pollAgain = false;
      try {
        while (this.running && this.runs.size < this.concurrency) {
          const job = await this.claim();
          if (!job) break;
          this.begin(job);
        }
      } catch (err) {
        // A database hiccup must not kill the worker: the next tick tries again.
        this.logger.error({ err }, 'jobs: poll failed');
        return;
      }
    } while (this.pollAgain && this.running);
  }

  private async claim(): Promise<ClaimedRow | undefined> {
    const names = [...this.registrations.keys()];
    if (names.length === 0) return undefined;
    const [row] = await queryRows<ClaimedRow>(
      this.database.db,
      sql`UPDATE jobs SET status = 'active', attempts = attempts + 1, locked_by = ${this.workerId},
            locked_until = now() + ${msInterval(this.leaseMs)}, updated_at = now()
          WHERE id = (
            SELECT id FROM jobs
            WHERE ${inArray(jobs.name, names)}
              AND ((status = 'queued' AND run_after <= now()) OR (status = 'active' AND locked_until < now()))
            ORDER BY run_after, created_at
            FOR UPDATE SKIP LOCKED
            LIMIT 1)
          RETURNING id, name, data, tenant_id, attempts, max_attempts`,
    );
    return row;
  }

  private begin(job: ClaimedRow): void {
    // Keyed by run, not job: this worker may reclaim its own job if its heartbeats stalled.
    const key = `${job.id}#${job.attempts}`;
    const run: Run = {
      job,
      controller: new AbortController(),
      heartbeat: undefined,
      settled: false,
      done: Promise.resolve(),
    };
    run.heartbeat = setInterval(() => void this.heartbeat(run), Math.max(1, this.leaseMs / 3));
    run.heartbeat.unref();
    this.runs.set(key, run);
    run.done = this.execute(run).finally(() => {
      clearInterval(run.heartbeat);
      this.runs.delete(key);
      this.poll();
    });
  }

  private async execute(run: Run): Promise<void> {
    const { job } = run;
    try {
      // Reclaimed from a dead worker after its last allowed attempt: give up instead of a run too many.
      if (job.attempts > job.max_attempts) {
        await this.finishFailed(job, `lease expired on the last of ${job.max_attempts} attempts`, true);
        return;
      }
      const registration = this.registrations.get(job.name);
      if (!registration) throw new Error(`no handler registered for job "${job.name}"`);
      const outcome = await settle(() => registration.handler(this.context(run)));
      run.settled = true;
      clearInterval(run.heartbeat);
      if (outcome.ok) await this.complete(job, outcome.value);
      else await this.fail(job, outcome.error, registration.backoffBaseMs);
    } catch (err) {
      // Database down while recording the outcome: the lease expires and the job runs again.
      this.logger.error({ err, jobId: job.id, name: job.name }, 'jobs: could not record outcome');
    }
  }

  private context(run: Run): JobContext<unknown> {
    const { job, controller } = run;
    return {
      id: job.id,
      name: job.name,
      data: job.data,
      tenantId: job.tenant_id,
      attempt: job.attempts,
      signal: controller.signal,
      progress: async (current, total) => {
        const held = await this.touch(job, { current: Math.trunc(current), total: Math.trunc(total) });
        if (!held) this.lost(run);
      },
    };
  }

  private async heartbeat(run: Run): Promise<void> {
    try {
      if (!(await this.touch(run.job, {}))) this.lost(run);
    } catch (err) {
      this.logger.warn({ err, jobId: run.job.id }, 'jobs: heartbeat failed');
    }
  }

  /** Extends the lease (and sets progress); false when this run no longer holds the job. */
  private async touch(job: ClaimedRow, progress: { current?: number; total?: number }): Promise<boolean> {
    const rows = await this.database.db
      .update(jobs)
      .set({ ...progress, lockedUntil: sql`now() + ${msInterval(this.leaseMs)}`, updatedAt: sql`now()` })
      .where(this.heldBy(job))
      .returning({ id: jobs.id });
    return rows.length > 0;
  }

  private lost(run: Run): void {
    if (run.settled || run.controller.signal.aborted) return;
    this.logger.warn({ jobId: run.job.id, attempt: run.job.attempts }, 'jobs: lease lost, aborting run');
    clearInterval(run.heartbeat);
    run.controller.abort(new Error('job lease lost'));
  }

  private async complete(job: ClaimedRow, result: unknown): Promise<void> {
    const rows = await this.database.db
      .update(jobs)
      .set({
        status: 'completed',
        result: result ?? null,
        error: null,
        lockedUntil: null,
        completedAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(this.heldBy(job))
      .returning({ id: jobs.id });
    if (rows.length === 0) this.logger.warn({ jobId: job.id }, 'jobs: lost the lease; result discarded');
  }

  private async fail(job: ClaimedRow, err: unknown, backoffBaseMs: number): Promise<void> {
    const message = errorMessage(err);
    if (job.attempts >= job.max_attempts || err instanceof PermanentJobError)
      return this.finishFailed(job, message, false);
    const delayMs = Math.min(backoffBaseMs * 2 ** (job.attempts - 1), MAX_BACKOFF_MS);
    const rows = await this.database.db
      .update(jobs)
      .set({
        status: 'queued',
        error: message,
        runAfter: sql`now() + ${msInterval(delayMs)}`,
        lockedUntil: null,
        updatedAt: sql`now()`,
      })
      .where(this.heldBy(job))
      .returning({ id: jobs.id });
    if (rows.length === 0) this.logger.warn({ jobId: job.id }, 'jobs: lost the lease; failure discarded');
    else
      this.logger.warn({ jobId: job.id, attempt: job.attempts, delayMs, error: message }, 'jobs: will retry');
  }

  private async finishFailed(job: ClaimedRow, message: string, overdrawn: boolean): Promise<void> {
    const rows = await this.database.db
      .update(jobs)
      .set({
        status: 'failed',
        error: message,
        // The reclaim counted an attempt that never ran.
        ...(overdrawn ? { attempts: job.max_attempts } : {}),
        lockedUntil: null,
        completedAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(this.heldBy(job))
      .returning({ id: jobs.id });
    if (rows.length > 0) this.logger.error({ jobId: job.id, name: job.name, error: message }, 'jobs: failed');
  }

  /** Only the run that claimed the job may write to it: a stale worker finds no row. */
  private heldBy(job: ClaimedRow): SQL {
    return and(
      eq(jobs.id, job.id),
      eq(jobs.lockedBy, this.workerId),
      eq(jobs.status, 'active'),
      eq(jobs.attempts, job.attempts),
    )!;
  }

  /** Handlers that outlived stop(): stop heartbeating so the lease expires and another worker takes over. */
  private abandonRuns(): void {
    for (const run of this.runs.values()) {
      clearInterval(run.heartbeat);
      run.controller.abort(new Error('job queue stopped'));
      this.logger.warn({ jobId: run.job.id }, 'jobs: abandoned a running job at shutdown');
    }
    this.runs.clear();
  }
}

function toProgress(row: typeof jobs.$inferSelect): JobProgress {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    current: row.current,
    total: row.total,
    percentage: percentage(row.status, row.current, row.total),
    error: row.error,
    attempts: row.attempts,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Joins the job whose id is in `taskId` while it is queued or active (a left join finds none once it ended). */
export const pendingJob = (taskId: AnyPgColumn): SQL =>
  and(eq(jobs.id, taskId), inArray(jobs.status, ['queued', 'active']))!;

export function percentage(status: JobStatus, current: number, total: number): number {
  if (status === 'completed') return 100;
  if (total <= 0) return 0;
  const ratio = Math.min(Math.max(current / total, 0), 1);
  return Math.round(ratio * 1000) / 10;
}

function msInterval(ms: number): SQL {
  return sql`(${Math.max(0, ms)}::double precision * interval '1 millisecond')`;
}

function errorMessage(err: unknown): string {
  const message = err instanceof Error ? err.message || err.name : String(err);
  return message.slice(0, MAX_ERROR_LENGTH);
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** Runs the handler, turning a synchronous throw into a failure like a rejection. */
async function settle(fn: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: true, value: await fn() };
  } catch (error) {
    return { ok: false, error };
  }
}

/** True if every promise settled within `timeoutMs`. */
async function waitAll(promises: Promise<unknown>[], timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
    timer.unref();
  });
  const all = Promise.allSettled(promises).then(() => true as const);
  try {
    return await Promise.race([all, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
