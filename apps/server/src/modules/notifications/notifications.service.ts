import {
  BOTS_SUBJECT,
  NOTIFICATION_LIMITS,
  type Notification,
  type NotificationKind,
  type NotificationList,
  type Subject,
} from '@parley/contracts';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../core/db/database.js';
import { queryRows } from '../../core/db/database.js';
import { EVENTS_CHANNEL, type EventBus } from '../../core/events/bus.js';
import type { JobContext } from '../../core/jobs/queue.js';
import { worksWithBotSql } from '../bots/bots.queries.js';
import { notifications } from './notifications.schema.js';

/** Published (at commit) when notifications were stored; `userIds` null means "anyone of the tenant". */
export const NOTIFICATION_CREATED = 'notification.created';
export type NotificationCreated = { tenantId: number; userIds: number[] | null };

/**
 * The origin of the commit-time NOTIFY. It is no bus's own origin, so every process, this one
 * included, hears it over LISTEN once the transaction that stored the notification commits (never
 * for one rolled back), and a browser told to fetch the count finds the row.
 */
const COMMIT_ORIGIN = 'notifications-commit';
/** Beyond this many recipients the event names only the tenant (NOTIFY payloads stay small). */
const MAX_IDS_IN_EVENT = 300;

/** Who is told of each kind: users of the tenant whose roles read this subject (never partners). */
export const RECIPIENT_SUBJECT: Record<NotificationKind, Subject> = {
  handoff_requested: 'Inbox',
  contact_left: 'Inbox',
  // Agents read leads without managing bots: the /leads page is theirs too.
  lead_created: 'Leads',
  training_finished: BOTS_SUBJECT,
  training_failed: BOTS_SUBJECT,
  sync_failed: BOTS_SUBJECT,
  payment_failed: 'Subscriptions',
  limit_reached: 'Subscriptions',
  // Answering it is a Q&A pair: the bots' managers.
  question_repeated: BOTS_SUBJECT,
  // Those who may fix the model (LLM settings need the Create Bot feature).
  model_failed: BOTS_SUBJECT,
};

export type NewNotification = {
  tenantId: number;
  kind: NotificationKind;
  title: string;
  body?: string;
  /** A console path: /inbox?conversation=1, /bot/2, /subscriptions. */
  link?: string | null;
  /** Names the effect (for example `lead:42`): the same key never notifies a user twice. */
  dedupeKey: string;
  /** About this bot's conversation: teammates restricted to other bots are not told. */
  botId?: number;
};

/**
 * Stores a notification for every recipient of its kind, in the caller's transaction when given
 * (so it exists only if its cause does), and tells their browsers once that commits. Returns the
 * users newly notified (none when this effect was already notified).
 */
export async function notify(tx: DbOrTx, input: NewNotification): Promise<number[]> {
  const subject = RECIPIENT_SUBJECT[input.kind];
  const rows = await queryRows<{ user_id: number }>(
    tx,
    sql`INSERT INTO notifications (tenant_id, user_id, kind, title, body, link, dedupe_key)
        SELECT ${input.tenantId}, u.id, ${input.kind}, ${input.title}, ${input.body ?? ''},
               ${input.link ?? null}, ${input.dedupeKey}
          FROM users u
         WHERE u.tenant_id = ${input.tenantId}
           AND u.user_type <> 'partner'
           AND EXISTS (
             SELECT 1 FROM user_roles ur
               JOIN role_permissions rp ON rp.role_id = ur.role_id AND rp.can_read
               JOIN features f ON f.id = rp.feature_id AND NOT f.is_archived
              WHERE ur.user_id = u.id AND ur.tenant_id = u.tenant_id AND f.name = ${subject})
           ${input.botId === undefined ? sql`` : sql`AND ${worksWithBotSql(sql`u.id`, sql`${input.botId}::int`)}`}
        ON CONFLICT (user_id, dedupe_key) DO NOTHING
        RETURNING user_id`,
  );
  const userIds = rows.map((row) => row.user_id);
  if (userIds.length > 0) await announce(tx, { tenantId: input.tenantId, userIds });
  return userIds;
}

/** The NOTIFY goes out with the caller's commit (PostgreSQL holds it until then). */
async function announce(tx: DbOrTx, event: NotificationCreated): Promise<void> {
  const payload: NotificationCreated = {
    tenantId: event.tenantId,
    userIds: event.userIds && event.userIds.length <= MAX_IDS_IN_EVENT ? event.userIds : null,
  };
  const message = JSON.stringify({ topic: NOTIFICATION_CREATED, origin: COMMIT_ORIGIN, payload });
  await tx.execute(sql`SELECT pg_notify(${EVENTS_CHANNEL}, ${message})`);
}

/**
 * Calls `listener` for each notification stored for this user (any process). The help-desk socket
 * turns it into the frame that makes the browser fetch the count.
 */
export function listenForUser(
  events: EventBus,
  tenantId: number,
  userId: number,
  listener: () => void,
): () => void {
  return events.subscribe<NotificationCreated>(NOTIFICATION_CREATED, (event) => {
    if (event.tenantId !== tenantId) return;
    if (event.userIds === null || event.userIds.includes(userId)) listener();
  });
}

type Owner = { tenantId: number; userId: number };

/** The caller's own notifications: the bell's count, the list, read and seen. */
export class NotificationsService {
  constructor(private readonly db: Db) {}

  /** Not yet seen: what the bell shows (reset when it is opened). */
  async unseenCount(owner: Owner): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(notifications)
      .where(and(eq(notifications.userId, owner.userId), isNull(notifications.seenAt)));
    return row?.n ?? 0;
  }

  async list(
    owner: Owner,
    options: { limit?: number; before?: number; unreadOnly?: boolean },
  ): Promise<NotificationList> {
    const limit = options.limit ?? NOTIFICATION_LIMITS.pageSize;
    const rows = await this.db
      .select()
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, owner.userId),
          eq(notifications.tenantId, owner.tenantId),
          options.before === undefined ? undefined : olderThan(owner.userId, options.before),
          options.unreadOnly ? isNull(notifications.readAt) : undefined,
        ),
      )
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(limit);
    const [counts] = await this.db
      .select({
        unread: sql<number>`count(*) filter (where ${notifications.readAt} is null)::int`,
        unseen: sql<number>`count(*) filter (where ${notifications.seenAt} is null)::int`,
      })
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, owner.userId),
          sql`(${notifications.readAt} is null or ${notifications.seenAt} is null)`,
        ),
      );
    return {
      notifications: rows.map(toNotification),
      unread: counts?.unread ?? 0,
      count: counts?.unseen ?? 0,
    };
  }

  /** Opening the bell: the count goes to 0; the list keeps what is unread. */
  async markSeen(owner: Owner): Promise<void> {
    await this.db
      .update(notifications)
      .set({ seenAt: sql`now()` })
      .where(and(eq(notifications.userId, owner.userId), isNull(notifications.seenAt)));
  }

  /** Marks one read (and seen); false when it is not the caller's. */
  async markRead(owner: Owner, id: number): Promise<boolean> {
    const updated = await this.db
      .update(notifications)
      .set({
        readAt: sql`coalesce(${notifications.readAt}, now())`,
        seenAt: sql`coalesce(${notifications.seenAt}, now())`,
      })
      .where(
        and(
          eq(notifications.id, id),
          eq(notifications.userId, owner.userId),
          eq(notifications.tenantId, owner.tenantId),
        ),
      )
      .returning({ id: notifications.id });
    return updated.length > 0;
  }

  async markAllRead(owner: Owner): Promise<void> {
    await this.db
      .update(notifications)
      .set({ readAt: sql`now()`, seenAt: sql`coalesce(${notifications.seenAt}, now())` })
      .where(and(eq(notifications.userId, owner.userId), isNull(notifications.readAt)));
  }
}

/**
 * The rows after `before` in the list's order (created_at, then id, both descending). Ids alone would
 * skip rows: created_at is its transaction's start, so a notification stored by a longer transaction
 * can have a larger id yet an older time. An id that is not the caller's pages from nothing.
 */
function olderThan(userId: number, before: number) {
  return sql`(${notifications.createdAt}, ${notifications.id}) < (
    SELECT n.created_at, n.id FROM notifications n WHERE n.id = ${before} AND n.user_id = ${userId})`;
}

function toNotification(row: typeof notifications.$inferSelect): Notification {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    link: row.link,
    read: row.readAt !== null,
    created_at: row.createdAt.toISOString(),
  };
}

/** A training run of a source ended: `what` names it ("Q&A of Support bot", "3 files"). */
export function notifyTraining(
  tx: DbOrTx,
  tenantId: number,
  run: { failed: boolean; what: string; link: string; key: string; detail?: string },
): Promise<number[]> {
  return notify(tx, {
    tenantId,
    kind: run.failed ? 'training_failed' : 'training_finished',
    title: run.failed ? `Training failed: ${run.what}` : `Training finished: ${run.what}`,
    body: run.detail ?? '',
    link: run.link,
    dedupeKey: `training:${run.key}`,
  });
}

/** A sync of a source (a website crawl, a Notion workspace, a store) failed for good. */
export function notifySyncFailed(
  tx: DbOrTx,
  tenantId: number,
  sync: { what: string; link: string; key: string; detail?: string },
): Promise<number[]> {
  return notify(tx, {
    tenantId,
    kind: 'sync_failed',
    title: `Sync failed: ${sync.what}`,
    body: sync.detail ?? '',
    link: sync.link,
    dedupeKey: `sync:${sync.key}`,
  });
}

/**
 * Wraps a sync job's handler: when its last attempt fails (it throws, or `failed` says its result
 * is a failure), the bell says so once (the job's id is the key). A run that lost its lease says
 * nothing: another worker carries on.
 */
export function notifyingSyncFailure<T, R>(
  db: Db,
  maxAttempts: number,
  describe: (job: JobContext<T>) => { what: string; link: string },
  handler: (job: JobContext<T>) => Promise<R>,
  failed: (result: R) => boolean = () => false,
): (job: JobContext<T>) => Promise<R> {
  const tell = (job: JobContext<T>) =>
    job.tenantId === null
      ? Promise.resolve([])
      : notifySyncFailed(db, job.tenantId, { ...describe(job), key: `job:${job.id}` });
  return async (job) => {
    let result: R;
    try {
      result = await handler(job);
    } catch (error) {
      if (job.attempt >= maxAttempts && !job.signal.aborted) await tell(job);
      throw error;
    }
    if (failed(result)) await tell(job);
    return result;
  };
}
