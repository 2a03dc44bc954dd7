// Entry of the extraction pool's worker processes (extract-pool.ts): one file's text, chunked and
// fingerprinted ready to store (chunking megabytes of text takes seconds, which the event loop that
// answers every tenant must not spend), or the reason it has none. Errors are returned as values, so
// the pool can tell a file Parley cannot read from a worker that died.
import type { FileKind } from '@parley/contracts';
import workerpool from 'workerpool';
import type { ChunkDraft } from '../knowledge/chunker.js';
import { type PreparedText, prepareText } from '../knowledge/prepare.js';
import { ExtractionError, extractSections } from './extract.js';
import type { ZipLimits } from './zip-guard.js';

/** `title` is part of the document's fingerprint (ingest.ts `prepareText`). */
export type ExtractTask = {
  kind: FileKind;
  content: Uint8Array;
  title: string;
  zipLimits: ZipLimits;
  /** Time the file's scanned pages may spend in OCR (within the pool's time limit for the file). */
  ocrBudgetMs: number;
};
/** The chunks arrive before it as `DraftBatch` events, in order. */
export type ExtractResult = (Omit<PreparedText, 'drafts'> & { chunkCount: number }) | { error: string };
export type DraftBatch = { drafts: ChunkDraft[] };

/**
 * Chunks per message. The server decodes each message on its event loop: 20 MB of chunks in one
 * message held it for a quarter of a second; this many take a few milliseconds.
 */
const DRAFTS_PER_MESSAGE = 200;

async function extract({
  kind,
  content,
  title,
  zipLimits,
  ocrBudgetMs,
}: ExtractTask): Promise<ExtractResult> {
  let prepared: PreparedText;
  try {
    prepared = prepareText(title, null, await extractSections(kind, content, zipLimits, ocrBudgetMs));
  } catch (error) {
    if (error instanceof ExtractionError) return { error: error.message };
    // A parser that throws on this content will throw again: the file is unreadable, not the attempt.
    return { error: `The ${kind.toUpperCase()} file could not be read` };
  }
  const { drafts, ...measured } = prepared;
  for (let i = 0; i < drafts.length; i += DRAFTS_PER_MESSAGE) {
    workerpool.workerEmit({ drafts: drafts.slice(i, i + DRAFTS_PER_MESSAGE) } satisfies DraftBatch);
  }
  return { chunkCount: drafts.length, ...measured };
}

workerpool.worker({ extract });
