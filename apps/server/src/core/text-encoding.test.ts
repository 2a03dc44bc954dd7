import { describe, expect, it } from 'vitest';
import { charsetOf, decodeHtml, decodeText } from './text-encoding.js';

/** Bytes of windows-1252 text: each character's code below 256 ("£" is 0xA3, "é" 0xE9). */
const latin1 = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0));
const utf8 = (text: string) => new TextEncoder().encode(text);
const utf16le = (text: string) => {
  const bytes = new Uint8Array(2 + text.length * 2);
  bytes.set([0xff, 0xfe]);
  for (let i = 0; i < text.length; i++) {
    bytes[2 + i * 2] = text.charCodeAt(i) & 0xff;
    bytes[3 + i * 2] = text.charCodeAt(i) >> 8;
  }
  return bytes;
};

describe('charsetOf', () => {
  it('reads the charset parameter, quoted or not, in any case', () => {
    expect(charsetOf('text/html; charset=ISO-8859-1')).toBe('ISO-8859-1');
    expect(charsetOf('text/html;charset="windows-1252"')).toBe('windows-1252');
    expect(charsetOf('text/html')).toBeUndefined();
  });
});

describe('decodeHtml', () => {
  const page = '<html><head><title>Café</title></head><body>Cut and finish £35</body></html>';

  it('decodes by the charset the server sends', () => {
    expect(decodeHtml(latin1(page), 'text/html; charset=iso-8859-1')).toContain('Cut and finish £35');
  });

  it('decodes by the page’s own <meta charset> when the server says nothing', () => {
    const declared = page.replace('<head>', '<head><meta charset="windows-1252">');
    expect(decodeHtml(latin1(declared), 'text/html')).toContain('<title>Café</title>');
    const pragma = page.replace(
      '<head>',
      '<head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">',
    );
    expect(decodeHtml(latin1(pragma))).toContain('£35');
  });

  it('reads undeclared bytes as UTF-8 when they are, else as windows-1252', () => {
    expect(decodeHtml(utf8(page))).toContain('Cut and finish £35');
    expect(decodeHtml(latin1(page))).toContain('Cut and finish £35');
  });

  it('lets a byte-order mark win over a wrong header, as browsers do', () => {
    const marked = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(page)]);
    expect(decodeHtml(marked, 'text/html; charset=iso-8859-1')).toContain('£35');
  });

  it('falls back to sniffing when the header names no known encoding', () => {
    expect(decodeHtml(latin1(page), 'text/html; charset=bogus')).toContain('£35');
  });
});

describe('decodeText', () => {
  it('reads UTF-8, windows-1252 (Excel’s CSV on Windows) and UTF-16 with its mark', () => {
    const csv = 'Service,Price\nCut and finish,£35\nCafé crème,€3\n';
    expect(decodeText(utf8(csv))).toBe(csv);
    expect(decodeText(Uint8Array.from([...latin1(csv.replace('€', '\u0080'))]))).toBe(csv);
    expect(decodeText(utf16le(csv))).toBe(csv);
  });

  it('refuses bytes that are not text', () => {
    expect(decodeText(new Uint8Array([0x50, 0x4b, 0x00, 0x01, 0x02]))).toBeNull();
    const noisy = Uint8Array.from({ length: 400 }, (_, i) => (i % 7 === 0 ? 0x01 : 0x41));
    expect(decodeText(noisy)).toBeNull();
  });
});
