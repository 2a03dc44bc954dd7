import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';

/**
 * A stretch of a document's text that shares a page and a heading path; `anchor` is the id of its
 * heading in the page, so a citation can link to the section (`page.html#anchor`).
 */
export type Section = { text: string; headingPath?: string; pageNumber?: number; anchor?: string };

export type ChunkDraft = {
  chunkIndex: number;
  content: string;
  headingPath: string | null;
  pageNumber: number | null;
  anchor: string | null;
  tokenCount: number;
};

export const CHUNK_TOKENS = 800;
export const OVERLAP_TOKENS = 100;

type Piece = { text: string; tokens: number };

/**
 * Splits sections into chunks of about `maxTokens`, never across a page or heading boundary (so
 * page_number and heading_path stay true), carrying about `overlapTokens` of the previous chunk
 * into the next so a passage cut in two is still found whole. A chunk always holds something new:
 * one made only of carried-over text is never emitted.
 */
export function chunkSections(
  sections: Section[],
  maxTokens = CHUNK_TOKENS,
  overlapTokens = OVERLAP_TOKENS,
): ChunkDraft[] {
  const drafts: ChunkDraft[] = [];
  for (const section of sections) {
    let current: Piece[] = [];
    let carried = 0;
    const emit = () => {
      drafts.push({
        chunkIndex: drafts.length,
        content: current.map((p) => p.text).join('\n\n'),
        headingPath: section.headingPath ?? null,
        pageNumber: section.pageNumber ?? null,
        anchor: section.anchor ?? null,
        tokenCount: sum(current),
      });
    };
    for (const piece of splitPieces(section.text, maxTokens)) {
      if (sum(current) + piece.tokens > maxTokens) {
        if (sum(current) > carried) emit();
        current = overlapTail(current, overlapTokens);
        // The overlap gives way when it and the next piece would not fit together.
        if (sum(current) + piece.tokens > maxTokens) current = [];
        carried = sum(current);
      }
      current.push(piece);
    }
    if (sum(current) > carried) emit();
  }
  return drafts;
}

const sum = (pieces: Piece[]) => pieces.reduce((n, p) => n + p.tokens, 0);

/** Paragraphs, and sentences of paragraphs too long for one chunk. */
function splitPieces(text: string, maxTokens: number): Piece[] {
  const pieces: Piece[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    // An empty table cell ("Croissant |  | £2.50") keeps its two spaces: read as "a | | b", the
    // cells after it would move under the wrong headers.
    const clean = paragraph
      .replace(/[ \t]+/g, ' ')
      .replace(/ \|(?= \|)/g, ' | ')
      .trim();
    if (!clean) continue;
    const tokens = countTokens(clean);
    if (tokens <= maxTokens) {
      pieces.push({ text: clean, tokens });
      continue;
    }
    for (const sentence of sentencesOf(clean)) pieces.push(...hardSplit(sentence, maxTokens));
  }
  return pieces;
}

/** A sentence longer than a chunk (tables, code) is halved by words until each half fits. */
function hardSplit(text: string, maxTokens: number): Piece[] {
  const tokens = countTokens(text);
  if (tokens <= maxTokens) return [{ text, tokens }];
  const words = text.split(/\s+/);
  if (words.length < 2) return [{ text, tokens }];
  const middle = Math.ceil(words.length / 2);
  return [
    ...hardSplit(words.slice(0, middle).join(' '), maxTokens),
    ...hardSplit(words.slice(middle).join(' '), maxTokens),
  ];
}

/**
 * The end of a chunk to repeat at the start of the next: whole trailing pieces while they fit the
 * budget, else the trailing sentences of the last piece.
 */
function overlapTail(pieces: Piece[], overlapTokens: number): Piece[] {
  const tail: Piece[] = [];
  let tokens = 0;
  for (let i = pieces.length - 1; i >= 0 && tokens + pieces[i]!.tokens <= overlapTokens; i--) {
    tail.unshift(pieces[i]!);
    tokens += pieces[i]!.tokens;
  }
  if (tail.length > 0 || pieces.length === 0) return tail;
  const sentences = sentencesOf(pieces.at(-1)!.text);
  let text = '';
  for (let i = sentences.length - 1; i >= 0; i--) {
    const candidate = text ? `${sentences[i]} ${text}` : sentences[i]!;
    if (countTokens(candidate) > overlapTokens) break;
    text = candidate;
  }
  return text ? [{ text, tokens: countTokens(text) }] : [];
}

/** A text cut after each full stop, question or exclamation mark that a space follows. */
export const sentencesOf = (text: string) => text.split(/(?<=[.!?])\s+/);
