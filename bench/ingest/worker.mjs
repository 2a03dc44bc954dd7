// bench/ingest child: one database. Measures, in alternating rounds, the bare pdfjs-dist text
// extraction of the PDF and Parley's pipeline on it (extractSections and prepareText, which the
// upload job runs in its extraction worker, then trainDocument: chunks written in short transactions
// and made live at once, as the job does), and reports over IPC.
//   BENCH_PDF        the PDF to ingest
//   BENCH_DB_URL     PostgreSQL database (absent: in-memory PGlite)
//   BENCH_ROUNDS     measured rounds of each (3)
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { migratedPgliteDump } from '../shared/pglite-template.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const dist = (file) => pathToFileURL(path.join(root, 'apps/server/dist', file)).href;
const serverRequire = createRequire(path.join(root, 'apps/server/package.json'));

const { openDatabase } = await import(dist('core/db/database.js'));
const { tenants, fileGroups } = await import(dist('core/db/schema.js'));
const { trainDocument } = await import(dist('modules/knowledge/ingest.js'));
const { prepareText } = await import(dist('modules/knowledge/prepare.js'));
const { chunkSections } = await import(dist('modules/knowledge/chunker.js'));
const { extractSections } = await import(dist('modules/files/extract.js'));
const { getDocument } = await import(
  pathToFileURL(serverRequire.resolve('pdfjs-dist/legacy/build/pdf.mjs')).href
);
const { default: pg } = await import(pathToFileURL(serverRequire.resolve('pg')).href);

const bytes = new Uint8Array(readFileSync(process.env.BENCH_PDF));
const url = process.env.BENCH_DB_URL;
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));

/** The extraction library alone: every page's text items joined, nothing else. */
async function bareExtract() {
  const document = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  let characters = 0;
  for (let n = 1; n <= document.numPages; n++) {
    const page = await document.getPage(n);
    const content = await page.getTextContent();
    characters += content.items.map((item) => item.str ?? '').join(' ').length;
    page.cleanup();
  }
  const pages = document.numPages;
  await document.destroy();
  return { pages, characters };
}

const database = await openDatabase(
  url ? { kind: 'postgres', url } : { kind: 'pglite', loadDataDir: await migratedPgliteDump() },
);
const db = database.db;
const [tenant] = await db.insert(tenants).values({ name: 'Bench ingest' }).returning();
const [group] = await db
  .insert(fileGroups)
  .values({ tenantId: tenant.id, groupName: 'bench_pdf' })
  .returning();
let sourceId = 0;

/** Parley's pipeline on the PDF: a new file each time, so nothing is skipped as unchanged. */
async function parleyIngest() {
  const sections = await extractSections('pdf', bytes);
  sourceId += 1;
  const meta = {
    tenantId: tenant.id,
    sourceType: 'file',
    sourceId,
    collectionId: group.id,
    title: 'bench-corpus.pdf',
    url: null,
  };
  const result = await trainDocument(db, meta, prepareText(meta.title, null, sections));
  return { pages: sections.length, chunks: result.chunkCount };
}

// CPU of the PostgreSQL server processes serving this database (they are on this machine), read
// from /proc; null when that is not possible. PGlite runs in this process.
const monitor = url ? new pg.Client({ connectionString: url }) : null;
if (monitor) await monitor.connect();
const TICK_US = 1e6 / 100;
async function serverCpuUs() {
  if (!monitor) return 0;
  const { rows } = await monitor.query(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
  );
  const byPid = new Map();
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      byPid.set(pid, (Number(fields[11]) + Number(fields[12])) * TICK_US);
    } catch {
      return null;
    }
  }
  return byPid;
}
const diffServer = (before, after) => {
  if (before === 0 || before === null || after === null) return before === 0 ? 0 : null;
  let total = 0;
  for (const [pid, us] of after) total += us - (before.get(pid) ?? 0);
  return total;
};

async function timed(fn) {
  const serverBefore = await serverCpuUs();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const result = await fn();
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const server = diffServer(serverBefore, await serverCpuUs());
  return { ...result, ms, cpuUs: cpu.user + cpu.system, serverCpuUs: server };
}

// Warm-up: modules, JIT, pdfjs worker code, the database's caches.
await bareExtract();
await parleyIngest();

const rounds = { bare: [], parley: [] };
for (let i = 0; i < ROUNDS; i++) {
  rounds.bare.push(await timed(bareExtract));
  rounds.parley.push(await timed(parleyIngest));
}

// Where the pipeline's time goes, measured apart: extraction as Parley does it, then chunking
// (token counting) alone; the rest of a pipeline round is the database (insert + tsvector + GIN).
const extract = await timed(async () => ({ sections: await extractSections('pdf', bytes) }));
const chunk = await timed(async () => ({ chunks: chunkSections(extract.sections).length }));

if (monitor) await monitor.end();
await database.close();
process.send({
  rounds,
  breakdown: { extractMs: extract.ms, chunkMs: chunk.ms, chunks: chunk.chunks },
});
