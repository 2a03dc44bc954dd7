// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.js';

const options = { imageHosts: ['api.example'], baseUrl: 'https://api.example' };
const render = (text: string) => renderMarkdown(text, options);
const dom = (text: string) => {
  const holder = document.createElement('div');
  holder.innerHTML = render(text);
  return holder;
};

describe('renderMarkdown', () => {
  it('renders Markdown: emphasis, lists, code, tables', () => {
    const html = render(
      '**Yes**, _we_ ship:\n\n- to Spain\n- to Peru\n\n`code`\n\n| a | b |\n|---|---|\n| 1 | 2 |',
    );
    expect(html).toContain('<strong>Yes</strong>');
    expect(html).toContain('<em>we</em>');
    expect(html).toContain('<li>to Spain</li>');
    expect(html).toContain('<code>code</code>');
    expect(html).toContain('<td>1</td>');
  });

  it('shows raw HTML as text, never as markup', () => {
    const holder = dom(
      'Hello <script>alert(1)</script> <b onclick="x()">bold</b>\n\n<img src=x onerror=alert(1)>',
    );
    expect(holder.querySelector('script, b, [onclick], [onerror]')).toBeNull();
    expect(holder.querySelector('img')).toBeNull();
    expect(holder.textContent).toContain('<script>alert(1)</script>');
    expect(holder.textContent).toContain('<b onclick="x()">bold</b>');
  });

  it('keeps http(s), mailto and tel links, opening in a new tab without referrer', () => {
    const links = dom(
      '[site](https://shop.example/a?b=1) and [mail](mailto:hi@shop.example) or [call us](tel:+34911234567)',
    ).querySelectorAll('a');
    expect(links).toHaveLength(3);
    expect(links[0]?.getAttribute('href')).toBe('https://shop.example/a?b=1');
    expect(links[0]?.getAttribute('target')).toBe('_blank');
    expect(links[0]?.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(links[1]?.getAttribute('href')).toBe('mailto:hi@shop.example');
    expect(links[2]?.getAttribute('href')).toBe('tel:+34911234567');
    expect(links[2]?.getAttribute('rel')).toBe('noopener noreferrer nofollow');
  });

  it('turns javascript:, data: and relative links into plain text', () => {
    const holder = dom(
      '[a](javascript:alert(1)) [b](data:text/html,<script>x</script>) [c](/admin) [d](JaVaScRiPt:alert(1))',
    );
    expect(holder.querySelector('a')).toBeNull();
    expect(holder.textContent?.trim()).toBe('a b c d');
  });

  it('loads images only from the allowed hosts, others become their alt text', () => {
    const holder = dom(
      '![logo](https://api.example/logo.png) ![relative](/api/chat/bots/images/x.png) ![track](https://evil.example/p.gif)',
    );
    const images = holder.querySelectorAll('img');
    expect(Array.from(images, (i) => i.getAttribute('src'))).toEqual([
      'https://api.example/logo.png',
      'https://api.example/api/chat/bots/images/x.png',
    ]);
    expect(holder.textContent).toContain('track');
    expect(holder.querySelector('[src*="evil"]')).toBeNull();
  });

  it('drops attributes it does not know', () => {
    const holder = dom('[x](https://shop.example "title")');
    const link = holder.querySelector('a');
    expect(link?.getAttribute('title')).toBe('title');
    expect(link?.getAttributeNames().sort()).toEqual(['href', 'rel', 'target', 'title']);
  });
});
