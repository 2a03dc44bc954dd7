import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import {
  isTrainable,
  pluralOf,
  STORE_TEXTS,
  type StoreItemList,
  type StoreKind,
  type StorePlatform,
  type TrainingStatusResponse,
} from '@parley/contracts';
import { and, eq, inArray, isNotNull, lt, ne, or, type SQLWrapper, sql } from 'drizzle-orm';
import { decryptSecret, deriveKey, encryptSecret } from '../../../core/crypto.js';
import type { DbOrTx, Tx } from '../../../core/db/database.js';
import { notFound } from '../../../core/errors.js';
import { jsonReply } from '../../../core/http/serializer.js';
import type { JobContext } from '../../../core/jobs/queue.js';
import type { ModuleDeps } from '../../../core/module.js';
import { entitlementsOf } from '../../billing/billing.services.js';
import { botCacheOf } from '../../bots/bot-cache.js';
import { bots } from '../../bots/bots.schema.js';
import type { Section } from '../../knowledge/chunker.js';
import { charactersOf, prepareDocuments, removeDocument, replaceDocuments } from '../../knowledge/ingest.js';
import { documents } from '../../knowledge/knowledge.schema.js';
import { embedderOf } from '../../knowledge/vectors.js';
import {
  findRecord,
  findStore,
  idleSync,
  listRecords,
  listStores,
  lockStore,
  type RecordFilter,
  type RecordRow,
  type StoreRow,
} from '../stores.queries.js';
import { storeRecords, stores, storeWebhookEvents } from '../stores.schema.js';
import type { RemoteRecord, StoreAdapter, StoreConnection } from './adapter.js';
import { recordHash, recordSections } from './record-text.js';
import { failedSync, finishedSync, startedSync, updateType } from './store-sync.js';
import { shownToShoppers } from './visibility.js';

export const STORE_SYNC_JOB = 'stores.sync';
export const STORE_TRAIN_JOB = 'stores.train';
export type StoreSyncData = { storeId: number; kinds: StoreKind[]; limit: number; force: boolean };
/** `recordIds`: only these (changed by a webhook or a sync); otherwise every record of `kinds`. */
export type StoreTrainData = { storeId: number; kinds: StoreKind[]; retrain: boolean; recordIds?: number[] };
export const STORE_WEBHOOK_JOB = 'stores.webhook';
export type StoreWebhookData = { storeId: number; topic: string; payload: unknown };

/** Records written per transaction: one commit per page, not per record. */
const WRITE_BATCH = 100;
/**
 * Records trained per transaction. Training writes a batch in a few statements whatever its size,
 * so a bigger batch costs fewer round trips per record, but PGlite's one connection is held for the
 * whole transaction (tens of milliseconds at this size, bench/stores), and requests wait meanwhile.
 */
const TRAIN_BATCH = 200;

export type NewStore = {
  tenantId: number;
  userId: number | null;
  platform: StorePlatform;
  domain: string;
  name: string;
  storefrontUrl: string;
  currency: string | null;
  credentials: Record<string, string>;
  webhookSecret?: string;
};

/**
 * What both store platforms share: stores and their sealed credentials, synced records, sync runs
 * with the spec's global status, training of records into the store's knowledge collection, webhook
 * de-duplication and changes, and the order check. Platforms plug in through `StoreAdapter`.
 */
export class StoreCore {
  private readonly key: Buffer;

  constructor(
    private readonly deps: ModuleDeps,
    private readonly adapters: Record<StorePlatform, StoreAdapter>,
  ) {
    this.key = deriveKey(deps.config.appSecret, 'stores');
  }

  adapter(platform: StorePlatform): StoreAdapter {
    return this.adapters[platform];
  }

  // ------------------------------------------------ stores ------------------------------------------------

  /** Saves a connection; connecting the same store again renews its credentials and reconnects it. */
  async saveStore(input: NewStore, tx: DbOrTx = this.deps.db): Promise<StoreRow> {
    const values = {
      tenantId: input.tenantId,
      userId: input.userId,
      platform: input.platform,
      domain: input.domain,
      name: input.name,
      storefrontUrl: input.storefrontUrl,
      currency: input.currency,
      credentialsSealed: encryptSecret(this.key, JSON.stringify(input.credentials)),
      webhookSecretSealed: input.webhookSecret ? encryptSecret(this.key, input.webhookSecret) : null,
      status: 'connected' as const,
    };
    const [row] = await tx
      .insert(stores)
      .values(values)
      .onConflictDoUpdate({
        target: [stores.tenantId, stores.platform, stores.domain],
        set: { ...values, connectedAt: sql`now()` },
      })
      .returning();
    return row!;
  }

  connection(row: StoreRow): StoreConnection {
    return {
      storeId: row.id,
      tenantId: row.tenantId,
      domain: row.domain,
      credentials: JSON.parse(decryptSecret(this.key, row.credentialsSealed)) as Record<string, string>,
    };
  }

  webhookSecret(row: StoreRow): string | null {
    return row.webhookSecretSealed ? decryptSecret(this.key, row.webhookSecretSealed) : null;
  }

  list(tenantId: number, platform: StorePlatform) {
    return listStores(this.deps.db, tenantId, platform);
  }

  async describe(tenantId: number, platform: StorePlatform, storeId: number) {
    const [store] = await listStores(this.deps.db, tenantId, platform, [storeId]);
    if (!store) throw notFound(STORE_TEXTS.storeNotFound);
    return store;
  }

  async own(tenantId: number, platform: StorePlatform, storeId: number): Promise<StoreRow> {
    const row = await findStore(this.deps.db, tenantId, platform, storeId);
    if (!row) throw notFound(STORE_TEXTS.storeNotFound);
    return row;
  }

  /** Stores of any tenant connected to a platform's shop (webhooks name the shop, not the tenant). */
  storesAt(platform: StorePlatform, domain: string): Promise<StoreRow[]> {
    return this.deps.db
      .select()
      .from(stores)
      .where(and(eq(stores.platform, platform), eq(stores.domain, domain)));
  }

  /** Removes the store, its records and their knowledge; bots lose the link (foreign key). */
  async deleteStore(tenantId: number, platform: StorePlatform, storeId: number): Promise<void> {
    await this.own(tenantId, platform, storeId);
    await this.deps.db.transaction(async (tx) => {
      await removeStoreDocuments(tx, tenantId, { storeId });
      await tx.delete(stores).where(and(eq(stores.tenantId, tenantId), eq(stores.id, storeId)));
    });
    // Bots that answered from it lost their store id (the foreign key): their cached rows go too.
    await botCacheOf(this.deps).tenantChanged(tenantId);
  }

  /**
   * The store's uninstall: kept with its records, but nothing syncs until it is connected again, so
   * its bots stop answering from it (prices and stock would only grow stale): its knowledge goes and
   * its records are untrained. Connecting it again and training brings the answers back.
   */
  async markDisconnected(store: StoreRow): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      await tx.update(stores).set({ status: 'disconnected' }).where(eq(stores.id, store.id));
      await removeStoreDocuments(tx, store.tenantId, { storeId: store.id });
      await tx
        .update(storeRecords)
        .set({ trainingStatus: null, trainedHash: null })
        .where(eq(storeRecords.storeId, store.id));
    });
  }

  /**
   * Discounts and coupons whose end has passed leave every bot's knowledge: the platform sends no
   * webhook when a date passes (training also skips them, visibility.ts). Dates that are not ISO
   * times are left alone rather than failing the sweep.
   */
  async forgetExpiredOffers(now: Date): Promise<void> {
    const ended = this.deps.db
      .select({ id: storeRecords.id })
      .from(storeRecords)
      .where(
        and(
          inArray(storeRecords.kind, ['discount', 'coupon']),
          sql`CASE WHEN ${storeRecords.data}->>'ends_at' ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T'
            THEN (${storeRecords.data}->>'ends_at')::timestamptz <= ${now.toISOString()}::timestamptz
            ELSE false END`,
        ),
      );
    await this.deps.db
      .delete(documents)
      .where(and(eq(documents.sourceType, 'store'), inArray(documents.sourceId, ended)));
  }

  /** Connects a bot to the store (the bot's store id for this platform); the bot then answers from it. */
  async linkBot(tenantId: number, platform: StorePlatform, storeId: number, botId: number, unlink = false) {
    await this.own(tenantId, platform, storeId);
    const column = platform === 'shopify' ? 'shopifyStoreId' : 'woocommerceStoreId';
    const [bot] = await this.deps.db
      .select({ id: bots.id, storeId: bots[column] })
      .from(bots)
      .where(and(eq(bots.tenantId, tenantId), eq(bots.id, botId)));
    if (!bot) throw notFound(STORE_TEXTS.botNotFound);
    if (unlink && bot.storeId !== storeId) return;
    await this.deps.db.transaction(async (tx) => {
      await tx
        .update(bots)
        .set({ [column]: unlink ? null : storeId })
        .where(and(eq(bots.tenantId, tenantId), eq(bots.id, botId)));
      // The store's trained records must fit the bot's trained characters.
      if (!unlink) await entitlementsOf(this.deps).requireBotCharacters(tx, tenantId, botId);
    });
    await botCacheOf(this.deps).changed(botId);
  }

  // ------------------------------------------------ records ------------------------------------------------

  async requireBot(tenantId: number, botId: number): Promise<void> {
    const [bot] = await this.deps.db
      .select({ id: bots.id })
      .from(bots)
      .where(and(eq(bots.tenantId, tenantId), eq(bots.id, botId)));
    if (!bot) throw notFound(STORE_TEXTS.botNotFound);
  }

  /** A record by Parley's id, wherever it is stored, of the platform's stores of the tenant. */
  async recordById(
    tenantId: number,
    platform: StorePlatform,
    kind: StoreKind,
    id: number,
  ): Promise<RecordRow> {
    const [row] = await this.deps.db
      .select({ record: storeRecords })
      .from(storeRecords)
      .innerJoin(stores, eq(stores.id, storeRecords.storeId))
      .where(
        and(
          eq(storeRecords.tenantId, tenantId),
          eq(storeRecords.id, id),
          eq(storeRecords.kind, kind),
          eq(stores.platform, platform),
        ),
      );
    if (!row) throw notFound(kind === 'order' ? STORE_TEXTS.orderNotFound : STORE_TEXTS.itemNotFound);
    return row.record;
  }

  /**
   * Reads up to `limit` records of a kind now, for a list asked with force_refresh: stored as a sync
   * stores them (retrained if changed), without removing what the page did not reach.
   */
  async refreshNow(store: StoreRow, kind: StoreKind, limit: number): Promise<void> {
    if (store.status !== 'connected') return;
    const trainedKind = isTrainable(kind) && (await this.kindIsTrained(store.id, kind));
    const changed: number[] = [];
    const pages = this.adapters[store.platform].fetch(this.connection(store), kind, {
      limit,
      signal: AbortSignal.timeout(60_000),
    });
    for await (const page of pages) changed.push(...(await this.upsertRecords(store, page, { trainedKind })));
    if (changed.length > 0) await this.enqueueRetrain(store.tenantId, store.id, changed);
  }

  async records(
    tenantId: number,
    platform: StorePlatform,
    storeId: number,
    kind: StoreKind,
    filter: RecordFilter,
  ): Promise<StoreItemList> {
    const page = await listRecords(this.deps.db, { tenantId, platform, storeId }, kind, filter);
    if (page === null) throw notFound(STORE_TEXTS.storeNotFound);
    // The reply's JSON as the database built it: one statement, no mapping per record.
    return jsonReply(page);
  }

  async record(
    tenantId: number,
    storeId: number,
    kind: StoreKind,
    by: { id: number } | { externalId: string },
  ): Promise<RecordRow> {
    const row = await findRecord(this.deps.db, tenantId, storeId, kind, by);
    if (!row) throw notFound(kind === 'order' ? STORE_TEXTS.orderNotFound : STORE_TEXTS.itemNotFound);
    return row;
  }

  /** Forgets one record and its knowledge (a later sync brings it back if the store still has it). */
  async deleteRecord(
    tenantId: number,
    storeId: number,
    kind: StoreKind,
    by: { id: number } | { externalId: string },
  ) {
    const row = await this.record(tenantId, storeId, kind, by);
    await this.deps.db.transaction(async (tx) => {
      await removeDocument(tx, tenantId, 'store', row.id);
      await tx.delete(storeRecords).where(eq(storeRecords.id, row.id));
    });
  }

  // ------------------------------------------------- sync -------------------------------------------------

  /**
   * Queues a sync of `kinds` (in the platform's order) and sets the global status to syncing with
   * every type pending, in one transaction. A sync already queued or running answers instead.
   */
  async startSync(
    tenantId: number,
    platform: StorePlatform,
    storeId: number,
    kinds: StoreKind[],
    limit: number,
    force: boolean,
  ): Promise<string> {
    return this.deps.db.transaction(async (tx) => {
      const locked = await lockStore(tx, tenantId, storeId);
      if (!locked || locked.store.platform !== platform) throw notFound(STORE_TEXTS.storeNotFound);
      if (locked.runningSync) return locked.runningSync;
      if (locked.store.status !== 'connected') throw notFound(STORE_TEXTS.storeDisconnected);
      const ordered = this.adapters[platform].kinds.filter((k) => kinds.includes(k));
      const taskId = await this.deps.jobs.enqueue<StoreSyncData>(
        STORE_SYNC_JOB,
        { storeId, kinds: ordered, limit, force },
        { tenantId, tx, maxAttempts: 1 },
      );
      const status = startedSync(storeId, platform, ordered, taskId, this.deps.clock.now());
      await tx.update(stores).set({ syncTaskId: taskId, syncStatus: status }).where(eq(stores.id, storeId));
      return taskId;
    });
  }

  /** The sync job: each type in turn; a failing type is recorded and the next one runs. */
  async runSync(
    job: Pick<JobContext<unknown>, 'id' | 'progress' | 'signal'>,
    tenantId: number,
    data: StoreSyncData,
  ): Promise<unknown> {
    const [row] = await this.deps.db
      .select()
      .from(stores)
      .where(and(eq(stores.tenantId, tenantId), eq(stores.id, data.storeId)));
    if (!row) return { skipped: true };
    const adapter = this.adapters[row.platform];
    let status =
      row.syncStatus ?? startedSync(row.id, row.platform, data.kinds, job.id, this.deps.clock.now());
    const toTrain: number[] = [];
    try {
      const connection = this.connection(row);
      for (const [index, kind] of data.kinds.entries()) {
        const plural = pluralOf(row.platform, kind);
        status = updateType(status, plural, { status: 'syncing' });
        await this.saveStatus(row.id, status);
        try {
          const result = await this.syncKind(connection, row, adapter, kind, data, async (synced, total) => {
            status = updateType(status, plural, {
              syncedCount: synced,
              totalCount: total,
              progress: total > 0 ? Math.min(99, Math.round((synced / total) * 100)) : 0,
            });
            await this.saveStatus(row.id, status);
            await job.progress(
              index * 100 + (total > 0 ? Math.round((synced / total) * 100) : 0),
              data.kinds.length * 100,
            );
          });
          toTrain.push(...result.changed);
          status = updateType(status, plural, {
            status: 'completed',
            progress: 100,
            syncedCount: result.synced,
            totalCount: Math.max(result.total, result.synced),
          });
          if (result.total > result.synced) {
            status = {
              ...status,
              warnings: [
                ...status.warnings,
                `${plural}: ${result.synced} of ${result.total} synced (limit ${data.limit})`,
              ],
            };
          }
        } catch (error) {
          if (job.signal.aborted) throw error;
          this.deps.log.warn({ err: error, storeId: row.id, kind }, 'store sync of a type failed');
          status = updateType(status, plural, { status: 'error', error: messageOf(error) });
        }
        await this.saveStatus(row.id, status);
      }
      status = finishedSync(status, this.deps.clock.now());
    } catch (error) {
      status = failedSync(status, STORE_TEXTS.globalSyncFailed, this.deps.clock.now());
      await this.saveStatus(row.id, status, true);
      throw error;
    }
    await this.saveStatus(row.id, status, true);
    if (toTrain.length > 0) await this.enqueueRetrain(tenantId, row.id, toTrain);
    return { status: status.overallStatus, synced: status.totalSynced, retrained: toTrain.length };
  }

  private async saveStatus(storeId: number, status: StoreRow['syncStatus'], finished = false) {
    await this.deps.db
      .update(stores)
      .set(finished ? { syncStatus: status, lastSyncedAt: this.deps.clock.now() } : { syncStatus: status })
      .where(eq(stores.id, storeId));
  }

  /**
   * Fetches up to `limit` records of a kind and stores them a page per transaction; a record whose
   * text changed (or every one, with `force`) and that is trained, or new in a trained kind, is
   * marked for retraining. When the whole kind was read (fewer than the limit), records the store no
   * longer has are removed with their knowledge. Answers how many were read and which to retrain.
   */
  private async syncKind(
    connection: StoreConnection,
    store: StoreRow,
    adapter: StoreAdapter,
    kind: StoreKind,
    data: StoreSyncData,
    onProgress: (synced: number, total: number) => Promise<void>,
  ) {
    const startedAt = new Date();
    const trainedKind = isTrainable(kind) && (await this.kindIsTrained(store.id, kind));
    let total = 0;
    let synced = 0;
    const changed: number[] = [];
    const controller = new AbortController();
    const pages = adapter.fetch(connection, kind, {
      limit: data.limit,
      signal: controller.signal,
      onTotal: (n) => {
        total = n;
      },
    });
    for await (const page of pages) {
      for (let i = 0; i < page.length; i += WRITE_BATCH) {
        const batch = page.slice(i, i + WRITE_BATCH);
        changed.push(...(await this.upsertRecords(store, batch, { trainedKind, force: data.force })));
      }
      synced += page.length;
      await onProgress(synced, Math.max(total, synced));
    }
    if (synced < data.limit) await this.removeVanished(store, kind, startedAt);
    return { synced, total, changed };
  }

  private async kindIsTrained(storeId: number, kind: StoreKind): Promise<boolean> {
    const [row] = await this.deps.db
      .select({ id: storeRecords.id })
      .from(storeRecords)
      .where(
        and(
          eq(storeRecords.storeId, storeId),
          eq(storeRecords.kind, kind),
          isNotNull(storeRecords.trainingStatus),
        ),
      )
      .limit(1);
    return Boolean(row);
  }

  /**
   * Stores fetched records (one statement); answers the ids to retrain: trained records whose text
   * changed, and new records of a kind that is trained.
   */
  async upsertRecords(
    store: StoreRow,
    records: RemoteRecord[],
    options: { trainedKind: boolean; force?: boolean },
    tx: DbOrTx = this.deps.db,
  ): Promise<number[]> {
    if (records.length === 0) return [];
    const now = new Date();
    const rows = dedupe(records).map((r) => ({
      tenantId: store.tenantId,
      storeId: store.id,
      kind: r.kind,
      externalId: r.externalId,
      title: r.title,
      url: r.url,
      status: r.status,
      lookupKey: r.lookupKey,
      data: r.data as Record<string, unknown>,
      contentHash: recordHash({
        kind: r.kind,
        title: r.title,
        url: r.url,
        data: r.data as Record<string, unknown>,
        status: r.status,
      }),
      remoteUpdatedAt: r.updatedAt ? new Date(r.updatedAt) : null,
      syncedAt: now,
      trainingStatus: options.trainedKind && isTrainable(r.kind) ? ('training' as const) : null,
    }));
    const written = await tx
      .insert(storeRecords)
      .values(rows)
      .onConflictDoUpdate({
        target: [storeRecords.storeId, storeRecords.kind, storeRecords.externalId],
        set: {
          title: sql`excluded.title`,
          url: sql`excluded.url`,
          status: sql`excluded.status`,
          lookupKey: sql`excluded.lookup_key`,
          data: sql`excluded.data`,
          contentHash: sql`excluded.content_hash`,
          remoteUpdatedAt: sql`excluded.remote_updated_at`,
          syncedAt: sql`excluded.synced_at`,
          // A trained record whose text changed goes back to training; others keep their state.
          trainingStatus: options.force
            ? sql`CASE WHEN ${storeRecords.trainingStatus} IS NULL THEN NULL ELSE 'training' END`
            : sql`CASE WHEN ${storeRecords.trainingStatus} IS NOT NULL AND ${storeRecords.trainedHash} IS DISTINCT FROM excluded.content_hash THEN 'training' ELSE ${storeRecords.trainingStatus} END`,
        },
      })
      .returning({ id: storeRecords.id, trainingStatus: storeRecords.trainingStatus });
    return written.filter((w) => w.trainingStatus === 'training').map((w) => w.id);
  }

  private async removeVanished(store: StoreRow, kind: StoreKind, before: Date) {
    await this.deps.db.transaction(async (tx) => {
      const gone = await tx
        .delete(storeRecords)
        .where(
          and(
            eq(storeRecords.storeId, store.id),
            eq(storeRecords.kind, kind),
            lt(storeRecords.syncedAt, before),
          ),
        )
        .returning({ id: storeRecords.id });
      if (gone.length === 0) return;
      await removeStoreDocuments(tx, store.tenantId, { records: gone.map((g) => g.id) });
    });
  }

  // ----------------------------------------------- training -----------------------------------------------

  /**
   * Queues training of `kinds`: their records are marked training at once (the lists show it), in
   * the transaction that queues the job. Without `retrain`, records already trained with their
   * current text are left as they are.
   */
  async startTraining(
    tenantId: number,
    platform: StorePlatform,
    storeId: number,
    kinds: StoreKind[],
    retrain: boolean,
  ): Promise<string> {
    const trainable = kinds.filter(isTrainable);
    return this.deps.db.transaction(async (tx) => {
      const locked = await lockStore(tx, tenantId, storeId);
      if (!locked || locked.store.platform !== platform) throw notFound(STORE_TEXTS.storeNotFound);
      await this.markTraining(tx, storeId, trainable, retrain);
      const taskId = await this.deps.jobs.enqueue<StoreTrainData>(
        STORE_TRAIN_JOB,
        { storeId, kinds: trainable, retrain },
        { tenantId, tx, maxAttempts: 3 },
      );
      await tx.update(stores).set({ trainTaskId: taskId }).where(eq(stores.id, storeId));
      return taskId;
    });
  }

  private async markTraining(tx: Tx, storeId: number, kinds: StoreKind[], retrain: boolean) {
    if (kinds.length === 0) return;
    const stale = retrain
      ? undefined
      : or(
          ne(storeRecords.trainingStatus, 'completed'),
          sql`${storeRecords.trainingStatus} IS NULL`,
          sql`${storeRecords.trainedHash} IS DISTINCT FROM ${storeRecords.contentHash}`,
        );
    await tx
      .update(storeRecords)
      .set({ trainingStatus: 'training' })
      .where(and(eq(storeRecords.storeId, storeId), inArray(storeRecords.kind, kinds), stale));
  }

  /** Retrains what a sync or a webhook changed, in the background. */
  async enqueueRetrain(tenantId: number, storeId: number, recordIds: number[], tx: DbOrTx = this.deps.db) {
    await this.deps.jobs.enqueue<StoreTrainData>(
      STORE_TRAIN_JOB,
      { storeId, kinds: [], retrain: false, recordIds },
      { tenantId, tx, maxAttempts: 3 },
    );
  }

  /**
   * The training job: every record marked training (of `kinds`, or the given ids) becomes its
   * document in the store's collection, a batch per transaction, then completed. If the job fails
   * for good, its records are marked failed.
   */
  async runTraining(
    job: Pick<JobContext<unknown>, 'progress' | 'signal' | 'attempt'>,
    tenantId: number,
    data: StoreTrainData,
    finalAttempt: boolean,
  ) {
    const [store] = await this.deps.db
      .select()
      .from(stores)
      .where(and(eq(stores.tenantId, tenantId), eq(stores.id, data.storeId)));
    if (!store) return { skipped: true };
    const scope = data.recordIds
      ? inArray(storeRecords.id, data.recordIds)
      : inArray(storeRecords.kind, data.kinds.length > 0 ? data.kinds : ['product']);
    const where = and(eq(storeRecords.storeId, store.id), eq(storeRecords.trainingStatus, 'training'), scope);
    const [{ total } = { total: 0 }] = await this.deps.db
      .select({ total: sql<number>`count(*)::int` })
      .from(storeRecords)
      .where(where);
    let done = 0;
    try {
      for (;;) {
        if (job.signal.aborted) throw new Error('Training interrupted');
        const batch = await this.deps.db
          .select()
          .from(storeRecords)
          .where(where)
          .orderBy(storeRecords.id)
          .limit(TRAIN_BATCH);
        if (batch.length === 0) break;
        if (!(await this.trainBatch(store, batch))) break;
        done += batch.length;
        await job.progress(done, total);
        // PGlite has one connection: requests waiting on it get their turn between batches.
        await yieldToEventLoop();
      }
    } catch (error) {
      if (finalAttempt)
        await this.deps.db.update(storeRecords).set({ trainingStatus: 'failed' }).where(where);
      throw error;
    }
    return { trained: done };
  }

  /**
   * One batch of records, one transaction: their documents in a few statements
   * (`replaceDocuments`), then their statuses in one. False when the store is no longer connected.
   */
  private async trainBatch(store: StoreRow, batch: RecordRow[]): Promise<boolean> {
    const embedder = embedderOf(this.deps);
    const now = this.deps.clock.now();
    const shown = batch.filter((record) => shownToShoppers(record, now));
    // A draft, unpublished or expired record is trained as nothing: its knowledge goes.
    const hidden = batch.filter((record) => !shown.includes(record)).map((record) => record.id);
    // The records' text is made and chunked before the transaction opens: that CPU need not hold
    // the database.
    const inputs = shown.map((record) => ({
      tenantId: store.tenantId,
      sourceType: 'store' as const,
      sourceId: record.id,
      collectionId: store.id,
      title: record.title,
      url: record.url,
      sections: recordSections(record, store.currency),
    }));
    const prepared = prepareDocuments(inputs);
    return this.deps.db.transaction(async (tx) => {
      // Shared with the uninstall's update: a batch never lands after the store's knowledge went.
      const [live] = await tx
        .select({ status: stores.status })
        .from(stores)
        .where(eq(stores.id, store.id))
        .for('share');
      if (live?.status !== 'connected') return false;
      await this.fitsPlan(tx, store, batch, inputs);
      await replaceDocuments(tx, inputs, embedder, prepared);
      if (hidden.length > 0) await removeStoreDocuments(tx, store.tenantId, { records: hidden });
      await markTrained(tx, batch);
      return true;
    });
  }

  /** The batch must fit the trained characters of the bots answering from the store (it grew since). */
  private async fitsPlan(tx: Tx, store: StoreRow, batch: RecordRow[], inputs: { sections: Section[] }[]) {
    await entitlementsOf(this.deps).requireRoomFor(
      tx,
      store.tenantId,
      { type: 'store', collectionId: store.id },
      batch.map((r) => r.id),
      inputs.reduce((n, input) => n + charactersOf(input.sections), 0),
    );
  }

  /** Forgets the training of a kind: its documents go, its records are untrained. */
  async clearTraining(tenantId: number, platform: StorePlatform, storeId: number, kind: StoreKind) {
    await this.own(tenantId, platform, storeId);
    await this.deps.db.transaction(async (tx) => {
      const ids = tx
        .select({ id: storeRecords.id })
        .from(storeRecords)
        .where(and(eq(storeRecords.storeId, storeId), eq(storeRecords.kind, kind)));
      await removeStoreDocuments(tx, tenantId, { records: ids });
      await tx
        .update(storeRecords)
        .set({ trainingStatus: null, trainedHash: null })
        .where(and(eq(storeRecords.storeId, storeId), eq(storeRecords.kind, kind)));
    });
  }

  /** Per trainable kind: how many records are trained, training and failed; and the global flags. */
  async trainingStatus(
    tenantId: number,
    platform: StorePlatform,
    storeId: number,
  ): Promise<TrainingStatusResponse> {
    const store = await this.own(tenantId, platform, storeId);
    const rows = await this.deps.db
      .select({
        kind: storeRecords.kind,
        total: sql<number>`count(*)::int`,
        trained: sql<number>`count(*) FILTER (WHERE ${storeRecords.trainingStatus} = 'completed')::int`,
        training: sql<number>`count(*) FILTER (WHERE ${storeRecords.trainingStatus} = 'training')::int`,
        failed: sql<number>`count(*) FILTER (WHERE ${storeRecords.trainingStatus} = 'failed')::int`,
      })
      .from(storeRecords)
      .where(and(eq(storeRecords.tenantId, tenantId), eq(storeRecords.storeId, storeId)))
      .groupBy(storeRecords.kind);
    const job = store.trainTaskId ? await this.deps.jobs.get(store.trainTaskId, tenantId) : null;
    const kinds = this.adapters[platform].kinds.filter(isTrainable);
    const contentTypes = kinds.map((kind) => {
      const row = rows.find((r) => r.kind === kind) ?? { total: 0, trained: 0, training: 0, failed: 0 };
      return {
        content_type: pluralOf(platform, kind),
        total: row.total,
        trained: row.trained,
        training: row.training,
        failed: row.failed,
        progress: row.total > 0 ? Math.round((row.trained / row.total) * 1000) / 10 : 0,
      };
    });
    const training = contentTypes.reduce((n, t) => n + t.training, 0);
    const anyTrained = contentTypes.some((t) => t.trained > 0);
    const active = training > 0 || job?.status === 'queued' || job?.status === 'active';
    return {
      store_id: storeId,
      active,
      starting: job?.status === 'queued',
      complete: !active && anyTrained && contentTypes.every((t) => t.failed === 0),
      task_id: active ? (store.trainTaskId ?? null) : null,
      progress: job && active ? job.percentage : anyTrained ? 100 : 0,
      content_types: contentTypes,
    };
  }

  syncStatus(row: StoreRow) {
    return row.syncStatus ?? idleSync(row.id);
  }

  // ------------------------------------------------ webhooks ------------------------------------------------

  /**
   * Takes in a verified delivery: the first time its event id is seen, a job per store it concerns
   * applies it (in the transaction that records the id, so it is applied exactly once even if this
   * process dies now). A redelivery answers false and changes nothing.
   */
  async acceptWebhook(
    platform: StorePlatform,
    eventId: string,
    targets: StoreRow[],
    topic: string,
    payload: unknown,
  ): Promise<boolean> {
    return this.deps.db.transaction(async (tx) => {
      const inserted = await tx
        .insert(storeWebhookEvents)
        .values({ platform, eventId })
        .onConflictDoNothing()
        .returning({ eventId: storeWebhookEvents.eventId });
      if (inserted.length === 0) return false;
      for (const store of targets) {
        await this.deps.jobs.enqueue<StoreWebhookData>(
          STORE_WEBHOOK_JOB,
          { storeId: store.id, topic, payload },
          { tenantId: store.tenantId, tx, maxAttempts: 5 },
        );
      }
      return true;
    });
  }

  /** Webhook ids older than a week are forgotten (platforms retry for two days at most). */
  async pruneWebhookEvents(now: Date): Promise<void> {
    await this.deps.db
      .delete(storeWebhookEvents)
      .where(lt(storeWebhookEvents.receivedAt, new Date(now.getTime() - 7 * 86_400_000)));
  }

  /** A store by id whatever its tenant: only for a webhook, which names its store in its path. */
  async storeAnyTenant(storeId: number, platform: StorePlatform): Promise<StoreRow | null> {
    const [row] = await this.deps.db
      .select()
      .from(stores)
      .where(and(eq(stores.id, storeId), eq(stores.platform, platform)));
    return row ?? null;
  }

  async storeById(tenantId: number, storeId: number): Promise<StoreRow | null> {
    const [row] = await this.deps.db
      .select()
      .from(stores)
      .where(and(eq(stores.tenantId, tenantId), eq(stores.id, storeId)));
    return row ?? null;
  }

  /** A record a webhook brought: stored, and retrained at once when its kind is trained and its text changed. */
  async applyChange(
    store: StoreRow,
    change: { upsert: RemoteRecord } | { remove: { kind: StoreKind; externalId: string } },
  ) {
    if ('remove' in change) {
      const row = await findRecord(this.deps.db, store.tenantId, store.id, change.remove.kind, {
        externalId: change.remove.externalId,
      });
      if (row) await this.deleteRecord(store.tenantId, store.id, row.kind, { id: row.id });
      return;
    }
    const kind = change.upsert.kind;
    const trainedKind = isTrainable(kind) && (await this.kindIsTrained(store.id, kind));
    await this.deps.db.transaction(async (tx) => {
      const changed = await this.upsertRecords(store, [change.upsert], { trainedKind }, tx);
      if (changed.length > 0) await this.enqueueRetrain(store.tenantId, store.id, changed, tx);
    });
  }

  /** Privacy: a customer's records (the customer and their orders) are erased. */
  async redactCustomer(store: StoreRow, customer: { externalId?: string | null; email?: string | null }) {
    const email = customer.email?.toLowerCase() ?? null;
    await this.deps.db
      .delete(storeRecords)
      .where(
        and(
          eq(storeRecords.storeId, store.id),
          or(
            and(
              eq(storeRecords.kind, 'customer'),
              or(
                customer.externalId ? eq(storeRecords.externalId, customer.externalId) : undefined,
                email ? eq(storeRecords.lookupKey, email) : undefined,
              ),
            ),
            and(
              eq(storeRecords.kind, 'order'),
              or(
                customer.externalId
                  ? sql`${storeRecords.data}->>'customer_id' = ${customer.externalId}`
                  : undefined,
                email ? sql`lower(${storeRecords.data}->>'email') = ${email}` : undefined,
              ),
            ),
          ),
        ),
      );
  }

  /** The records Parley holds of a customer (a data request): the customer and their orders. */
  customerRecords(store: StoreRow, email: string | null): Promise<RecordRow[]> {
    if (!email) return Promise.resolve([]);
    return this.deps.db
      .select()
      .from(storeRecords)
      .where(
        and(
          eq(storeRecords.storeId, store.id),
          or(
            and(eq(storeRecords.kind, 'customer'), eq(storeRecords.lookupKey, email.toLowerCase())),
            and(
              eq(storeRecords.kind, 'order'),
              sql`lower(${storeRecords.data}->>'email') = ${email.toLowerCase()}`,
            ),
          ),
        ),
      );
  }
}

/** A tenant's store knowledge: all of one store's, or that of some records (their ids, or a query of them). */
function removeStoreDocuments(
  tx: DbOrTx,
  tenantId: number,
  of: { storeId: number } | { records: number[] | SQLWrapper },
) {
  const which =
    'storeId' in of ? eq(documents.collectionId, of.storeId) : inArray(documents.sourceId, of.records);
  return tx
    .delete(documents)
    .where(and(eq(documents.tenantId, tenantId), eq(documents.sourceType, 'store'), which));
}

/**
 * Marks a trained batch completed with the hash that was trained, one statement. A record whose
 * text changed again since the batch was read (its hash differs) is left training for the next run.
 */
async function markTrained(tx: Tx, batch: RecordRow[]): Promise<void> {
  const trained = batch.map((record) => sql`(${record.id}::int, ${record.contentHash}::text)`);
  await tx.execute(
    sql`UPDATE store_records AS r SET training_status = 'completed', trained_hash = v.hash
      FROM (VALUES ${sql.join(trained, sql`, `)}) AS v (id, hash)
      WHERE r.id = v.id AND r.content_hash = v.hash`,
  );
}

/** A page may name one record twice (an edit between two pages); the last one stands. */
function dedupe(records: RemoteRecord[]): RemoteRecord[] {
  const byKey = new Map<string, RemoteRecord>();
  for (const r of records) byKey.set(`${r.kind}:${r.externalId}`, r);
  return [...byKey.values()];
}

export const messageOf = (error: unknown): string =>
  error instanceof Error && error.message ? error.message.slice(0, 300) : 'Unknown error';
