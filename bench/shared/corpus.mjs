// Shared by bench/retrieval and bench/chat: text cut from the retrieval evaluation's corpus (the
// same on every run) at the lengths Parley's own chunker cuts it, and the evaluation's questions.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { corpusParagraphs } from '../ingest/make-pdf.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = (file) => pathToFileURL(path.join(root, 'apps/server/dist', file)).href;
const { chunkSections } = await import(dist('modules/knowledge/chunker.js'));
const { markdownSections } = await import(dist('modules/knowledge/markdown.js'));

const corpusDir = path.join(root, 'eval/retrieval/corpus');
export const paragraphs = corpusParagraphs(corpusDir);
// Chunk lengths as Parley's chunker cuts the corpus (mean about 850 characters, some 3,000+), so
// the bulk rows have the sizes real ones would.
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
export const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
export const pick = (list) => list[Math.floor(random() * list.length)];

/** A chunk's text: consecutive corpus paragraphs from a random place, as long as a chunk Parley makes. */
export function chunkText() {
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
