import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { extractPage, normalizeUrl } from '../modules/crawler/crawl.js';
import { chunkSections, type Section } from '../modules/knowledge/chunker.js';
import { contentWords } from '../modules/knowledge/evidence.js';
import { BoilerplateLearner, sectionsOf } from '../modules/knowledge/html-sections.js';
import { bm25Top, IndexBuilder } from '../modules/knowledge/lexical-index.js';
import { markdownSections } from '../modules/knowledge/markdown.js';
import { RRF_K } from '../modules/knowledge/retrieval.service.js';
import { baselineRanks, docbookMainText, sphinxMainText } from './eval-baseline.js';
import { EVAL_DIR, postgresPages, type Question } from './eval-corpora.js';
import { LabEncoder, nearestIds } from './eval-lab-encoder.js';
import { REPO } from './eval-release.js';

/**
 * An in-process copy of the retrieval evaluation's full-text path, for trying ranking changes in
 * seconds: each corpus's pages extracted as the crawler does (extractPage, the site's boilerplate,
 * sectionsOf) or as an upload does (markdownSections), chunked by chunkSections, the chunks'
 * tsvectors made by a PostgreSQL server exactly as the `chunks.search` column makes them, and
 * ranked by bm25Top; beside it the plain-BM25 reference (eval-baseline.ts) over the same pages.
 * The crawl is simulated (links followed breadth-first to the corpus's depth, one at a time), so
 * a page or two may differ from a real crawl's, which fetches four at a time.
 *
 * With the search's typo corrections and the crawler's order of learning boilerplate, its figures
 * equal those of `npm run eval:retrieval` (289 PostgreSQL pages, as the crawl stores).
 *
 *   npx tsx apps/server/src/cli/eval-lab.ts [--corpus=fastify|python|postgres] [--misses [--all]]
 *     [--explain=<part of a question>]
 *
 * --misses lists the questions where Parley or the reference is below rank 3 (--all: both too);
 * --explain shows a question's lexemes, their chunk frequencies and its first chunks with the
 * matching positions. LAB_CHUNK and LAB_OVERLAP set chunkSections' sizes, LAB_REF_CHARS the
 * reference's chunk size (800 characters). LAB_ENCODER=chunks|sentences fuses the full-text ranking
 * with a sentence encoder's (eval-lab-encoder.ts), by reciprocal rank as the hybrid search does,
 * the encoder's list weighted LAB_ENCODER_WEIGHT (1). The PostgreSQL server
 * at LAB_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) only computes tsvectors,
 * in a query; they and each corpus's extracted pages are cached under eval/retrieval/.cache/ (the
 * pages keyed by the extraction code's source), so a change of chunking or ranking is scored in
 * seconds, one of extraction in a few minutes (JSDOM).
 */
type Page = { page: string; title: string; sections: Section[] };
type Corpus = { name: string; questions: Question[]; pages: Page[]; reference: Map<string, string> };

const CACHE = path.join(EVAL_DIR, '.cache');
const SITE = 'http://site';
/** The crawler's (crawl.ts). */
const BOILERPLATE_SAMPLE = 10;

/** Extraction is the slow part (JSDOM): its result is kept, keyed by the extraction code's source. */
async function crawlPages(dir: string, served: (p: string) => boolean, maxDepth: number): Promise<Page[]> {
  const source = ['modules/knowledge/html-sections.ts', 'modules/crawler/crawl.ts']
    .map((f) => readFileSync(path.join(REPO, 'apps/server/src', f), 'utf8'))
    .join('');
  const key = createHash('sha1')
    .update(dir)
    .update(String(maxDepth))
    .update('learner-in-order')
    .update(source)
    .digest('hex')
    .slice(0, 12);
  const file = path.join(CACHE, `lab-pages-${key}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Page[];
  const pages = await crawlPagesFresh(dir, served, maxDepth);
  writeFileSync(file, JSON.stringify(pages));
  return pages;
}

async function crawlPagesFresh(
  dir: string,
  served: (p: string) => boolean,
  maxDepth: number,
): Promise<Page[]> {
  const seen = new Set<string>(['index.html']);
  let level = ['index.html'];
  const extracted: Array<{
    page: string;
    title: string;
    blocks: Awaited<ReturnType<typeof extractPage>>['blocks'];
  }> = [];
  const hashes = new Set<string>();
  for (let depth = 0; level.length > 0; depth++) {
    const next: string[] = [];
    for (const page of level) {
      const html = readFileSync(path.join(dir, page), 'utf8');
      await new Promise((resolve) => setTimeout(resolve, 0));
      const found = await extractPage(html, `${SITE}/${page}`);
      if (depth < maxDepth)
        for (const link of found.links) {
          const url = normalizeUrl(link);
          if (!url?.startsWith(`${SITE}/`)) continue;
          const target = url.slice(SITE.length + 1);
          if (!target.endsWith('.html') || seen.has(target) || !served(target)) continue;
          if (!existsSync(path.join(dir, target))) continue;
          seen.add(target);
          next.push(target);
        }
      if (!found.text) continue;
      const hash = createHash('sha256').update(found.title).update(found.text).digest('hex');
      if (hashes.has(hash)) continue;
      hashes.add(hash);
      extracted.push({ page, title: found.title, blocks: found.blocks });
    }
    level = next;
  }
  // As the crawler learns a site's boilerplate: the first BOILERPLATE_SAMPLE pages are observed
  // before any is stored, then each page is stored as soon as it is observed.
  const learner = new BoilerplateLearner();
  const pages: Page[] = [];
  const store = (e: (typeof extracted)[number]) => {
    const sections = sectionsOf(e.blocks, e.title, learner.isBoilerplate);
    if (sections.length > 0) pages.push({ page: e.page, title: e.title, sections });
  };
  extracted.forEach((e, i) => {
    learner.observe(e.blocks);
    if (i + 1 === BOILERPLATE_SAMPLE) extracted.slice(0, i + 1).forEach(store);
    else if (i + 1 > BOILERPLATE_SAMPLE) store(e);
  });
  if (extracted.length < BOILERPLATE_SAMPLE) extracted.forEach(store);
  return pages;
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(path.join(EVAL_DIR, file), 'utf8')) as T;
}

async function corpora(only: string | undefined): Promise<Corpus[]> {
  const list: Corpus[] = [];
  if (!only || only === 'fastify') {
    const dir = path.join(EVAL_DIR, 'corpus');
    const files = readdirSync(dir, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.md'))
      .sort();
    const pages = files.map((f) => ({
      page: f,
      title: f.replaceAll('/', '__'),
      sections: markdownSections(readFileSync(path.join(dir, f), 'utf8')),
    }));
    list.push({
      name: 'fastify',
      questions: readJson<Array<{ q: string; page: string }>>('questions.json').map(({ q, page }) => ({
        q,
        pages: [page],
      })),
      pages,
      reference: new Map(files.map((f) => [f, readFileSync(path.join(dir, f), 'utf8')])),
    });
  }
  if (!only || only === 'python') {
    const dir = path.join(CACHE, 'python3.11-doc/usr/share/doc/python3.11/html');
    const pages = await crawlPages(dir, () => true, 4);
    list.push({
      name: 'python',
      questions: readJson<Question[]>('python-docs/questions.json'),
      pages,
      reference: new Map(
        pages.map((p) => [p.page, sphinxMainText(readFileSync(path.join(dir, p.page), 'utf8'))]),
      ),
    });
  }
  if (!only || only === 'postgres') {
    const dir = path.join(CACHE, 'postgresql-doc-15/usr/share/doc/postgresql-doc-15/html');
    const served = postgresPages(dir);
    const pages = await crawlPages(dir, (p) => served.has(p), 10);
    list.push({
      name: 'postgres',
      questions: readJson<Question[]>('postgres-docs/questions.json'),
      pages,
      reference: new Map(
        pages.map((p) => [p.page, docbookMainText(readFileSync(path.join(dir, p.page), 'utf8'))]),
      ),
    });
  }
  return list;
}

type Chunk = { page: string; title: string; heading: string | null; content: string };

/** tsvectors of chunks, as the chunks.search column computes them, cached by content. */
async function tsvectors(client: pg.Client, chunks: Chunk[], cache: Map<string, string>): Promise<string[]> {
  const key = (c: Chunk) =>
    createHash('sha1')
      .update(`${c.title}\0${c.heading ?? ''}\0${c.content}`)
      .digest('hex');
  const missing = chunks.filter((c) => !cache.has(key(c)));
  for (let i = 0; i < missing.length; i += 500) {
    const batch = missing.slice(i, i + 500);
    const { rows } = await client.query<{ v: string }>(
      `SELECT (setweight(to_tsvector('english', regexp_replace(coalesce(t, ''), '[/_.\\-]+', ' ', 'g') || ' ' || coalesce(h, '')), 'A') || setweight(to_tsvector('english', c), 'B'))::text AS v
       FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS x(t, h, c, n) ORDER BY n`,
      [batch.map((c) => c.title), batch.map((c) => c.heading), batch.map((c) => c.content)],
    );
    batch.forEach((c, j) => {
      cache.set(key(c), rows[j]!.v);
    });
  }
  return chunks.map((c) => cache.get(key(c))!);
}

const summary = (ranks: Array<number | null>) => {
  const n = ranks.length;
  const hit = (k: number) => ranks.filter((r) => r !== null && r <= k).length / n;
  const mrr = ranks.reduce<number>((s, r) => s + (r ? 1 / r : 0), 0) / n;
  return `hit@1 ${hit(1).toFixed(3)} hit@3 ${hit(3).toFixed(3)} MRR ${mrr.toFixed(3)}`;
};

type Ranked = Array<{ chunkId: number; score: number }>;
/** How many chunks each list brings to the fusion. */
const FUSION_DEPTH = 40;

/** The full-text ranking, or with LAB_ENCODER set, it fused with the encoder's nearest chunks. */
async function ranking(
  questions: Question[],
  chunks: Chunk[],
  fullText: (lexemes: string[], k: number) => Ranked,
): Promise<(question: string, lexemes: string[], k: number) => Ranked> {
  const mode = process.env.LAB_ENCODER;
  if (!mode) return (_q, lexemes, k) => fullText(lexemes, k);
  const encoder = new LabEncoder(CACHE);
  const items =
    mode === 'sentences'
      ? await encoder.sentenceVectors(chunks)
      : (
          await encoder.vectors(chunks.map((c) => (c.heading ? `${c.heading}\n\n${c.content}` : c.content)))
        ).map((v) => [v]);
  const asked = await encoder.vectors(questions.map((q) => q.q));
  const vectorOf = new Map(questions.map((q, i) => [q.q, asked[i]!]));
  const weight = Number(process.env.LAB_ENCODER_WEIGHT ?? 1);
  return (question, lexemes, k) => {
    const score = new Map<number, number>();
    const add = (chunkId: number, position: number, w: number) => {
      score.set(chunkId, (score.get(chunkId) ?? 0) + w / (RRF_K + position + 1));
    };
    fullText(lexemes, FUSION_DEPTH).forEach((c, p) => {
      add(c.chunkId, p, 1);
    });
    nearestIds(vectorOf.get(question)!, items, FUSION_DEPTH).forEach((id, p) => {
      add(id + 1, p, weight);
    });
    return [...score]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([chunkId, s]) => ({ chunkId, score: s }));
  };
}

async function main() {
  const args = process.argv.slice(2);
  const only = args.find((a) => a.startsWith('--corpus='))?.slice(9);
  const misses = args.includes('--misses');
  const client = new pg.Client(process.env.LAB_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
  await client.connect();
  mkdirSync(CACHE, { recursive: true });
  const cacheFile = path.join(CACHE, 'lab-tsvectors.json');
  const cache = new Map<string, string>(
    existsSync(cacheFile) ? (JSON.parse(readFileSync(cacheFile, 'utf8')) as Array<[string, string]>) : [],
  );
  const out: Record<string, unknown> = {};
  for (const corpus of await corpora(only)) {
    const chunks: Chunk[] = corpus.pages.flatMap((p) =>
      chunkSections(
        p.sections,
        Number(process.env.LAB_CHUNK ?? 800),
        Number(process.env.LAB_OVERLAP ?? 100),
      ).map((d) => ({
        page: p.page,
        title: p.title,
        heading: d.headingPath,
        content: d.content,
      })),
    );
    const vectors = await tsvectors(client, chunks, cache);
    const builder = new IndexBuilder();
    vectors.forEach((v, i) => {
      builder.add(i + 1, v);
    });
    const index = builder.build(1);
    const { rows } = await client.query<{ q: string; l: string[] }>(
      `SELECT q, tsvector_to_array(to_tsvector('english', q)) AS l FROM unnest($1::text[]) AS q`,
      [corpus.questions.map((q) => q.q)],
    );
    // As the search does (retrieval.service.ts): a content word of four letters or more whose stem
    // no chunk holds is searched beside the corpus's likeliest word it is a typo of.
    const words = [...new Set(corpus.questions.flatMap((q) => contentWords(q.q)))];
    const stems = await client.query<{ w: string; l: string[] }>(
      `SELECT w, tsvector_to_array(to_tsvector('english', w)) AS l FROM unnest($1::text[]) AS w`,
      [words],
    );
    const stemOf = new Map(stems.rows.map((r) => [r.w, r.l]));
    const lexemes = new Map(
      rows.map((r) => {
        const corrections = contentWords(r.q).flatMap((w) => {
          const ls = stemOf.get(w) ?? [];
          if (w.length < 4 || ls.length === 0 || Math.max(...ls.map((l) => index.df(l))) > 0) return [];
          const best = index.closest(ls[0]!);
          return best ? [best.lexeme] : [];
        });
        return [r.q, [...r.l, ...corrections]];
      }),
    );
    const rank = await ranking(corpus.questions, chunks, (ls, k) => bm25Top([index], ls, k));
    const ours = corpus.questions.map((question) => {
      const top = rank(question.q, lexemes.get(question.q)!, 10);
      const at = top.findIndex((c) => question.pages.includes(chunks[c.chunkId - 1]!.page));
      return {
        rank: at === -1 ? null : at + 1,
        first: top[0] ? `${chunks[top[0].chunkId - 1]!.page} | ${chunks[top[0].chunkId - 1]!.heading}` : null,
      };
    });
    const explain = args.find((a) => a.startsWith('--explain='))?.slice(10);
    for (const question of corpus.questions.filter((q) => explain && q.q.includes(explain))) {
      const ls = lexemes.get(question.q)!;
      console.log(`\n${question.q} ${JSON.stringify(ls)} df ${ls.map((l) => index.df(l)).join(',')}`);
      const top = bm25Top([index], ls, 400);
      top.forEach((c, i) => {
        const chunk = chunks[c.chunkId - 1]!;
        const good = question.pages.includes(chunk.page);
        if (i < 10 || (good && i < 60))
          console.log(
            `  ${good ? '*' : ' '}${i + 1} ${c.score.toFixed(3)} len ${index.lengths[c.chunkId - 1]} ${chunk.page} | ${chunk.heading} | ${vectors[
              c.chunkId - 1
            ]!.split(' ')
              .filter((t) => ls.includes(t.split(':')[0]!.slice(1, -1)))
              .join(' ')}`,
          );
      });
    }
    const reference = baselineRanks(
      corpus.reference,
      corpus.questions,
      Number(process.env.LAB_REF_CHARS ?? 800),
    );
    console.log(
      `${corpus.name.padEnd(9)} ${corpus.pages.length} pages ${chunks.length} chunks | parley ${summary(ours.map((o) => o.rank))} | reference ${summary(reference.map((r) => r.rank))}`,
    );
    if (misses)
      corpus.questions.forEach((q, i) => {
        const a = ours[i]!.rank;
        const b = reference[i]!.rank;
        if ((a ?? 99) <= 3 && (b ?? 99) <= 3) return;
        if ((a ?? 99) > 3 && (b ?? 99) > 3 && !args.includes('--all')) return;
        console.log(
          `  ${String(a ?? '-').padStart(2)} ref ${String(b ?? '-').padStart(2)}  ${q.q}  [${q.pages.join(' ')}]  first: ${ours[i]!.first}`,
        );
      });
    out[corpus.name] = corpus.questions.map((q, i) => ({
      q: q.q,
      rank: ours[i]!.rank,
      ref: reference[i]!.rank,
      first: ours[i]!.first,
    }));
  }
  writeFileSync(cacheFile, JSON.stringify([...cache]));
  writeFileSync(path.join(CACHE, `lab-${process.env.LAB_TAG ?? 'last'}.json`), JSON.stringify(out, null, 1));
  await client.end();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
