import {
  type GlobalSyncStatus,
  pluralOf,
  type Store,
  type StoreItem,
  type StoreKind,
  type StorePlatform,
} from '@parley/contracts';
import { and, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryPrepared } from '../../core/db/database.js';
import { isoTime } from '../../core/db/json-sql.js';
import { jobs } from '../../core/db/schema.js';
import { pendingJob } from '../../core/jobs/queue.js';
import { bots } from '../bots/bots.schema.js';
import { storeRecords, stores } from './stores.schema.js';

export type StoreRow = typeof stores.$inferSelect;
export type RecordRow = typeof storeRecords.$inferSelect;

export async function findStore(
  db: DbOrTx,
  tenantId: number,
  platform: StorePlatform,
  storeId: number,
): Promise<StoreRow | null> {
  const [row] = await db
    .select()
    .from(stores)
    .where(and(eq(stores.tenantId, tenantId), eq(stores.platform, platform), eq(stores.id, storeId)));
  return row ?? null;
}

/** The store's row, locked for the caller's transaction, with the sync job still pending (if any). */
export async function lockStore(db: DbOrTx, tenantId: number, storeId: number) {
  const [row] = await db
    .select({ store: stores, runningSync: jobs.id })
    .from(stores)
    .leftJoin(jobs, pendingJob(stores.syncTaskId))
    .where(and(eq(stores.tenantId, tenantId), eq(stores.id, storeId)))
    .for('update', { of: stores });
  return row ?? null;
}

export const idleSync = (storeId: number): GlobalSyncStatus => ({
  storeId,
  overallStatus: 'idle',
  overallProgress: 0,
  startTime: null,
  endTime: null,
  contentTypes: [],
  totalSynced: 0,
  errors: [],
  warnings: [],
  task_id: null,
});

/** The tenant's stores of a platform with the bots that answer from them and their record counts. */
export async function listStores(
  db: DbOrTx,
  tenantId: number,
  platform: StorePlatform,
  ids?: number[],
): Promise<Store[]> {
  const filters = [eq(stores.tenantId, tenantId), eq(stores.platform, platform)];
  if (ids) filters.push(inArray(stores.id, ids));
  const rows = await db
    .select()
    .from(stores)
    .where(and(...filters))
    .orderBy(stores.id);
  if (rows.length === 0) return [];
  const storeIds = rows.map((r) => r.id);
  const column = platform === 'shopify' ? bots.shopifyStoreId : bots.woocommerceStoreId;
  const linked = await db
    .select({ botId: bots.id, storeId: column })
    .from(bots)
    .where(and(eq(bots.tenantId, tenantId), inArray(column, storeIds)));
  const counts = await db
    .select({ storeId: storeRecords.storeId, kind: storeRecords.kind, count: sql<number>`count(*)::int` })
    .from(storeRecords)
    .where(and(eq(storeRecords.tenantId, tenantId), inArray(storeRecords.storeId, storeIds)))
    .groupBy(storeRecords.storeId, storeRecords.kind);
  return rows.map((row) => toStore(row, linked, counts));
}

function toStore(
  row: StoreRow,
  linked: { botId: number; storeId: number | null }[],
  counts: { storeId: number; kind: StoreKind; count: number }[],
): Store {
  return {
    id: row.id,
    platform: row.platform,
    name: row.name,
    domain: row.domain,
    status: row.status,
    currency: row.currency,
    connected_at: row.connectedAt.toISOString(),
    last_synced_at: row.lastSyncedAt?.toISOString() ?? null,
    bot_ids: linked.filter((l) => l.storeId === row.id).map((l) => l.botId),
    counts: Object.fromEntries(
      counts.filter((c) => c.storeId === row.id).map((c) => [pluralOf(row.platform, c.kind), c.count]),
    ),
    sync: row.syncStatus ?? idleSync(row.id),
  };
}

export function toItem(row: RecordRow): StoreItem {
  return {
    id: row.id,
    store_id: row.storeId,
    kind: row.kind,
    external_id: row.externalId,
    title: row.title,
    url: row.url,
    status: row.status,
    updated_at: row.remoteUpdatedAt?.toISOString() ?? null,
    synced_at: row.syncedAt.toISOString(),
    training_status: row.trainingStatus ?? null,
    trained: row.trainingStatus === 'completed',
    data: row.data,
  };
}

export type RecordFilter = {
  search?: string;
  status?: string;
  /** Extra conditions on the record's data (WooCommerce's featured, an order's customer). */
  where?: SQL[];
  page: number;
  limit: number;
};

/** A record `r` as JSON, as toItem maps it. */
const ITEM_JSON = `json_build_object(
    'id', r.id, 'store_id', r.store_id, 'kind', r.kind, 'external_id', r.external_id, 'title', r.title,
    'url', r.url, 'status', r.status, 'updated_at', ${isoTime('r.remote_updated_at')},
    'synced_at', ${isoTime('r.synced_at')}, 'training_status', r.training_status,
    'trained', coalesce(r.training_status = 'completed', false), 'data', r.data)`;

/**
 * A page of a store's records of one kind, newest first, with the totals the spec's lists show, as
 * the reply's JSON text, in one statement that also checks the store is the tenant's on that
 * platform: null when it is not.
 */
export async function listRecords(
  db: DbOrTx,
  store: { tenantId: number; platform: StorePlatform; storeId: number },
  kind: StoreKind,
  filter: RecordFilter,
): Promise<string | null> {
  const scope = [
    eq(storeRecords.tenantId, store.tenantId),
    eq(storeRecords.storeId, store.storeId),
    eq(storeRecords.kind, kind),
  ];
  const filters = [...scope, ...(filter.where ?? [])];
  if (filter.search) {
    const pattern = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    filters.push(or(ilike(storeRecords.title, pattern), ilike(storeRecords.lookupKey, pattern))!);
  }
  if (filter.status) filters.push(eq(storeRecords.status, filter.status));
  const offset = (filter.page - 1) * filter.limit;
  const [row] = await queryPrepared<{ body: string }>(
    db,
    sql`select json_build_object(
        'items', coalesce((select json_agg(${sql.raw(ITEM_JSON)} order by r.id desc)
          from (select * from ${storeRecords} where ${and(...filters)}
                order by ${storeRecords.id} desc limit ${filter.limit} offset ${offset}) r), '[]'::json),
        'total', (select count(*) from ${storeRecords} where ${and(...scope)}),
        'total_filtered', (select count(*) from ${storeRecords} where ${and(...filters)}),
        'page', ${filter.page}::int, 'limit', ${filter.limit}::int)::text as body
      from ${stores} where ${stores.tenantId} = ${store.tenantId} and ${stores.platform} = ${store.platform}
        and ${stores.id} = ${store.storeId}`,
  );
  return row?.body ?? null;
}

export async function findRecord(
  db: DbOrTx,
  tenantId: number,
  storeId: number,
  kind: StoreKind,
  by: { id: number } | { externalId: string },
): Promise<RecordRow | null> {
  const key = 'id' in by ? eq(storeRecords.id, by.id) : eq(storeRecords.externalId, by.externalId);
  const [row] = await db
    .select()
    .from(storeRecords)
    .where(
      and(
        eq(storeRecords.tenantId, tenantId),
        eq(storeRecords.storeId, storeId),
        eq(storeRecords.kind, kind),
        key,
      ),
    );
  return row ?? null;
}
