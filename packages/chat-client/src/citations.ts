import type { MessageSourceRef } from '@parley/contracts';
import { safeUrl } from './safe-url.js';

const SUPERSCRIPT = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
const superscript = (n: number) => [...String(n)].map((digit) => SUPERSCRIPT[Number(digit)]).join('');

/** A `[n]` marker not followed by `(` or `:` (so Markdown links and references are left alone). */
const MARKER = /\[(\d{1,2})\](?![(:])/g;

/**
 * A model's answer with its `[n]` citation markers made usable, never shown raw: a marker whose
 * source has a web address becomes a Markdown link to it (the section's anchor included, titled
 * with the page and section); one whose source has none (a file, a Q&A pair) becomes a superscript
 * number matching the numbered source list under the answer; a marker for no listed source is
 * dropped (the server already renumbers them; this guards older stored messages).
 */
export function linkCitations(text: string, sources: readonly MessageSourceRef[]): string {
  if (!text.includes('[')) return text;
  return text.replace(MARKER, (_marker, digits: string) => {
    const n = Number(digits);
    const source = sources[n - 1];
    if (!source) return '';
    const url = source.page_url ? safeUrl(source.page_url) : '';
    if (!url || url.startsWith('mailto:')) return superscript(n);
    const title = citationTitle(source).replace(/["\\]/g, '');
    return `[\\[${n}\\]](<${url.replace(/[<>\s]/g, encodeURIComponent)}> "${title}")`;
  });
}

/** "Page title › Section", or what a source has of it. */
export function citationTitle(source: MessageSourceRef): string {
  const title = source.page_title || source.page_url || source.source_type;
  const section = source.heading_path?.split(/\s+[›>]\s+/).at(-1);
  return section && section !== title ? `${title} › ${section}` : title;
}

/** Whether an answer's text numbers its sources (so the list under it shows those numbers). */
export const citesByNumber = (text: string) => /\[\d{1,2}\](?![(:])/.test(text);
