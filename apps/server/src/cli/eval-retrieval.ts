import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../core/db/database.js';
import { botFileGroups, bots, fileGroups, tenants } from '../core/db/schema.js';
import { replaceDocument } from '../modules/knowledge/ingest.js';
import { markdownSections } from '../modules/knowledge/markdown.js';
import { RetrievalService } from '../modules/knowledge/retrieval.service.js';

/**
 * npm run eval:retrieval — retrieval quality on a committed corpus (eval/retrieval): trains a bot
 * on every page, asks each question and scores where the answering page's first passage ranks.
 */
const ROOT = fileURLToPath(new URL('../../../../eval/retrieval/', import.meta.url));
type Question = { q: string; page: string };

async function main(): Promise<void> {
  const pages = readdirSync(path.join(ROOT, 'corpus'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.md'))
    .sort();
  const questions = JSON.parse(readFileSync(path.join(ROOT, 'questions.json'), 'utf8')) as Question[];
  const database = await openDatabase({ kind: 'pglite' });
  const db = database.db;
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
      replaceDocument(tx, {
        tenantId: tenant!.id,
        sourceType: 'file',
        sourceId: index + 1,
        collectionId: group!.id,
        title: page,
        sections: markdownSections(text),
      }),
    );
    documentPage.set(result.documentId, page);
    chunkCount += result.chunkCount;
  }
  const indexedMs = performance.now() - started;

  const retrieval = new RetrievalService(db);
  const ranks: Array<number | null> = [];
  for (const { q, page } of questions) {
    const { hits } = await retrieval.search(tenant!.id, bot!.id, q, 10);
    const position = hits.findIndex((hit) => documentPage.get(hit.document_id) === page);
    ranks.push(position === -1 ? null : position + 1);
    if (position !== 0) {
      const got = hits[0] ? documentPage.get(hits[0].document_id) : 'nothing';
      console.log(
        `  miss@1  "${q}" → expected ${page}, rank ${position === -1 ? '>10' : position + 1}; first: ${got}`,
      );
    }
  }
  await database.close();

  const hitAt = (k: number) => ranks.filter((r) => r !== null && r <= k).length / ranks.length;
  const mrr = ranks.reduce<number>((sum, r) => sum + (r === null ? 0 : 1 / r), 0) / ranks.length;
  console.log(
    `\ncorpus: ${pages.length} pages, ${chunkCount} chunks, indexed in ${Math.round(indexedMs)} ms; ${questions.length} questions`,
  );
  console.log('| search | hit@1 | hit@3 | MRR |');
  console.log('|---|---:|---:|---:|');
  console.log(`| full-text | ${fmt(hitAt(1))} | ${fmt(hitAt(3))} | ${fmt(mrr)} |`);
  console.log(
    '| fused (full-text + vectors) | not run: no embedding endpoint is configured on this machine | | |',
  );
}

const fmt = (n: number) => n.toFixed(3);

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
