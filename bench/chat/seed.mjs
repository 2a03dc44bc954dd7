// bench/chat: bulk knowledge for the Parley server process (the way bench/retrieval/worker.mjs
// loads it): chunks of the retrieval evaluation's corpus at the lengths Parley's chunker cuts,
// 10% in the file group attached to the bench bot, 20% in its tenant's other groups, 70% in other
// tenants; multi-row inserts straight to the driver, GIN index rebuilt once, then VACUUM ANALYZE.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { corpusParagraphs } from '../ingest/make-pdf.mjs';
import { chunkLoader } from '../shared/chunk-loader.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const dist = (file) => pathToFileURL(path.join(root, 'apps/server/dist', file)).href;

const { tenants, fileGroups } = await import(dist('core/db/schema.js'));
const { chunkSections } = await import(dist('modules/knowledge/chunker.js'));
const { markdownSections } = await import(dist('modules/knowledge/markdown.js'));

const BOT_SHARE = 0.1;
const OTHER_GROUPS_SHARE = 0.2;
const OTHER_TENANTS = 9;
const CHUNKS_PER_DOCUMENT = 50;
const BATCH = 1000;

const corpusDir = path.join(root, 'eval/retrieval/corpus');
const paragraphs = corpusParagraphs(corpusDir);
const chunkLengths = readdirSync(corpusDir, { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.md'))
  .flatMap((f) => chunkSections(markdownSections(readFileSync(path.join(corpusDir, f), 'utf8'))))
  .map((c) => c.content.length);

/** The retrieval evaluation's natural questions: each matches passages of the corpus. */
export const QUESTIONS = JSON.parse(
  readFileSync(path.join(root, 'eval/retrieval/questions.json'), 'utf8'),
).map((q) => q.q);

// Deterministic pseudo-random numbers (mulberry32), so every run loads the same text.
let seed = 0x5eed;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (list) => list[Math.floor(random() * list.length)];

function chunkText() {
  let i = Math.floor(random() * paragraphs.length);
  const target = pick(chunkLengths);
  const parts = [];
  let length = 0;
  while (length === 0 || length < target) {
    const paragraph = paragraphs[i % paragraphs.length];
    parts.push(paragraph);
    length += paragraph.length + 2;
    i += random() < 0.8 ? 1 : 1 + Math.floor(random() * 50);
  }
  return parts.join('\n\n');
}

/**
 * A loader for one tenant (the bench owner's): `fill(total)` adds chunks up to `total` and answers
 * the id of the file group to attach to the bot and how many chunks it holds.
 */
export async function knowledgeLoader(db, { tenantId, userId }) {
  const groups = await db
    .insert(fileGroups)
    .values([0, 1, 2, 3, 4].map((i) => ({ tenantId, userId, groupName: `bench_chat_${i}` })))
    .returning();
  const others = [];
  for (let t = 0; t < OTHER_TENANTS; t++) {
    const [other] = await db
      .insert(tenants)
      .values({ name: `Bench chat other ${t}` })
      .returning();
    const [group] = await db.insert(fileGroups).values({ tenantId: other.id, groupName: 'docs' }).returning();
    others.push({ tenantId: other.id, collectionId: group.id });
  }
  const placeOf = (n) => {
    const x = (n * 0.6180339887) % 1;
    if (x < BOT_SHARE) return { tenantId, collectionId: groups[0].id };
    if (x < BOT_SHARE + OTHER_GROUPS_SHARE) return { tenantId, collectionId: groups[1 + (n % 4)].id };
    return others[n % others.length];
  };

  let botChunks = 0;
  const loader = chunkLoader(db, {
    placeOf,
    chunkText,
    chunksPerDocument: CHUNKS_PER_DOCUMENT,
    batch: BATCH,
    firstSourceId: 1_000_000,
    onPlaced: (place) => {
      if (place.collectionId === groups[0].id) botChunks += 1;
    },
  });
  async function fill(total) {
    const loaded = await loader.fill(total);
    return { groupId: groups[0].id, botChunks, total: loaded };
  }
  return { fill };
}
