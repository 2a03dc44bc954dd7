// Entry of the extraction pool's worker threads (extract-pool.ts): one file's text, or the reason it
// has none. Errors are returned as values, so the pool can tell a file Parley cannot read from a
// worker that died.
import type { FileKind } from '@parley/contracts';
import type { Section } from '../knowledge/chunker.js';
import { ExtractionError, extractSections } from './extract.js';
import type { ZipLimits } from './zip-guard.js';

export type ExtractTask = { kind: FileKind; content: Uint8Array; zipLimits: ZipLimits };
export type ExtractResult = { sections: Section[] } | { error: string };

export default async function extract({ kind, content, zipLimits }: ExtractTask): Promise<ExtractResult> {
  try {
    return { sections: await extractSections(kind, content, zipLimits) };
  } catch (error) {
    if (error instanceof ExtractionError) return { error: error.message };
    // A parser that throws on this content will throw again: the file is unreadable, not the attempt.
    return { error: `The ${kind.toUpperCase()} file could not be read` };
  }
}
