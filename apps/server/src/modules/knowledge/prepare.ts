import { sha256 } from '../../core/crypto.js';
import { type ChunkDraft, chunkSections, type Section } from './chunker.js';
import { detectLanguage, type Language } from './languages.js';

/** A document's text made ready to store: chunked, measured, fingerprinted and its language told. */
export type PreparedText = {
  drafts: ChunkDraft[];
  characterCount: number;
  contentHash: string;
  language: Language;
};

/**
 * Chunks a document's sections and fingerprints them with its title and URL. Pure CPU work that
 * costs seconds on megabytes of text, so uploaded files are prepared in the extraction workers
 * (which import this module alone, without the database).
 */
export function prepareText(
  title: string,
  url: string | null | undefined,
  sections: Section[],
): PreparedText {
  return {
    drafts: chunkSections(sections),
    characterCount: sections.reduce((n, s) => n + s.text.length, 0),
    contentHash: sha256(JSON.stringify([title, url ?? null, sections])),
    language: detectLanguage(languageSample(title, sections)),
  };
}

/** The text a document's language is told from: its title and the start of its sections. */
function languageSample(title: string, sections: Section[]): string {
  let sample = title;
  for (const section of sections) {
    if (sample.length >= LANGUAGE_SAMPLE_CHARS) break;
    sample += `\n${section.text}`;
  }
  return sample;
}
const LANGUAGE_SAMPLE_CHARS = 4000;
