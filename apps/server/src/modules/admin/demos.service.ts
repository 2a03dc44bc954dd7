import { DEMO_KINDS, type Demo, type DemoKind, type DemoList } from '@parley/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows, type Tx } from '../../core/db/database.js';
import { tenants } from '../../core/db/schema.js';
import type { AuthContext } from '../../core/http/request-context.js';
import type { ModuleDeps } from '../../core/module.js';
import { bots } from '../bots/bots.schema.js';
import { upsertBooking } from '../calendar/calendar.queries.js';
import { QnaService, TRAIN_QNA_PAIR_JOB } from '../qna/qna.service.js';
import { createTenantRoles } from '../roles/roles.seed.js';
import { storeServices } from '../stores/stores.services.js';
import { demoBots } from './admin.schema.js';
import { DEMO_BOOKING, DEMO_PRODUCTS, DEMO_STORE, DEMOS, type DemoDefinition } from './demo-content.js';

export const DEMO_WORKSPACE_NAME = 'Parley demos';
/** Serialises seeding: two admins pressing "Seed demos" at once make one workspace and one bot per kind. */
const SEED_LOCK = sql`SELECT pg_advisory_xact_lock(hashtext('parley.admin.demos'))`;

type DemoRow = { kind: DemoKind; tenant_id: number; bot_id: number; uuid: string; bot_name: string };
type Progress = { trained: number; failed: number; total: number };

/**
 * The Capability Demos: public bots in a workspace of their own, made on demand by a platform
 * admin. Seeding writes the bot and its content in one transaction and leaves the training to the
 * same jobs a customer's content uses; the list reports how far that training is.
 */
export class DemosService {
  constructor(private readonly deps: ModuleDeps) {}

  async list(): Promise<DemoList> {
    const rows = await this.rows(this.deps.db);
    const demos = await Promise.all(
      DEMO_KINDS.map(async (kind) => {
        const row = rows.find((r) => r.kind === kind);
        return toDemo(DEMOS[kind], row, row ? await this.progress(kind, row) : undefined);
      }),
    );
    return { workspace_id: rows[0]?.tenant_id ?? null, demos };
  }

  /**
   * Sets up one demo. A demo already set up is left as it is (idempotent), unless its training
   * failed: then its training is queued again (training a pair or a product twice changes nothing).
   */
  async setUp(kind: DemoKind): Promise<Demo> {
    const created = await this.deps.db.transaction(async (tx) => {
      await tx.execute(SEED_LOCK);
      const existing = (await this.rows(tx)).find((r) => r.kind === kind);
      if (existing) return null;
      const tenantId = await this.workspace(tx);
      const bot = await this.createBot(tx, tenantId, DEMOS[kind]);
      await tx.insert(demoBots).values({ kind, tenantId, botId: bot.id });
      await this.seedContent(tx, kind, tenantId, bot.id);
      return { tenantId, botId: bot.id };
    });
    // The catalogue's training job marks its records in its own transaction, after they exist.
    if (created && kind === 'store') await this.trainCatalogue(created.tenantId);
    if (!created) await this.retrainIfFailed(kind);
    return (await this.list()).demos.find((d) => d.kind === kind)!;
  }

  private async retrainIfFailed(kind: DemoKind): Promise<void> {
    const row = (await this.rows(this.deps.db)).find((r) => r.kind === kind);
    if (!row || (await this.progress(kind, row)).failed === 0) return;
    if (kind === 'store') return this.trainCatalogue(row.tenant_id);
    await new QnaService(this.deps.db, this.deps.jobs).startTraining(demoActor(row.tenant_id), row.bot_id);
  }

  private rows(db: DbOrTx): Promise<DemoRow[]> {
    return queryRows<DemoRow>(
      db,
      sql`SELECT d.kind, d.tenant_id, d.bot_id, b.uuid, b.bot_name
          FROM demo_bots d JOIN bots b ON b.id = d.bot_id ORDER BY d.created_at`,
    );
  }

  /** The demo workspace: the one the demos live in, or a new one (no members: nobody signs in to it). */
  private async workspace(tx: Tx): Promise<number> {
    const [existing] = await tx.select({ tenantId: demoBots.tenantId }).from(demoBots).limit(1);
    if (existing) return existing.tenantId;
    const [tenant] = await tx
      .insert(tenants)
      .values({ name: DEMO_WORKSPACE_NAME })
      .returning({ id: tenants.id });
    await createTenantRoles(tx, tenant!.id);
    return tenant!.id;
  }

  private async createBot(tx: Tx, tenantId: number, demo: DemoDefinition) {
    const [bot] = await tx
      .insert(bots)
      .values({
        tenantId,
        botName: demo.botName,
        description: demo.description,
        isPublic: true,
        welcomeMessage: demo.welcome,
        suggestionQuestions: demo.tryAsking,
        // Demo visitors are anonymous passers-by: keep no visitor-level details about them.
        analytics: false,
        humanButton: 'never',
      })
      .returning({ id: bots.id });
    return bot!;
  }

  private async seedContent(tx: Tx, kind: DemoKind, tenantId: number, botId: number): Promise<void> {
    const qna = new QnaService(this.deps.db, this.deps.jobs);
    for (const pair of DEMOS[kind].qna)
      await qna.createIn(tx, demoActor(tenantId), { bot_id: botId, ...pair });
    if (kind === 'booking') await upsertBooking(tx, tenantId, botId, DEMO_BOOKING);
    if (kind === 'store') {
      const { core } = storeServices(this.deps);
      const store = await core.saveStore(
        { tenantId, userId: null, platform: 'woocommerce', credentials: {}, ...DEMO_STORE },
        tx,
      );
      await core.upsertRecords(store, DEMO_PRODUCTS, { trainedKind: true }, tx);
      await tx
        .update(bots)
        .set({ woocommerceStoreId: store.id })
        .where(and(eq(bots.tenantId, tenantId), eq(bots.id, botId)));
    }
  }

  private async trainCatalogue(tenantId: number): Promise<void> {
    const { core } = storeServices(this.deps);
    const [store] = await queryRows<{ id: number }>(
      this.deps.db,
      sql`SELECT id FROM stores WHERE tenant_id = ${tenantId} AND platform = 'woocommerce'
          AND domain = ${DEMO_STORE.domain}`,
    );
    if (store) await core.startTraining(tenantId, 'woocommerce', store.id, ['product'], false);
  }

  /** How much of the demo's knowledge is trained: its Q&A pairs, and its catalogue's products. */
  private async progress(kind: DemoKind, row: DemoRow): Promise<Progress> {
    const [counts] = await queryRows<{ trained: number; failed: number; total: number }>(
      this.deps.db,
      kind === 'store'
        ? sql`SELECT count(*) FILTER (WHERE r.training_status = 'completed')::int AS trained,
                count(*) FILTER (WHERE r.training_status = 'failed')::int AS failed, count(*)::int AS total
              FROM store_records r JOIN bots b ON b.woocommerce_store_id = r.store_id
              WHERE b.id = ${row.bot_id} AND r.kind = 'product'`
        : // A pair failed when it is untrained and a training job of it gave up (jobs_claim_idx
          // narrows to failed training jobs, a handful, before their data is read).
          sql`SELECT count(*) FILTER (WHERE q.trained)::int AS trained,
                count(*) FILTER (WHERE NOT q.trained AND EXISTS (
                  SELECT 1 FROM jobs j WHERE j.name = ${sql.raw(`'${TRAIN_QNA_PAIR_JOB}'`)} AND j.status = 'failed'
                    AND j.data->>'qnaId' = q.id::text))::int AS failed,
                count(*)::int AS total
              FROM qna q WHERE q.tenant_id = ${row.tenant_id} AND q.bot_id = ${row.bot_id}`,
    );
    return {
      trained: Number(counts?.trained ?? 0),
      failed: Number(counts?.failed ?? 0),
      total: Number(counts?.total ?? 0),
    };
  }
}

function toDemo(demo: DemoDefinition, row: DemoRow | undefined, progress: Progress | undefined): Demo {
  const status: Demo['status'] = !row
    ? 'absent'
    : progress && progress.failed > 0
      ? 'failed'
      : progress && progress.trained >= progress.total
        ? 'ready'
        : 'training';
  return {
    kind: demo.kind,
    title: demo.title,
    description: demo.description,
    source: demo.source,
    status,
    trained: progress?.trained ?? 0,
    total: progress?.total ?? 0,
    bot: row ? { id: row.bot_id, uuid: row.uuid, name: row.bot_name } : null,
    try_asking: demo.tryAsking,
  };
}

/**
 * Who seeds a demo: the demo workspace has no members, so the services are called as a system
 * caller of that workspace who works with every bot (the Q&A service reads the tenant and the bot rule).
 */
const demoActor = (tenantId: number) =>
  ({ tenantId, userId: 0, user: { all_bots: true, roles: [] } }) as unknown as AuthContext;
