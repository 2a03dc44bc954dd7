// bench/stores: an online store's catalogue synced and trained, through the real API of the built
// server, against the API tests' fakes of WooCommerce and Shopify on loopback (fakes.mjs). For each
// platform and database:
//
// - Baseline, in the same run: the fake's own time to serve every page of the catalogue, a plain
//   loop in this process fetching each page at the adapter's page size (WooCommerce per_page=100,
//   HTTP Basic; Shopify's GraphQL products query, first: 250, following cursors), each answer
//   parsed. Run just before and just after Parley's sync (their mean), after an untimed pass that
//   warms the fake (Shopify's fake serialises a product on its first read).
// - Parley: the store connected as a merchant connects it (WooCommerce: its keys; Shopify: OAuth,
//   the fake approving the consent), then a global sync of products (limit = the catalogue), then
//   training of products; timed from the sync request to training complete (sync and training
//   also apart), polling the statuses the console polls. Target: total ≤ 3 × the fake alone.
// - Peak memory: the server process's RSS high-water mark (/proc/<pid>/status VmHWM), a fresh
//   server for each row, so it covers start-up, connection, sync and training of that row only;
//   beside it, the mark once the server answers /api/health (what start-up alone reaches).
//   On PostgreSQL the database's own memory is not in it (on PGlite it is: it runs in the server).
// - Second baseline, the bare SQL write floor (floor.mjs): after the row's server stopped, the rows
//   Parley stored for the store (its store_records, documents and chunks, read back from a copy of
//   the row's database) inserted again into the same tables of that copy, emptied, with a few large
//   multi-row INSERTs; no Parley code. Beside the original ratio: total / (fake + floor), the same
//   target: the fake serving from memory is no floor for writing and indexing the catalogue.
//
//   npm run build && node bench/run.mjs stores
//   STORES_BENCH_PRODUCTS=2000 STORES_BENCH_PLATFORMS=woocommerce node bench/stores/run.mjs   # quick
//
// The servers run on a fresh PGlite directory, then on a fresh PostgreSQL database when one is
// reachable (BENCH_DATABASE_URL, else the local server; BENCH_DATABASES picks one: pglite or
// postgres). Timings are printed, never asserted; the
// run exits 1 only when something did not work (a sync or training that failed or fell short).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startBuiltServer } from '../shared/built-server.mjs';
import { call } from '../shared/http.mjs';
import { measuresPglite, postgresDatabase } from '../shared/postgres.mjs';
import { fmt, printTable } from '../shared/report.mjs';
import { SHOPIFY_PAGE, shopifyAlone, startShopifyFake, startWooFake, WOO_PAGE, wooAlone } from './fakes.mjs';
import { pgliteFloor, postgresFloor } from './floor.mjs';

/** Smoke mode (CI) only shows the benchmark still runs: a tiny catalogue, no target judged. */
const SMOKE = process.env.BENCH_SMOKE === '1';
const PRODUCTS = Number(process.env.STORES_BENCH_PRODUCTS ?? (SMOKE ? 200 : 10_000));
const PLATFORMS = (process.env.STORES_BENCH_PLATFORMS ?? 'woocommerce,shopify').split(',').filter(Boolean);
/** How long a sync or a training may take before the run gives up (exit 1). */
const TIMEOUT_S = Number(process.env.STORES_BENCH_TIMEOUT_S ?? Math.max(120, PRODUCTS / 10));
const POLL_MS = 100;
const TARGET = 3;
/**
 * Shopify's fake bucket: generous, so the fake never throttles. A real shop's bucket (1,000 points
 * restoring 50 a second; 2,000 / 100 on Plus) bounds a real sync whatever Parley does; this
 * measures Parley, not Shopify's rate limit.
 */
const BUCKET = { max: 20_000, restoreRate: 10_000 };
const SHOPIFY_API_VERSION = process.env.SHOPIFY_API_VERSION ?? '2025-01';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

for (const platform of PLATFORMS)
  if (platform !== 'woocommerce' && platform !== 'shopify')
    throw new Error(`STORES_BENCH_PLATFORMS: unknown platform ${platform}`);

// ---- The server process ---------------------------------------------------------------------

const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** A process's user + system CPU time in ms (/proc/<pid>/stat), or NaN where /proc is not there. */
function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
  } catch {
    return Number.NaN;
  }
}

/** A process's resident set high-water mark in MB (/proc/<pid>/status VmHWM), or NaN. */
function peakRssMb(pid) {
  try {
    const kb = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

// ---- Parley, as a merchant uses it ------------------------------------------------------------

async function signUp(server) {
  const signup = await call(server.baseUrl, 'POST', '/api/auth/signup', {
    body: {
      first_name: 'Bench',
      last_name: 'Stores',
      email: `bench-stores-${randomBytes(4).toString('hex')}@example.com`,
      password: 'bench-password-123',
      company_name: 'Bench Stores',
    },
  });
  return signup.access_token;
}

/** Each platform's routes: how a store is connected, synced and trained, and where the statuses are. */
const PLATFORM = {
  woocommerce: {
    label: 'WooCommerce',
    async connect(server, token, { store }) {
      const { store: row } = await call(server.baseUrl, 'POST', '/api/woocommerce/connect', {
        token,
        body: {
          store_url: store.url,
          consumer_key: store.consumerKey,
          consumer_secret: store.consumerSecret,
        },
      });
      return row.id;
    },
    syncUrl: (id) => `/api/woocommerce/stores/${id}/sync/global`,
    syncStatusUrl: (id) => `/api/woocommerce/stores/${id}/sync/status`,
    trainUrl: (id) => `/api/woocommerce/stores/${id}/train`,
    trainStatusUrl: (id) => `/api/woocommerce/stores/${id}/training/status`,
    alone: ({ store }) => wooAlone(store),
    pageSize: WOO_PAGE,
  },
  shopify: {
    label: 'Shopify',
    async connect(server, token, { fake, shop }) {
      const { authorization_url } = await call(server.baseUrl, 'POST', '/api/shopify/connect', {
        token,
        body: { shop_url: shop.domain },
      });
      const consent = new URL(authorization_url);
      const params = fake.approve(shop.domain, {
        redirectUri: consent.searchParams.get('redirect_uri'),
        state: consent.searchParams.get('state'),
      });
      const { store: row } = await call(server.baseUrl, 'POST', '/api/shopify/callback', {
        token,
        body: params,
      });
      return row.id;
    },
    syncUrl: (id) => `/api/integrations/shopify/stores/${id}/sync/global`,
    syncStatusUrl: (id) => `/api/integrations/shopify/stores/${id}/sync/status`,
    trainUrl: (id) => `/api/integrations/shopify/stores/${id}/training/global`,
    trainStatusUrl: (id) => `/api/shopify/stores/training/detailed-status/${id}`,
    alone: ({ fake, shop }) => shopifyAlone(fake, shop, SHOPIFY_API_VERSION),
    pageSize: SHOPIFY_PAGE,
  },
};

/** Polls `url` until `done(answer)`; resolves with the last answer. */
async function until(server, token, url, done, what) {
  const deadline = performance.now() + TIMEOUT_S * 1000;
  for (;;) {
    const answer = await call(server.baseUrl, 'GET', url, { token });
    if (done(answer)) return answer;
    if (performance.now() > deadline)
      throw new Error(`${what} not done after ${TIMEOUT_S} s: ${JSON.stringify(answer).slice(0, 500)}`);
    await sleep(POLL_MS);
  }
}

/**
 * One row: a fresh server on `database`, the store connected, its products synced then trained.
 * The server's DATA_DIR is `dataDir` (the caller's, kept after the server stops: the floor reads
 * the PGlite database in it).
 */
async function measure(platform, database, fakes, dataDir) {
  const spec = PLATFORM[platform];
  const server = await startBuiltServer({
    label: 'stores',
    env: {
      CRAWLER_ALLOW_PRIVATE: 'true',
      SHOPIFY_SHOP_URL: fakes.shopify.fake.shopUrlTemplate,
      SHOPIFY_API_KEY: fakes.shopify.fake.apiKey,
      SHOPIFY_API_SECRET: fakes.shopify.fake.apiSecret,
      SHOPIFY_API_VERSION,
      DATA_DIR: dataDir,
      ...database.env,
    },
  });
  const startMb = peakRssMb(server.pid);
  try {
    const token = await signUp(server);
    const storeId = await spec.connect(server, token, fakes[platform]);
    const before = await spec.alone(fakes[platform]);

    const cpuStart = cpuMs(server.pid);
    const started = performance.now();
    await call(server.baseUrl, 'POST', spec.syncUrl(storeId), {
      token,
      body: { content_types: ['products'], limit: PRODUCTS },
    });
    const sync = await until(
      server,
      token,
      spec.syncStatusUrl(storeId),
      (s) => s.overallStatus !== 'syncing',
      'sync',
    );
    const synced = performance.now();
    const cpuSynced = cpuMs(server.pid);
    await call(server.baseUrl, 'POST', spec.trainUrl(storeId), {
      token,
      body: { content_types: ['products'] },
    });
    const training = await until(server, token, spec.trainStatusUrl(storeId), (s) => !s.active, 'training');
    const trained = performance.now();
    const cpuTrained = cpuMs(server.pid);
    const peakMb = peakRssMb(server.pid);

    const after = await spec.alone(fakes[platform]);
    return {
      platform,
      database: database.label,
      storeId,
      aloneMs: (before.ms + after.ms) / 2,
      aloneProducts: before.products,
      syncMs: synced - started,
      trainMs: trained - synced,
      totalMs: trained - started,
      syncCpuMs: cpuSynced - cpuStart,
      trainCpuMs: cpuTrained - cpuSynced,
      startMb,
      peakMb,
      sync,
      training,
    };
  } finally {
    await server.stop();
  }
}

// ---- Main -----------------------------------------------------------------------------------

const woo = await startWooFake();
const shopifyFake = await startShopifyFake({ bucket: BUCKET });
const fakes = {
  woocommerce: { store: woo.addStore({ products: PRODUCTS, name: 'Bench Outfitters', currency: 'USD' }) },
  shopify: {
    fake: shopifyFake,
    shop: shopifyFake.addShop('bench-outfitters.myshopify.com', {
      name: 'Bench Outfitters',
      currency: 'USD',
      products: PRODUCTS,
    }),
  },
};
// Reachable or not (null); the first PostgreSQL row uses it, each later row gets a fresh database.
const postgres = await postgresDatabase('stores');
const databases = measuresPglite ? [{ label: 'PGlite' }] : [];
const results = [];
const problems = [];
try {
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  console.log(
    `\nbench/stores: ${fmt(PRODUCTS)} products synced and trained (${PLATFORMS.join(', ')}); ` +
      `node ${process.version}, ${os.cpus().length} CPUs, load ${load}`,
  );
  console.log(
    `Shopify fake's bucket: ${fmt(BUCKET.max)} points restoring ${fmt(BUCKET.restoreRate)}/s, so it never ` +
      'throttles. A real shop (1,000 points restoring 50/s) bounds a real sync by its rate limit, not by Parley.',
  );
  // A warm pass of each fake first (untimed): JIT, connections, and the Shopify fake's JSON cache.
  for (const platform of PLATFORMS) await PLATFORM[platform].alone(fakes[platform]);
  if (postgres) databases.push({ label: 'PostgreSQL' });
  for (const database of databases) {
    for (const [index, platform] of PLATFORMS.entries()) {
      // On PostgreSQL each row gets its own database, so no row reads another's records.
      const pg =
        database.label === 'PostgreSQL' ? (index === 0 ? postgres : await postgresDatabase('stores')) : null;
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-stores-data-'));
      try {
        const env = pg ? { DATABASE_URL: pg.url } : {};
        const result = await measure(platform, { label: database.label, env }, fakes, dataDir);
        // The second baseline, on a copy of the database the server just left.
        result.floor = pg
          ? await postgresFloor(pg.url, result.storeId)
          : await pgliteFloor(path.join(dataDir, 'pgdata'), path.join(dataDir, 'floor'), result.storeId);
        results.push(result);
      } catch (error) {
        problems.push(`${PLATFORM[platform].label} on ${database.label}: ${error.stack ?? error}`);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
        if (pg && pg !== postgres) await pg.drop();
      }
    }
  }
} finally {
  await woo.close();
  await shopifyFake.close();
  await postgres?.drop();
}

const s = (ms) => (Number.isNaN(ms) ? '-' : (ms / 1000).toFixed(ms < 10_000 ? 2 : 1));
const verdict = (met) => (SMOKE ? 'not judged' : met ? 'met' : 'MISSED');
console.log(
  `\nSync of products (limit ${fmt(PRODUCTS)}) then training of products, from the sync request to training ` +
    `complete; the fake alone: every page at the adapter's page size (WooCommerce ${WOO_PAGE}, Shopify ${SHOPIFY_PAGE}), ` +
    'before and after (mean). Server CPU: the Parley process (on PostgreSQL the database works outside it).',
);
printTable(
  [
    'platform',
    'database',
    'products',
    'fake alone s',
    'Parley sync s',
    'train s',
    'total s',
    'total / fake',
    `target ≤ ${TARGET}×`,
    'bare SQL write floor s',
    'total / (fake + floor)',
    `target ≤ ${TARGET}× (floor)`,
    'server CPU sync / train s',
    'peak RSS MB (at start)',
  ],
  results.map((r) => {
    const ratio = r.totalMs / r.aloneMs;
    const floorRatio = r.totalMs / (r.aloneMs + r.floor.ms);
    return [
      PLATFORM[r.platform].label,
      r.database,
      fmt(r.aloneProducts),
      s(r.aloneMs),
      s(r.syncMs),
      s(r.trainMs),
      s(r.totalMs),
      `${ratio.toFixed(1)}×`,
      verdict(ratio <= TARGET),
      s(r.floor.ms),
      `${floorRatio.toFixed(1)}×`,
      verdict(floorRatio <= TARGET),
      `${s(r.syncCpuMs)} / ${s(r.trainCpuMs)}`,
      Number.isNaN(r.peakMb) ? '-' : `${fmt(r.peakMb)} (${fmt(r.startMb)})`,
    ];
  }),
  2,
);

console.log(
  '\nThe bare SQL write floor: the rows Parley stored, inserted again into the emptied tables of a copy of ' +
    `its database, multi-row INSERTs within ${fmt(65_535)} parameters (PGlite: ${fmt(32_767)}), one transaction each ` +
    '(no Parley code); ' +
    'the second of two passes (the first warms the connection).',
);
printTable(
  ['platform', 'database', 'store_records', 'documents', 'chunks', 'INSERTs', 'floor s', 'first pass s'],
  results.map((r) => {
    const t = (name) => {
      const table = r.floor.byTable[name];
      return `${fmt(table.rows)} (${table.mb.toFixed(1)} MB) in ${s(table.ms)} s`;
    };
    return [
      PLATFORM[r.platform].label,
      r.database,
      t('store_records'),
      t('documents'),
      t('chunks'),
      fmt(r.floor.statements),
      s(r.floor.ms),
      s(r.floor.firstMs),
    ];
  }),
  2,
);

// Correctness, judged in smoke mode too: every product read by the baseline, synced and trained.
for (const r of results) {
  const where = `${PLATFORM[r.platform].label} on ${r.database}`;
  if (r.aloneProducts !== PRODUCTS)
    problems.push(`${where}: the fake alone served ${r.aloneProducts} products, not ${PRODUCTS}`);
  const products = r.sync.contentTypes.find((t) => t.contentType === 'products');
  if (r.sync.overallStatus !== 'completed' || products?.syncedCount !== PRODUCTS)
    problems.push(
      `${where}: sync ended ${r.sync.overallStatus} with ${products?.syncedCount} products: ${JSON.stringify(r.sync.errors)}`,
    );
  if (r.floor.byTable.store_records.rows !== PRODUCTS || r.floor.byTable.documents.rows !== PRODUCTS)
    problems.push(
      `${where}: the floor read back ${JSON.stringify(r.floor.byTable)}, not ${PRODUCTS} products`,
    );
  const trained = r.training.content_types.find((t) => t.content_type === 'products');
  if (!r.training.complete || trained?.trained !== PRODUCTS || trained?.failed !== 0)
    problems.push(`${where}: training ended ${JSON.stringify(r.training)}`);
}
if (problems.length > 0) {
  for (const problem of problems) console.error(`bench/stores: ${problem}`);
  process.exit(1);
}
