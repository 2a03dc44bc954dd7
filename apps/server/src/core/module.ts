import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../config.js';
import type { MailService } from '../modules/mail/mail.service.js';
import type { Clock } from './clock.js';
import type { Database, Db } from './db/database.js';
import type { EventBus } from './events/bus.js';
import type { AuthContext } from './http/request-context.js';
import type { JobQueue } from './jobs/queue.js';
import type { Scheduler } from './jobs/scheduler.js';

/** What every feature module may use. */
export type ModuleDeps = {
  config: Config;
  database: Database;
  db: Db;
  jobs: JobQueue;
  /** Periodic tasks of worker processes (scheduled re-syncs). */
  scheduler: Scheduler;
  /** Every "now" that a schedule or a sync time reads; tests move it by hand. */
  clock: Clock;
  events: EventBus;
  mail: MailService;
  log: FastifyBaseLogger;
  /** Resolves an access token (WebSockets carry it in the query, not a header). */
  authenticate: (token: string) => Promise<AuthContext | null>;
};

/**
 * A feature's two halves: its routes (registered under /api in processes that serve HTTP) and its
 * job handlers and scheduled tasks (registered everywhere; they run only in processes that run workers).
 */
export type FeatureModule = {
  routes?: (deps: ModuleDeps) => FastifyPluginAsyncZod;
  jobs?: (deps: ModuleDeps) => void;
};
