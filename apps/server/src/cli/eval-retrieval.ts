import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { enableVectors, openDatabase } from '../core/db/database.js';
import { botFileGroups, bots, fileGroups, tenants } from '../core/db/schema.js';
import { EmbeddingsClient } from '../modules/knowledge/embeddings.js';
import { replaceDocument } from '../modules/knowledge/ingest.js';
import { LexicalIndexCache } from '../modules/knowledge/lexical-index.js';
import { markdownSections } from '../modules/knowledge/markdown.js';
import { RetrievalService } from '../modules/knowledge/retrieval.service.js';

/**
 * npm run eval:retrieval — retrieval quality on a committed corpus (eval/retrieval): trains a bot
 * on every page, asks each question and scores where the answering page's first passage ranks.
 * Full text is scored as the server searches (BM25 over its in-memory index, chunks read by id) and
 * on the SQL path alone (what it falls back to while an index builds, or with RETRIEVAL_INDEX_MB=0).
 * With EMBEDDING_BASE_URL and EMBEDDING_MODEL set, the fused search (full text + vectors) is scored too.
 */
const ROOT = fileURLToPath(new URL('../../../../eval/retrieval/', import.meta.url));
type Question = { q: string; page: string };
type Scores = { hit1: number; hit3: number; mrr: number };

/** The embedding model of the environment, as the server reads it; null when none is set. */
function embedderFromEnv(): EmbeddingsClient | null {
  const { EMBEDDING_BASE_URL, EMBEDDING_MODEL, EMBEDDING_API_KEY, EMBEDDING_DIMENSIONS } = process.env;
  if (!EMBEDDING_BASE_URL || !EMBEDDING_MODEL) return null;
  return new EmbeddingsClient({
    baseUrl: EMBEDDING_BASE_URL,
    model: EMBEDDING_MODEL,
    apiKey: EMBEDDING_API_KEY || undefined,
    dimensions: Number(EMBEDDING_DIMENSIONS || 1536),
  });
}

async function main(): Promise<void> {
  const pages = readdirSync(path.join(ROOT, 'corpus'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.md'))
    .sort();
  const questions = JSON.parse(readFileSync(path.join(ROOT, 'questions.json'), 'utf8')) as Question[];
  const database = await openDatabase({ kind: 'pglite' });
  const db = database.db;
  let embedder = embedderFromEnv();
  if (embedder && !(await enableVectors(database, embedder.dimensions, console.warn)).enabled)
    embedder = null;
  const [tenant] = await db.insert(tenants).values({ name: 'Eval' }).returning();
  const [group] = await db
    .insert(fileGroups)
    .values({ tenantId: tenant!.id, groupName: 'fastify_docs' })
    .returning();
  const [bot] = await db.insert(bots).values({ tenantId: tenant!.id, botName: 'Eval' }).returning();
  await db.insert(botFileGroups).values({ tenantId: tenant!.id, botId: bot!.id, fileGroupId: group!.id });

  const started = performance.now();
  let chunkCount = 0;
  const documentPage = new Map<number, string>();
  for (const [index, page] of pages.entries()) {
    const text = readFileSync(path.join(ROOT, 'corpus', page), 'utf8');
    const result = await db.transaction((tx) =>
      replaceDocument(
        tx,
        {
          tenantId: tenant!.id,
          sourceType: 'file',
          sourceId: index + 1,
          collectionId: group!.id,
          title: page,
          sections: markdownSections(text),
        },
        embedder,
      ),
    );
    documentPage.set(result.documentId, page);
    chunkCount += result.chunkCount;
  }
  const indexedMs = performance.now() - started;

  const sqlOnly = await score(new RetrievalService(db), tenant!.id, bot!.id, questions, documentPage, 'sql');
  // The index is built before asking, so every question takes the in-memory stage.
  const lexical = new LexicalIndexCache(db, { maxBytes: 256 * 1024 * 1024 });
  await new RetrievalService(db, null, undefined, lexical).search(tenant!.id, bot!.id, 'warm up');
  await lexical.idle();
  const ask = (e: EmbeddingsClient | null) =>
    new RetrievalService(db, e, (d, m) => console.warn(m, d), lexical);
  const fullText = await score(ask(null), tenant!.id, bot!.id, questions, documentPage, 'full-text');
  const fused = embedder
    ? await score(ask(embedder), tenant!.id, bot!.id, questions, documentPage, 'fused')
    : null;
  if (lexical.stats.missed > 1) throw new Error('the in-memory stage did not answer every question');
  await database.close();

  console.log(
    `\ncorpus: ${pages.length} pages, ${chunkCount} chunks, indexed in ${Math.round(indexedMs)} ms; ${questions.length} questions`,
  );
  console.log('| search | hit@1 | hit@3 | MRR |');
  console.log('|---|---:|---:|---:|');
  console.log(`| full-text | ${fmt(fullText.hit1)} | ${fmt(fullText.hit3)} | ${fmt(fullText.mrr)} |`);
  console.log(
    `| full-text, SQL path only | ${fmt(sqlOnly.hit1)} | ${fmt(sqlOnly.hit3)} | ${fmt(sqlOnly.mrr)} |`,
  );
  console.log(
    fused
      ? `| fused (full-text + vectors, ${process.env.EMBEDDING_MODEL}) | ${fmt(fused.hit1)} | ${fmt(fused.hit3)} | ${fmt(fused.mrr)} |`
      : '| fused (full-text + vectors) | not run: no embedding endpoint is configured on this machine | | |',
  );
}

/** Asks every question and scores where the answering page's first passage ranks. */
async function score(
  retrieval: RetrievalService,
  tenantId: number,
  botId: number,
  questions: Question[],
  documentPage: Map<number, string>,
  label: string,
): Promise<Scores> {
  const ranks: Array<number | null> = [];
  for (const { q, page } of questions) {
    const { hits } = await retrieval.search(tenantId, botId, q, 10);
    const position = hits.findIndex((hit) => documentPage.get(hit.document_id) === page);
    ranks.push(position === -1 ? null : position + 1);
    if (position !== 0) {
      const got = hits[0] ? documentPage.get(hits[0].document_id) : 'nothing';
      console.log(
        `  ${label} miss@1  "${q}" → expected ${page}, rank ${position === -1 ? '>10' : position + 1}; first: ${got}`,
      );
    }
  }
  const hitAt = (k: number) => ranks.filter((r) => r !== null && r <= k).length / ranks.length;
  const mrr = ranks.reduce<number>((sum, r) => sum + (r === null ? 0 : 1 / r), 0) / ranks.length;
  return { hit1: hitAt(1), hit3: hitAt(3), mrr };
}

const fmt = (n: number) => n.toFixed(3);

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
