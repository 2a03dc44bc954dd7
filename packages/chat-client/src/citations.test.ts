import type { MessageSourceRef } from '@parley/contracts';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { citationTitle, linkCitations } from './citations.js';
import { renderMarkdown } from './markdown.js';

const page = (title: string, url: string | null, heading_path: string | null = null): MessageSourceRef => ({
  source_type: url ? 'web' : 'file',
  page_title: title,
  page_url: url,
  page_number: null,
  heading_path,
});

const sources = [
  page('Shipping', 'https://shop.example/shipping#canada', 'Shipping › Canada'),
  page('Returns.pdf', null),
  page('Evil', 'javascript:alert(1)'),
];

describe('linkCitations', () => {
  it('links a marker to its source’s section, numbers a source with no address, drops one for no source', () => {
    expect(linkCitations('Five days [1]. Thirty days [2]. Free [4].', sources)).toBe(
      'Five days [\\[1\\]](<https://shop.example/shipping#canada> "Shipping › Canada"). Thirty days ². Free .',
    );
    // A script address is never linked.
    expect(linkCitations('Click [3]', sources)).toBe('Click ³');
    // Markdown links and references are left alone.
    expect(linkCitations('[1](https://a.example) and [1]: x', sources)).toBe(
      '[1](https://a.example) and [1]: x',
    );
  });

  it('renders as a safe link opening in a new tab, with no raw marker left', () => {
    const { window } = new JSDOM('');
    const html = renderMarkdown(linkCitations('Five days [1].', sources), {
      imageHosts: [],
      window: window as never,
    });
    const link = new JSDOM(html).window.document.querySelector('a')!;
    expect(link.textContent).toBe('[1]');
    expect(link.getAttribute('href')).toBe('https://shop.example/shipping#canada');
    expect(link.getAttribute('title')).toBe('Shipping › Canada');
    expect(link.getAttribute('target')).toBe('_blank');
  });

  it('titles a citation with its page and section', () => {
    expect(citationTitle(sources[0]!)).toBe('Shipping › Canada');
    expect(citationTitle(page('Guide', null, 'Guide > Part 2'))).toBe('Guide › Part 2');
    expect(citationTitle(page('Guide', null))).toBe('Guide');
  });
});
