// Node 20's own TextDecoder reads windows-1252 as ISO-8859-1 (0x80 is a control character, not "€",
// and 0x93/0x94 are not curly quotes); this one follows the Encoding Standard.
import { getBOMEncoding, TextDecoder } from '@exodus/bytes/encoding.js';
import htmlEncodingSniffer from 'html-encoding-sniffer';

/**
 * What pages and files that say nothing of their encoding and are not UTF-8 are written in: the
 * Western European code page of older sites and of Excel's "CSV" on Windows (£, €, é). Browsers
 * assume the same for English.
 */
const LEGACY = 'windows-1252';

/** Tab, line feed, form feed and carriage return: the C0 control characters text holds. */
const TEXT_CONTROLS = new Set([9, 10, 12, 13]);
/** Text with more control characters than this share is a binary file named as text. */
const MAX_CONTROL_SHARE = 0.01;

/** Whether the bytes open with a UTF-8 or UTF-16 byte-order mark. */
export const hasByteOrderMark = (bytes: Uint8Array): boolean => getBOMEncoding(bytes) !== null;

/** The `charset` parameter of a Content-Type header, if any. */
export function charsetOf(contentType: string): string | undefined {
  return /;\s*charset\s*=\s*["']?([^"';\s]+)/i.exec(contentType)?.[1];
}

/**
 * An HTML page's text, decoded as a browser would: by its byte-order mark, the server's charset,
 * or its `<meta charset>` (the HTML Standard's sniffing, html-encoding-sniffer); failing all three,
 * as UTF-8 when the bytes are valid UTF-8, else as windows-1252. Decoding every page as UTF-8 turned
 * an ISO-8859-1 page's "£35" into "�35".
 */
export function decodeHtml(bytes: Uint8Array, contentType = ''): string {
  const declared = htmlEncodingSniffer(bytes, {
    transportLayerEncodingLabel: charsetOf(contentType),
    defaultEncoding: null,
  });
  return decodeAs(bytes, declared ?? undeclared(bytes));
}

/**
 * A text file's text (TXT, CSV, Markdown): by its byte-order mark (UTF-8 or UTF-16, as Excel's
 * "Unicode text" is), else UTF-8 when valid, else windows-1252. Null when the bytes are not text.
 */
export function decodeText(bytes: Uint8Array): string | null {
  const text = decodeAs(bytes, getBOMEncoding(bytes) ?? undeclared(bytes));
  return looksBinary(text) ? null : text;
}

function undeclared(bytes: Uint8Array): string {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return 'utf-8';
  } catch {
    return LEGACY;
  }
}

/** Decoded with the encoding named (a name the sniffer gave; UTF-8 should one not be known). */
function decodeAs(bytes: Uint8Array, encoding: string): string {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(encoding);
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(bytes);
}

function looksBinary(text: string): boolean {
  let controls = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0) return true;
    if (code < 32 && !TEXT_CONTROLS.has(code)) controls += 1;
  }
  return controls > text.length * MAX_CONTROL_SHARE;
}
