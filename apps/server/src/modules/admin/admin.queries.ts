import type { AdminJob, AdminMail } from '@parley/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../core/db/database.js';
import { monthOf } from '../chat/chat.queries.js';
import { MAIL_JOB } from '../mail/mail.service.js';

/**
 * The admin console's SQL. Platform-wide on purpose (no tenant filter): only routes guarded by the
 * `Admin` subject call these. Every list is one page (LIMIT/OFFSET) plus its total.
 */

export type Page = { page: number; pageSize: number };
const window = ({ page, pageSize }: Page) => sql`LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`;

/** A timestamp as the API writes it, whichever driver read it (a Date, or text from PGlite). */
export const iso = (value: Date | string | null | undefined): string | null =>
  value == null ? null : new Date(value).toISOString();

/** `%text%` for LIKE, with LIKE's own wildcards in the text taken literally. */
const containing = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

// ------------------------------------------------ workspaces ------------------------------------------------

export type WorkspaceRow = {
  id: number;
  name: string;
  created_at: Date | string;
  owner_email: string | null;
  bots: number;
  members: number;
  messages_this_month: number;
  trained_characters: number;
  last_activity_at: Date | string | null;
  is_demo: boolean;
};

/**
 * A workspace with its usage, each figure from its own indexed lookup: the newest message through
 * conversations_tenant_idx (tenant, last_message_at), this month's answers from message_usage.
 */
const workspaceSelect = (now: Date) => sql`
  SELECT t.id, t.name, t.created_at,
    (SELECT u.email FROM users u WHERE u.tenant_id = t.id ORDER BY u.id LIMIT 1) AS owner_email,
    (SELECT count(*) FROM bots b WHERE b.tenant_id = t.id)::int AS bots,
    (SELECT count(*) FROM users u WHERE u.tenant_id = t.id)::int AS members,
    coalesce((SELECT mu.bot_messages FROM message_usage mu
              WHERE mu.tenant_id = t.id AND mu.month = ${monthOf(now)}), 0)::int AS messages_this_month,
    coalesce((SELECT sum(d.character_count) FROM documents d WHERE d.tenant_id = t.id), 0)::float8
      AS trained_characters,
    (SELECT max(c.last_message_at) FROM conversations c WHERE c.tenant_id = t.id) AS last_activity_at,
    EXISTS (SELECT 1 FROM demo_bots db WHERE db.tenant_id = t.id) AS is_demo
  FROM tenants t`;

function workspaceFilter(search: string | undefined): SQL {
  if (!search) return sql`TRUE`;
  const pattern = containing(search);
  return sql`(lower(t.name) LIKE ${pattern} OR EXISTS (
    SELECT 1 FROM users u WHERE u.tenant_id = t.id AND lower(u.email) LIKE ${pattern}))`;
}

export async function listWorkspaces(db: DbOrTx, page: Page, search: string | undefined, now: Date) {
  const where = workspaceFilter(search);
  const [rows, [count]] = await Promise.all([
    queryRows<WorkspaceRow>(
      db,
      sql`${workspaceSelect(now)} WHERE ${where} ORDER BY t.id DESC ${window(page)}`,
    ),
    queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM tenants t WHERE ${where}`),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
}

export async function findWorkspace(db: DbOrTx, id: number, now: Date): Promise<WorkspaceRow | undefined> {
  const [row] = await queryRows<WorkspaceRow>(db, sql`${workspaceSelect(now)} WHERE t.id = ${id}`);
  return row;
}

export async function workspaceMembers(db: DbOrTx, tenantId: number) {
  const rows = await queryRows<{
    id: number;
    first_name: string;
    last_name: string;
    email: string;
    user_type: string;
    created_at: Date | string;
  }>(
    db,
    sql`SELECT id, first_name, last_name, email, user_type, created_at FROM users
        WHERE tenant_id = ${tenantId} ORDER BY id LIMIT 100`,
  );
  return rows.map((r) => ({
    id: r.id,
    name: `${r.first_name} ${r.last_name}`.trim(),
    email: r.email,
    user_type: r.user_type,
    created_at: iso(r.created_at)!,
  }));
}

export async function workspaceBots(db: DbOrTx, tenantId: number) {
  const rows = await queryRows<{
    id: number;
    bot_name: string;
    uuid: string;
    is_public: boolean;
    conversations: number;
    last_message_at: Date | string | null;
  }>(
    db,
    sql`SELECT b.id, b.bot_name, b.uuid, b.is_public,
          (SELECT count(*) FROM conversations c WHERE c.bot_id = b.id)::int AS conversations,
          (SELECT max(c.last_message_at) FROM conversations c WHERE c.bot_id = b.id) AS last_message_at
        FROM bots b WHERE b.tenant_id = ${tenantId} ORDER BY b.id LIMIT 100`,
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.bot_name,
    uuid: r.uuid,
    is_public: r.is_public,
    conversations: Number(r.conversations),
    last_message_at: iso(r.last_message_at),
  }));
}

// --------------------------------------------------- jobs ---------------------------------------------------

type JobRow = {
  id: string;
  name: string;
  status: AdminJob['status'];
  tenant_id: number | null;
  tenant_name: string | null;
  attempts: number;
  max_attempts: number;
  error: string | null;
  run_after: Date | string;
  created_at: Date | string;
  updated_at: Date | string;
  completed_at: Date | string | null;
};

const toJob = (r: JobRow): AdminJob => ({
  id: r.id,
  name: r.name,
  status: r.status,
  tenant_id: r.tenant_id,
  tenant_name: r.tenant_name,
  attempts: r.attempts,
  max_attempts: r.max_attempts,
  error: r.error,
  run_after: iso(r.run_after)!,
  created_at: iso(r.created_at)!,
  updated_at: iso(r.updated_at)!,
  completed_at: iso(r.completed_at),
});

/** Jobs newest first; never their data, which may hold addresses or tokens' ids. */
export async function listJobs(db: DbOrTx, page: Page, filter: { status?: string; name?: string }) {
  const where = sql.join(
    [
      sql`TRUE`,
      ...(filter.status ? [sql`j.status = ${filter.status}`] : []),
      ...(filter.name ? [sql`j.name = ${filter.name}`] : []),
    ],
    sql` AND `,
  );
  const [rows, [count], counts, kinds] = await Promise.all([
    queryRows<JobRow>(
      db,
      sql`SELECT j.id, j.name, j.status, j.tenant_id, t.name AS tenant_name, j.attempts, j.max_attempts,
            j.error, j.run_after, j.created_at, j.updated_at, j.completed_at
          FROM jobs j LEFT JOIN tenants t ON t.id = j.tenant_id
          WHERE ${where} ORDER BY j.created_at DESC, j.id ${window(page)}`,
    ),
    queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM jobs j WHERE ${where}`),
    queryRows<{ status: AdminJob['status']; n: number }>(
      db,
      sql`SELECT status, count(*)::int AS n FROM jobs GROUP BY status`,
    ),
    queryRows<{ name: string }>(db, sql`SELECT DISTINCT name FROM jobs ORDER BY name`),
  ]);
  const byStatus = { queued: 0, active: 0, completed: 0, failed: 0 };
  for (const c of counts) byStatus[c.status] = Number(c.n);
  return {
    items: rows.map(toJob),
    total: Number(count?.n ?? 0),
    counts: byStatus,
    kinds: kinds.map((k) => k.name),
  };
}

export async function findJob(db: DbOrTx, id: string): Promise<AdminJob | undefined> {
  const [row] = await queryRows<JobRow>(
    db,
    sql`SELECT j.id, j.name, j.status, j.tenant_id, t.name AS tenant_name, j.attempts, j.max_attempts,
          j.error, j.run_after, j.created_at, j.updated_at, j.completed_at
        FROM jobs j LEFT JOIN tenants t ON t.id = j.tenant_id WHERE j.id = ${id}::uuid`,
  );
  return row && toJob(row);
}

// --------------------------------------------------- mail ---------------------------------------------------

type MailRow = {
  id: number;
  tenant_id: number | null;
  tenant_name: string | null;
  to_address: string;
  subject: string;
  status: AdminMail['status'];
  error: string | null;
  attempts: number;
  created_at: Date | string;
  sent_at: Date | string | null;
  has_body: boolean;
};

/**
 * The outbox with each mail's delivery: MailService marks a mail sent or kept, but a delivery that
 * gave up shows only on its `mail.send` job, so a queued mail whose latest job failed is `failed`,
 * with that job's error and attempts. The job is found through jobs_mail_outbox_idx, whose partial
 * predicate needs the job's name written in the statement, not bound as a parameter.
 */
const MAIL_JOB_NAME = sql.raw(`'${MAIL_JOB}'`);
const mailSelect = sql`
  SELECT m.id, m.tenant_id, t.name AS tenant_name, m.to_address, m.subject,
    CASE WHEN m.status = 'queued' AND j.status = 'failed' THEN 'failed' ELSE m.status END AS status,
    coalesce(m.error, j.error) AS error, coalesce(j.attempts, 0) AS attempts,
    m.created_at, m.sent_at, (m.text_body IS NOT NULL) AS has_body
  FROM mail_outbox m
  LEFT JOIN tenants t ON t.id = m.tenant_id
  LEFT JOIN LATERAL (
    SELECT jb.status, jb.error, jb.attempts FROM jobs jb
    WHERE jb.name = ${MAIL_JOB_NAME} AND jb.data->>'outboxId' = m.id::text
    ORDER BY jb.created_at DESC LIMIT 1) j ON TRUE`;

/**
 * Outbox ids whose last delivery job failed, read from the failed jobs (jobs_claim_idx) rather than
 * by looking up every mail's last job: a few hundred failures, not every mail ever sent.
 */
const lastRunFailed = sql`(
  SELECT jb.data->>'outboxId' FROM jobs jb
  WHERE jb.name = ${MAIL_JOB_NAME} AND jb.status = 'failed' AND jb.data->>'outboxId' IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM jobs nx WHERE nx.name = ${MAIL_JOB_NAME}
      AND nx.data->>'outboxId' = jb.data->>'outboxId' AND nx.created_at > jb.created_at))`;

/** The status filter, on the outbox row and, for a queued mail, whether its last delivery failed. */
function mailFilter(status: string | undefined): SQL {
  switch (status) {
    case undefined:
      return sql`TRUE`;
    case 'failed':
      return sql`(m.status = 'failed' OR (m.status = 'queued' AND m.id::text IN ${lastRunFailed}))`;
    case 'queued':
      return sql`(m.status = 'queued' AND m.id::text NOT IN ${lastRunFailed})`;
    default:
      return sql`m.status = ${status}`;
  }
}

export const toMail = (r: MailRow): AdminMail => ({
  id: r.id,
  tenant_id: r.tenant_id,
  tenant_name: r.tenant_name,
  to: r.to_address,
  subject: r.subject,
  status: r.status,
  error: r.error,
  attempts: Number(r.attempts),
  created_at: iso(r.created_at)!,
  sent_at: iso(r.sent_at),
});

export async function listMail(db: DbOrTx, page: Page, status: string | undefined) {
  const where = mailFilter(status);
  const [rows, [count]] = await Promise.all([
    queryRows<MailRow>(db, sql`${mailSelect} WHERE ${where} ORDER BY m.id DESC ${window(page)}`),
    queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM mail_outbox m WHERE ${where}`),
  ]);
  return { items: rows.map(toMail), total: Number(count?.n ?? 0) };
}

export async function findMail(db: DbOrTx, id: number): Promise<MailRow | undefined> {
  const [row] = await queryRows<MailRow>(db, sql`${mailSelect} WHERE m.id = ${id}`);
  return row;
}

// -------------------------------------------------- health --------------------------------------------------

export async function workerFigures(db: DbOrTx) {
  const [row] = await queryRows<{
    processed: number;
    failed: number;
    queued: number;
    active: number;
    oldest: number | null;
  }>(
    db,
    sql`SELECT
      (SELECT count(*) FROM jobs WHERE completed_at > now() - interval '1 hour')::int AS processed,
      (SELECT count(*) FROM jobs WHERE status = 'failed' AND completed_at > now() - interval '1 hour')::int AS failed,
      (SELECT count(*) FROM jobs WHERE status = 'queued')::int AS queued,
      (SELECT count(*) FROM jobs WHERE status = 'active')::int AS active,
      (SELECT extract(epoch FROM now() - min(run_after)) FROM jobs
        WHERE status = 'queued' AND run_after <= now())::float8 AS oldest`,
  );
  return {
    processed_last_hour: Number(row?.processed ?? 0),
    failed_last_hour: Number(row?.failed ?? 0),
    queued: Number(row?.queued ?? 0),
    active: Number(row?.active ?? 0),
    oldest_queued_seconds: row?.oldest == null ? null : Math.round(Number(row.oldest)),
  };
}

export async function databaseFigures(db: DbOrTx) {
  const [row] = await queryRows<{ version: string; size: number }>(
    db,
    sql`SELECT current_setting('server_version') AS version,
          pg_database_size(current_database())::float8 AS size`,
  );
  return { version: row?.version ?? 'unknown', size_bytes: Number(row?.size ?? 0) };
}

/** Help-desk sockets on every live process (each refreshes its presence rows every 10 s). */
export async function helpdeskSocketsEverywhere(db: DbOrTx): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`SELECT coalesce(sum(socket_count), 0)::int AS n FROM agent_presence
        WHERE last_seen > now() - interval '30 seconds'`,
  );
  return Number(row?.n ?? 0);
}
