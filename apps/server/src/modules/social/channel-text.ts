import type { SocialChannel } from '@parley/contracts';
import type { MessageRow } from '../chat/chat.queries.js';

/** The send APIs' text limits: Messenger 2,000 characters, Instagram 1,000, WhatsApp 4,096. */
export const TEXT_LIMIT: Record<SocialChannel | 'whatsapp', number> = {
  messenger: 2000,
  instagram: 1000,
  whatsapp: 4096,
};

/**
 * A stored message as the channel shows it: plain text (these channels render no markdown), the
 * sources as a short numbered list of links, split at the channel's limit on paragraph, line or
 * word boundaries.
 */
export function partsFor(
  channel: SocialChannel | 'whatsapp',
  message: Pick<MessageRow, 'message' | 'sources'>,
): string[] {
  const links = message.sources
    .filter((source) => source.page_url)
    .map((source, index) => `${index + 1}. ${source.page_title ?? source.page_url} ${source.page_url}`);
  const text = plain(message.message);
  const whole = links.length ? `${text}\n\nSources:\n${links.join('\n')}` : text;
  return split(whole, TEXT_LIMIT[channel]);
}

/** Markdown to plain text: links keep their address, emphasis and headings lose their marks. */
export function plain(markdown: string): string {
  return markdown
    .replace(/!\[([^\]]*)\]\(([^)\s]+)\)/g, '$1 $2')
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, '$1 ($2)')
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/`{1,3}([^`]+)`{1,3}/g, '$1')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Pieces of at most `limit` characters, cut at the last paragraph, line or space break before it. */
export function split(text: string, limit: number): string[] {
  const parts: string[] = [];
  let rest = text.trim();
  while (rest.length > limit) {
    const window = rest.slice(0, limit);
    const cut = [window.lastIndexOf('\n\n'), window.lastIndexOf('\n'), window.lastIndexOf(' ')].find(
      (at) => at > limit / 2,
    );
    const end = cut ?? limit;
    parts.push(rest.slice(0, end).trim());
    rest = rest.slice(end).trim();
  }
  if (rest) parts.push(rest);
  return parts.length ? parts : [''];
}
