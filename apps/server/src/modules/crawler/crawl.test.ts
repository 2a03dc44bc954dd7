import { describe, expect, it } from 'vitest';
import { cleanUrl, extractPage, normalizeUrl } from './crawl.js';

describe('normalizeUrl', () => {
  it('drops the fragment and default port, sorts the query, trims trailing slashes except the root', () => {
    expect(normalizeUrl('HTTP://Example.COM:80/a/b/?z=1&a=2#top')).toBe('http://example.com/a/b?a=2&z=1');
    expect(normalizeUrl('https://example.com')).toBe('https://example.com/');
    expect(normalizeUrl('https://example.com/?')).toBe('https://example.com/');
    expect(normalizeUrl('../up/', 'https://example.com/a/b/')).toBe('https://example.com/a/up');
    expect(normalizeUrl('mailto:someone@example.com')).toBeNull();
    expect(normalizeUrl('javascript:void(0)')).toBeNull();
  });

  it('drops campaign tags and session ids: a page reached with them is the same page', () => {
    expect(normalizeUrl('https://cafe.example/menu/?utm_source=fb&utm_campaign=spring&fbclid=IwAR1')).toBe(
      'https://cafe.example/menu',
    );
    expect(normalizeUrl('https://cafe.example/contact?PHPSESSID=abc&lang=fr&gclid=x')).toBe(
      'https://cafe.example/contact?lang=fr',
    );
    expect(normalizeUrl('https://cafe.example/shop;jsessionid=A1B2?page=2')).toBe(
      'https://cafe.example/shop?page=2',
    );
  });
});

describe('cleanUrl', () => {
  it('keeps the path as the site writes it (its trailing slash) and a query without visit parameters as it is', () => {
    expect(cleanUrl('/catering/#quote', 'https://Cafe.Example:443/')).toBe('https://cafe.example/catering/');
    expect(cleanUrl('https://cafe.example/menu?z=1&a=2&utm_medium=email')).toBe(
      'https://cafe.example/menu?z=1&a=2',
    );
    expect(cleanUrl('https://cafe.example/search?q=gluten%20free')).toBe(
      'https://cafe.example/search?q=gluten%20free',
    );
    expect(cleanUrl('tel:+441134960000')).toBeNull();
  });
});

describe('extractPage', () => {
  it('keeps the title and main content, drops navigation, footer and scripts, reads canonical and links', async () => {
    const body = 'The main content explains returns and refunds in plain words. '.repeat(8);
    const html = `<html><head><title> Returns </title><link rel="canonical" href="/returns/#x">
      <script>var secret = "SCRIPT";</script><style>.a{}</style></head>
      <body><nav>NAVIGATION <a href="/a?b=2&a=1#f">A</a></nav><header>HEADER</header>
      <main><article><h1>Returns</h1><p>${body}</p><a href="https://other.example/x">x</a>
      <a href="/skip" rel="nofollow">skip</a></article></main><footer>FOOTER</footer></body></html>`;
    const page = await extractPage(html, 'https://shop.example/returns?utm=1');
    expect(page.title).toBe('Returns');
    // As the site writes it (fetched and cited so); normalizeUrl tells it from /returns.
    expect(page.canonical).toBe('https://shop.example/returns/');
    expect(page.text).toContain('returns and refunds');
    expect(page.text).not.toMatch(/NAVIGATION|FOOTER|SCRIPT/);
    expect(page.links).toEqual(['https://shop.example/a?b=2&a=1', 'https://other.example/x']);
  });

  it('follows a meta refresh as a link', async () => {
    const html = `<html><head><meta http-equiv="Refresh" content="0; URL='/home.html'"><title>Loading</title></head>
      <body></body></html>`;
    const page = await extractPage(html, 'https://shop.example/');
    expect(page.links).toEqual(['https://shop.example/home.html']);
  });

  it('resolves relative links against the page’s <base href>, as a browser does', async () => {
    const html = `<html><head><base href="https://shop.example/en/"><title>Menu</title></head>
      <body><main><p>Our menu changes with the seasons, and so do our prices.</p>
      <a href="menu.pdf">Menu</a> <a href="../about">About</a> <a href="/contact">Contact</a></main></body></html>`;
    const page = await extractPage(html, 'https://shop.example/en/food/menu');
    expect(page.links).toEqual([
      'https://shop.example/en/menu.pdf',
      'https://shop.example/about',
      'https://shop.example/contact',
    ]);
  });
});
