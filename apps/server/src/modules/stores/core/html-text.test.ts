import { describe, expect, it } from 'vitest';
import { htmlToText } from './html-text.js';

describe('htmlToText', () => {
  it('keeps headings as Markdown, paragraphs and list items apart, and drops scripts', () => {
    const html =
      '<h2>Grip</h2><p>Lugs that hold on <em>wet</em>&nbsp;rock.</p><ul><li>Care: wash cold</li><li>Fit: regular</li></ul><script>alert(1)</script>';
    expect(htmlToText(html)).toBe(
      '## Grip\n\nLugs that hold on wet rock.\n\nCare: wash cold\n\nFit: regular',
    );
  });

  it('decodes entities, separates table cells and answers empty for blank HTML', () => {
    expect(htmlToText('<p>Fish &amp; chips</p><table><tr><td>Size</td><td>M</td></tr></table>')).toBe(
      'Fish & chips\n\nSize M',
    );
    expect(htmlToText('  ')).toBe('');
    expect(htmlToText('plain text')).toBe('plain text');
  });
});
