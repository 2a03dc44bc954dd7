// bench/chat: bulk knowledge for the Parley server process (the way bench/retrieval/worker.mjs
// loads it): chunks of the retrieval evaluation's corpus at the lengths Parley's chunker cuts,
// 10% in the file group attached to the bench bot, 20% in its tenant's other groups, 70% in other
// tenants; multi-row inserts straight to the driver, GIN index rebuilt once, then VACUUM ANALYZE.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chunkLoader } from '../shared/chunk-loader.mjs';
import { chunkText } from '../shared/corpus.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const dist = (file) => pathToFileURL(path.join(root, 'apps/server/dist', file)).href;

const { tenants, fileGroups } = await import(dist('core/db/schema.js'));

const BOT_SHARE = 0.1;
const OTHER_GROUPS_SHARE = 0.2;
const OTHER_TENANTS = 9;
const CHUNKS_PER_DOCUMENT = 50;
const BATCH = 1000;

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
