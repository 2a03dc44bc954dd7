import {
  type GlobalSyncStatus,
  pluralOf,
  type Store,
  type StoreItem,
  type StoreItemList,
  type StoreKind,
  type StorePlatform,
} from '@parley/contracts';
import { and, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/database.js';
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

/** A page of a store's records of one kind, newest first, with the totals the spec's lists show. */
export async function listRecords(
  db: DbOrTx,
  tenantId: number,
  storeId: number,
  kind: StoreKind,
  filter: RecordFilter,
): Promise<StoreItemList> {
  const scope = [
    eq(storeRecords.tenantId, tenantId),
    eq(storeRecords.storeId, storeId),
    eq(storeRecords.kind, kind),
  ];
  const filters = [...scope, ...(filter.where ?? [])];
  if (filter.search) {
    const pattern = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    filters.push(or(ilike(storeRecords.title, pattern), ilike(storeRecords.lookupKey, pattern))!);
  }
  if (filter.status) filters.push(eq(storeRecords.status, filter.status));
  const [rows, [all], [filtered]] = await Promise.all([
    db
      .select()
      .from(storeRecords)
      .where(and(...filters))
      .orderBy(sql`${storeRecords.id} DESC`)
      .limit(filter.limit)
      .offset((filter.page - 1) * filter.limit),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(storeRecords)
      .where(and(...scope)),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(storeRecords)
      .where(and(...filters)),
  ]);
  return {
    items: rows.map(toItem),
    total: all?.n ?? 0,
    total_filtered: filtered?.n ?? 0,
    page: filter.page,
    limit: filter.limit,
  };
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
