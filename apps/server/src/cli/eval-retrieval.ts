import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EvalApi, sleep } from './eval-api.js';
import { baselineRanks } from './eval-baseline.js';
import {
  type Corpus,
  EVAL_DIR,
  fastifyCorpus,
  postgresCorpus,
  postgresDocsDir,
  postgresPages,
  pythonCorpus,
  pythonDocsDir,
  type Trained,
} from './eval-corpora.js';
import { evalOptions } from './eval-options.js';
import { currentRelease, type Release } from './eval-release.js';
import { type Figures, score, summariseRanks } from './eval-score.js';
import { freshDatabase, serverLog, withServer } from './eval-server.js';
import { type StaticSite, serveHtml } from './eval-static.js';

/**
 * npm run eval:retrieval — retrieval and answer quality of this release beside an earlier one,
 * measured in the same run (eval/retrieval/README.md). For each database (PGlite; PostgreSQL too
 * with EVAL_DATABASE_URL or --pg) and each release, a server is started on a fresh database, each
 * corpus is given to a bot through the API (Fastify's docs uploaded, the Python manual and parts of
 * the PostgreSQL manual crawled on loopback), and every question is searched and asked. The server is then restarted with the
 * in-memory index off (RETRIEVAL_INDEX_MB=0) to score the SQL path alone.
 *
 * Options: --pg, --previous=<commit> (default 806643d), --no-previous, --corpus=fastify|python|postgres.
 */
const PREVIOUS = '806643d';
/**
 * The first search of a bot starts building its in-memory index in the background and is answered
 * by SQL meanwhile; questions are asked once it is built, as a server in steady use answers them.
 * No route tells when it is, so the run waits (a 525-page manual's takes a few seconds here).
 */
const WARM_UP_MS = 15_000;
const CACHE = path.join(EVAL_DIR, '.cache');

type Row = { corpus: string; database: string; release: string; figures: Figures; sqlPath: Figures };
/**
 * Per corpus, the pages this release's bot holds (the last one trained: releases run in order, this
 * one last): the plain-BM25 reference ranks the same pages. A crawl stores a few pages more or fewer
 * from run to run.
 */
const trainedPages = new Map<string, Set<string>>();

async function main(): Promise<void> {
  const { databases, releases, option } = evalOptions(process.argv.slice(2), PREVIOUS);
  const only = option('corpus');
  const names = ['fastify', 'python', 'postgres'];
  if (only && !names.includes(only)) throw new Error(`--corpus=${only}: ${names.join(', ')}`);
  const wanted = (name: string) => !only || only === name;
  const sites: StaticSite[] = [];
  const corpora: Corpus[] = [];
  if (wanted('fastify')) corpora.push(fastifyCorpus());
  if (wanted('python')) {
    const docs = pythonDocsDir();
    sites.push(await serveHtml(docs));
    corpora.push(pythonCorpus(sites.at(-1)!, docs));
  }
  if (wanted('postgres')) {
    const docs = postgresDocsDir();
    sites.push(await serveHtml(docs, postgresPages(docs)));
    corpora.push(postgresCorpus(sites.at(-1)!, docs));
  }
  const rows: Row[] = [];
  try {
    for (const database of databases)
      for (const release of releases) rows.push(...(await runRelease(release, database, corpora)));
  } finally {
    for (const site of sites) await site.close();
  }
  report(rows, corpora);
}

/** One release on one fresh database: every corpus trained and scored, then scored on the SQL path. */
async function runRelease(release: Release, pgUrl: string | null, corpora: Corpus[]): Promise<Row[]> {
  const database = await freshDatabase(pgUrl);
  const log = serverLog(CACHE, release, database);
  try {
    const { trained, figures } = await withServer(release, database, log, {}, async (url) => {
      const { api, userId } = await EvalApi.signUp(url);
      const trained = await trainAll(api, userId, corpora);
      for (const bot of trained)
        await api.call('POST', `/knowledge/search/${bot.botId}`, { query: 'warm up' });
      await sleep(WARM_UP_MS);
      return { trained, figures: await scoreAll(api, trained, corpora, true) };
    });
    // The same database, the server restarted with its in-memory index off: full text ranked by SQL.
    const sqlPath = await withServer(release, database, log, { RETRIEVAL_INDEX_MB: '0' }, async (url) =>
      scoreAll(await EvalApi.logIn(url), trained, corpora, false),
    );
    return corpora.map((corpus, i) => ({
      corpus: corpus.name,
      database: database.label,
      release: release.label,
      figures: figures[i]!,
      sqlPath: sqlPath[i]!,
    }));
  } finally {
    await database.drop();
  }
}

async function trainAll(api: EvalApi, userId: number, corpora: Corpus[]): Promise<Trained[]> {
  const trained: Trained[] = [];
  for (const corpus of corpora) {
    const started = performance.now();
    const bot = await corpus.train(api, userId);
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    process.stderr.write(`  ${corpus.name}: ${bot.known.size} pages trained in ${seconds} s\n`);
    trainedPages.set(corpus.name, bot.known);
    trained.push(bot);
  }
  return trained;
}

async function scoreAll(api: EvalApi, trained: Trained[], corpora: Corpus[], answers: boolean) {
  const figures: Figures[] = [];
  for (const [i, corpus] of corpora.entries())
    figures.push(await score(api, trained[i]!, corpus.questions, { answers }));
  return figures;
}

/** The tables, the misses of this release (by page expected and page ranked first), and every rank as JSON. */
function report(rows: Row[], corpora: Corpus[]): void {
  const f = (n: number) => n.toFixed(3);
  const sorted = corpora.flatMap((c) => rows.filter((r) => r.corpus === c.name));
  const modes = [...new Set(rows.map((r) => r.figures.mode))].join(', ');
  console.log(`\nsearch: ${modes}; answers: as a visitor gets them (no model: the extractive answer)`);
  console.log(
    '| corpus | database | release | hit@1 | hit@3 | MRR | distinct citations | invented sources | answers citing a source | citing an expected page |',
  );
  console.log('|---|---|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const { corpus, database, release, figures: s } of sorted)
    console.log(
      `| ${corpus} | ${database} | ${release} | ${f(s.hit1)} | ${f(s.hit3)} | ${f(s.mrr)} | ${f(s.distinct)} | ${s.invented} | ${f(s.answered)} | ${f(s.citesExpected)} |`,
    );
  console.log('\nfull text on the SQL path alone (RETRIEVAL_INDEX_MB=0):');
  console.log('| corpus | database | release | hit@1 | hit@3 | MRR |');
  console.log('|---|---|---|---:|---:|---:|');
  for (const { corpus, database, release, sqlPath: s } of sorted)
    console.log(`| ${corpus} | ${database} | ${release} | ${f(s.hit1)} | ${f(s.hit3)} | ${f(s.mrr)} |`);
  printReference(corpora, sorted);
  printMisses(sorted);
  mkdirSync(CACHE, { recursive: true });
  const file = path.join(CACHE, 'last-run.json');
  writeFileSync(file, `${JSON.stringify(rows, null, 2)}\n`);
  console.log(`\nevery question's rank, first page and citations: ${file}`);
}

/**
 * The plain-BM25 reference over the same pages (eval-baseline.ts), beside this release's full-text
 * search on each database: what lexical ranking reaches on the corpus with clean extraction.
 */
function printReference(corpora: Corpus[], rows: Row[]): void {
  const f = (n: number) => n.toFixed(3);
  console.log(
    '\nplain BM25 over the same pages, cleanly extracted into ~800-character chunks (the reference):',
  );
  console.log('| corpus | ranked by | hit@1 | hit@3 | MRR | questions both miss at 3 |');
  console.log('|---|---|---:|---:|---:|---:|');
  const current = currentRelease().label;
  for (const corpus of corpora) {
    const pages = trainedPages.get(corpus.name);
    if (!pages) continue;
    const reference = baselineRanks(corpus.texts(pages), corpus.questions);
    const s = summariseRanks(reference);
    console.log(`| ${corpus.name} | plain BM25 | ${f(s.hit1)} | ${f(s.hit3)} | ${f(s.mrr)} | |`);
    for (const row of rows.filter((r) => r.corpus === corpus.name && r.release === current)) {
      const r = row.figures;
      const both = r.results.filter((q, i) => missed(q.rank) && missed(reference[i]!.rank)).length;
      console.log(
        `| ${corpus.name} | Parley on ${row.database} | ${f(r.hit1)} | ${f(r.hit3)} | ${f(r.mrr)} | ${both} |`,
      );
    }
  }
}

const missed = (rank: number | null) => rank === null || rank > 3;

/** This release's questions answered below rank 3, with the previous release's rank beside. */
function printMisses(rows: Row[]): void {
  const current = currentRelease().label;
  for (const row of rows.filter((r) => r.release === current)) {
    const previous = rows.find((r) => r.corpus === row.corpus && r.database === row.database && r !== row);
    const misses = row.figures.results.filter((r) => r.rank === null || r.rank > 3);
    console.log(`\n${row.corpus} on ${row.database}: ${misses.length} below rank 3`);
    for (const miss of misses) {
      const before = previous?.figures.results.find((r) => r.q === miss.q)?.rank;
      console.log(
        `  "${miss.q}" → ${miss.pages.join(' or ')}: rank ${miss.rank ?? '>10'}${previous ? ` (was ${before ?? '>10'})` : ''}; first: ${miss.first ?? 'nothing'}`,
      );
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
