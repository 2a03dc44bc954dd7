import type { Section } from './chunker.js';

const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;
/** A line that opens or closes a fenced code block. */
export const CODE_FENCE = /^\s*(```|~~~)/;

/**
 * Markdown as sections, one per heading, each carrying the path of headings above it
 * ("Guide > Install > On Linux"), so a chunk keeps its context. Code fences are kept whole.
 */
export function markdownSections(markdown: string): Section[] {
  const sections: Section[] = [];
  const path: string[] = [];
  let lines: string[] = [];
  let inFence = false;
  const flush = () => {
    const text = lines.join('\n').trim();
    if (text) sections.push({ text, headingPath: path.filter(Boolean).join(' > ') || undefined });
    lines = [];
  };
  for (const line of markdown.split(/\r?\n/)) {
    if (CODE_FENCE.test(line)) inFence = !inFence;
    const heading = inFence ? null : HEADING.exec(line);
    if (!heading) {
      lines.push(line);
      continue;
    }
    flush();
    const level = heading[1]!.length;
    path.length = level - 1;
    path[level - 1] = cleanHeading(heading[2]!);
  }
  flush();
  return sections;
}

/** Link syntax and backticks out of a heading: "[Postgres](https://…)" reads "Postgres". */
const cleanHeading = (heading: string) =>
  heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replaceAll('`', '')
    .trim();
