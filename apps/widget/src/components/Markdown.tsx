import { type MarkdownOptions, renderMarkdown } from '@parley/chat-client/markdown';
import { useMemo } from 'preact/hooks';

/** Bot text as sanitised Markdown: no raw HTML, safe links, images only from the allowed hosts. */
export function Markdown({ text, options }: { text: string; options: MarkdownOptions }) {
  const html = useMemo(() => renderMarkdown(text, options), [text, options]);
  // renderMarkdown escapes raw HTML and sanitises what Markdown made (DOMPurify).
  // dir="auto": an answer in Arabic or Hebrew reads right to left in a widget that speaks English.
  return <div class="md" dir="auto" dangerouslySetInnerHTML={{ __html: html }} />;
}
