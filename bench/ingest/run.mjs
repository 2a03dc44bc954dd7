// bench/ingest: PDF pages per second through Parley's ingest pipeline (pdfjs-dist extraction page by
// page, chunking of about 800 tokens, insert with full-text indexing in short transactions, as a file
// upload's job does) beside the bare extraction library alone on the same PDF, measured in the same
// run; and chunks indexed per second. On embedded PGlite and, when reachable, a PostgreSQL server.
// Target: Parley at least 0.7 of bare extraction. Then runs stall.mjs: the latency of other requests
// while a 20 MB upload trains (target: p99 under 200 ms).
//
//   npm run build && node bench/ingest/run.mjs
//
// The PDF (about 180 Letter pages) is generated with pdf-lib from the retrieval corpus
// (eval/retrieval/corpus). Each database is measured in its own process (worker.mjs), where bare and
// Parley rounds alternate so a change of machine load weighs on both alike.
// Environment:
//   BENCH_DATABASE_URL   PostgreSQL server to use (a fresh database is created on it and dropped);
//                        default postgres://postgres@127.0.0.1:5432/test, skipped if unreachable
//   BENCH_PAGES          pages of the PDF (180)
//   BENCH_ROUNDS         measured rounds of each (3), after one warm-up round
//   BENCH_DATABASES      which to measure: pglite,postgres (both)
//   BENCH_CPU_PROF_DIR   write a V8 CPU profile of each worker process there (--cpu-prof)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { forkWorker } from '../shared/fork-worker.mjs';
import { measuresPglite, postgresDatabase } from '../shared/postgres.mjs';
import { corpusParagraphs, makePdf } from './make-pdf.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const serverDist = path.join(root, 'apps/server/dist');

const PAGES = Number(process.env.BENCH_PAGES ?? 180);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const TARGET = 0.7;

for (const file of ['core/db/database.js', 'modules/knowledge/ingest.js', 'modules/files/extract.js']) {
  if (!existsSync(path.join(serverDist, file))) {
    console.error(`apps/server/dist/${file} is missing: run npm run build first`);
    process.exit(1);
  }
}

/** Runs worker.mjs on one database and resolves with what it measured. */
function runWorker(label, pdfPath, dbUrl) {
  return new Promise((resolve, reject) => {
    const child = forkWorker({
      dir: here,
      bench: 'ingest',
      label,
      dbUrl,
      env: { BENCH_PDF: pdfPath, BENCH_ROUNDS: String(ROUNDS) },
    });
    let result = null;
    child.once('message', (message) => {
      result = message;
    });
    child.once('exit', (code, signal) => {
      if (result) resolve(result);
      else reject(new Error(`worker on ${label} exited without a result (${signal ?? `code ${code}`})`));
    });
  });
}

/** Totals over the rounds: pages (and chunks) per second of wall time, CPU µs per page. */
function combine(list) {
  const pages = list.reduce((n, r) => n + r.pages, 0);
  const ms = list.reduce((n, r) => n + r.ms, 0);
  const cpuUs = list.reduce((n, r) => n + r.cpuUs, 0);
  const serverCpu = list.some((r) => r.serverCpuUs === null)
    ? null
    : list.reduce((n, r) => n + r.serverCpuUs, 0);
  const chunks = list.reduce((n, r) => n + (r.chunks ?? 0), 0);
  return {
    pagesPerS: pages / (ms / 1000),
    chunksPerS: chunks / (ms / 1000),
    msPerRound: ms / list.length,
    cpuUsPerPage: cpuUs / pages,
    serverCpuUsPerPage: serverCpu === null ? null : serverCpu / pages,
    pagesPerRound: list[0].pages,
    chunksPerRound: list[0].chunks ?? 0,
  };
}

const fmt = (n) => Math.round(n).toLocaleString('en-US');

function printTable(rows) {
  const header = [
    'database',
    'parley pages/s',
    'bare pages/s',
    'ratio',
    'chunks/s',
    'ms per PDF parley/bare',
    'CPU µs/page parley/bare',
    `target ≥ ${TARGET}`,
  ];
  const lines = rows.map(({ database, parley, bare }) => {
    const ratio = parley.pagesPerS / bare.pagesPerS;
    const cpu =
      parley.serverCpuUsPerPage === null
        ? `${fmt(parley.cpuUsPerPage)} (+ server n/a)`
        : parley.serverCpuUsPerPage > 0
          ? `${fmt(parley.cpuUsPerPage)} + ${fmt(parley.serverCpuUsPerPage)} server`
          : fmt(parley.cpuUsPerPage);
    return [
      database,
      parley.pagesPerS.toFixed(1),
      bare.pagesPerS.toFixed(1),
      ratio.toFixed(2),
      parley.chunksPerS.toFixed(1),
      `${fmt(parley.msPerRound)} / ${fmt(bare.msPerRound)}`,
      `${cpu} / ${fmt(bare.cpuUsPerPage)}`,
      ratio >= TARGET ? 'met' : 'MISSED',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const format = (cells) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  console.log(format(header));
  console.log(
    `|${widths.map((w, i) => (i === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
  );
  for (const line of lines) console.log(format(line));
}

const workDir = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-ingest-'));
const pdfPath = path.join(workDir, 'bench-corpus.pdf');
const rows = [];
try {
  const pdf = await makePdf(corpusParagraphs(path.join(root, 'eval/retrieval/corpus')), PAGES);
  writeFileSync(pdfPath, pdf);

  const measured = [];
  if (measuresPglite) measured.push(['PGlite', await runWorker('pglite', pdfPath)]);
  const server = await postgresDatabase('ingest');
  if (server) {
    try {
      measured.push(['PostgreSQL', await runWorker('postgres', pdfPath, server.url)]);
    } finally {
      await server.drop();
    }
  }
  for (const [database, result] of measured) {
    rows.push({
      database,
      parley: combine(result.rounds.parley),
      bare: combine(result.rounds.bare),
      breakdown: result.breakdown,
    });
  }

  const first = rows[0];
  console.log(
    `PDF ingest: Parley's pipeline beside bare pdfjs-dist text extraction; one PDF of ` +
      `${first ? first.parley.pagesPerRound : '?'} pages (${Math.round(pdf.length / 1024)} KiB, ` +
      `${first ? first.parley.chunksPerRound : '?'} chunks), 1 warm-up + ${ROUNDS} alternating rounds each; ` +
      `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'})`,
  );
  console.log('');
  printTable(rows);
  console.log(
    '\nparley: extractSections("pdf"), prepareText, then trainDocument (chunks of ~800 tokens, inserted in short transactions, tsvector + GIN, made live at once), a new file each round.' +
      '\nbare: pdfjs-dist getDocument + getTextContent of every page, text items joined; nothing else.' +
      '\nCPU µs/page: CPU time of the measuring process per page (PGlite runs inside it), plus, on PostgreSQL, of its server processes (read from /proc).',
  );
  console.log('\nWhere a Parley round goes (measured apart, one run each):');
  for (const { database, parley, breakdown } of rows) {
    const dbMs = Math.max(0, parley.msPerRound - breakdown.extractMs - breakdown.chunkMs);
    const pct = (n) => `${Math.round((100 * n) / parley.msPerRound)}%`;
    console.log(
      `  ${database}: ${fmt(parley.msPerRound)} ms = extraction ${fmt(breakdown.extractMs)} ms (${pct(breakdown.extractMs)})` +
        ` + chunking/token counting ${fmt(breakdown.chunkMs)} ms (${pct(breakdown.chunkMs)})` +
        ` + database insert and indexing ~${fmt(dbMs)} ms (${pct(dbMs)})`,
    );
  }
  const missed = rows.filter((r) => r.parley.pagesPerS / r.bare.pagesPerS < TARGET);
  console.log(
    missed.length > 0
      ? `\nTarget missed on: ${missed.map((r) => r.database).join(', ')}`
      : `\nTarget met: Parley at least ${TARGET} of bare extraction on every database.`,
  );
} finally {
  rmSync(workDir, { recursive: true, force: true });
}

// The other half of ingest: what training does to everyone else's requests (its own server process).
console.log('\n--- bench/ingest/stall.mjs ---');
const stall = spawnSync(process.execPath, [path.join(here, 'stall.mjs')], { stdio: 'inherit' });
if (stall.status !== 0) process.exit(stall.status ?? 1);
