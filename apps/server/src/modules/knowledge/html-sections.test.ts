import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { BoilerplateLearner, readBlocks, sectionsOf } from './html-sections.js';

const blocksOf = (html: string) => readBlocks(new JSDOM(html).window.document);
const sectionsFrom = (html: string, title = 'Server Configuration') => sectionsOf(blocksOf(html), title);

/** A reference page in the DocBook shape of the PostgreSQL manual: sibling sect2 divs, ids on the divs. */
const REFERENCE = `<html><body>
  <div class="navheader"><a href="/">Home</a> <a href="/next">Next</a></div>
  <div id="docContent"><div class="sect1" id="runtime-config">
    <h2 class="title">Server Configuration</h2><p>Parameters are set in the configuration file.</p>
    ${Array.from(
      { length: 6 },
      (_, i) => `<div class="sect2" id="section-${i + 1}"><h3 class="title">Section ${i + 1} Settings</h3>
        <dl><dt>setting_${i + 1}</dt><dd>Controls behaviour number ${i + 1} of the server.</dd></dl></div>`,
    ).join('')}
  </div></div>
  <div class="navfooter"><a href="/prev">Prev</a> Up Home</div></body></html>`;

const REFUND =
  'Return any item within thirty days for a full refund. Pack it in its box, print the label from your order page and drop it at any post office; the refund reaches your card within five working days.';

describe('readBlocks and sectionsOf', () => {
  it('keeps every sibling section in order, each under its heading path with its anchor', () => {
    const sections = sectionsFrom(REFERENCE);
    expect(sections).toHaveLength(7);
    expect(sections[0]).toMatchObject({
      headingPath: 'Server Configuration',
      anchor: 'runtime-config',
      text: 'Parameters are set in the configuration file.',
    });
    expect(sections[6]).toMatchObject({
      headingPath: 'Server Configuration > Section 6 Settings',
      anchor: 'section-6',
      text: 'setting_6\n\nControls behaviour number 6 of the server.',
    });
    const all = sections.map((s) => s.text).join('\n');
    expect(all).not.toMatch(/Prev|Next|Home/);
  });

  it("keeps a heading whose text sits in a link named like furniture (Sphinx's toc-backref)", () => {
    const html = `<html><body><div role="main"><section id="why-is-it-slow">
      <h2><a class="toc-backref" href="#id3">Why is my program slow?</a></h2>
      <p>Profile it first, then look at the hot loops.</p><p>${REFUND}</p></section></div></body></html>`;
    expect(sectionsFrom(html, 'FAQ')).toEqual([
      expect.objectContaining({ headingPath: 'FAQ > Why is my program slow?', anchor: 'why-is-it-slow' }),
    ]);
  });

  it('never glues a heading, list item, cell or line to the next', () => {
    const blocks =
      blocksOf(`<body><main><h2>Connection Settings</h2>listen_addresses<ul><li>one</li><li>two</li></ul>
      line<br>break<table><tr><th>Name</th><th>Default</th></tr><tr><td>port</td><td>5432</td></tr></table>
      <pre><code>initdb -D /data
  --locale C</code></pre></main></body>`);
    expect(blocks.map((b) => b.text)).toEqual([
      'Connection Settings',
      'listen_addresses',
      'one',
      'two',
      'line\nbreak',
      'Name | Default\nport | 5432',
      '```\ninitdb -D /data\n  --locale C\n```',
    ]);
  });

  it("reads a paragraph the page's source wraps over lines as one line", () => {
    const blocks = blocksOf(`<body><main><p>Suspend execution of the calling thread for the given
      number of seconds.
      The argument may be a float.</p></main></body>`);
    expect(blocks.map((b) => b.text)).toEqual([
      'Suspend execution of the calling thread for the given number of seconds. The argument may be a float.',
    ]);
  });

  it('drops cookie banners, hidden text, permalink signs and scripts, keeps a section-header wrapper', () => {
    const sections = sectionsFrom(
      `<body><main>
      <div class="cookie-banner">We use cookies to improve your experience on this website.</div>
      <div class="section-header"><h2 id="returns">Returns<a class="headerlink" href="#returns">¶</a></h2></div>
      <p>${REFUND}</p><p hidden>secret</p>
      <script>var x = 1;</script></main></body>`,
      'Help',
    );
    expect(sections).toEqual([{ headingPath: 'Help > Returns', anchor: 'returns', text: REFUND }]);
  });
});

describe('navigation inside the main content', () => {
  it('drops blocks that are nearly all link text and keeps prose that links a few words', () => {
    const blocks = blocksOf(`<main><h1>Index</h1>
      <ul><li><a href="/a">abs() (built-in function)</a></li><li><a href="/b">aifc (module)</a>, <a href="/c">[1]</a></li></ul>
      <p>Use <a href="/time">time.sleep()</a> to pause the program for a number of seconds before going on.</p>
      <p>Next: <a href="/next">Data types</a></p></main>`);
    expect(blocks.map((b) => b.text)).toEqual([
      'Index',
      'Use time.sleep() to pause the program for a number of seconds before going on.',
      'Next: Data types',
    ]);
  });
});

describe('BoilerplateLearner', () => {
  it('drops the blocks a site repeats on most pages and keeps each page its own text', () => {
    const learner = new BoilerplateLearner();
    const page = (i: number) =>
      blocksOf(
        `<body><p>Home</p><h1>Page ${i}</h1><p>Unique text of page ${i}.</p><p>© 2026 Shop Ltd. All rights reserved.</p></body>`,
      );
    const pages = [1, 2, 3, 4].map(page);
    for (const blocks of pages) learner.observe(blocks);
    expect(sectionsOf(pages[0]!, 'Page 1', learner.isBoilerplate)).toEqual([
      { headingPath: 'Page 1', anchor: undefined, text: 'Unique text of page 1.' },
    ]);
  });

  it('learns nothing from fewer than three pages', () => {
    const learner = new BoilerplateLearner();
    const blocks = blocksOf('<body><p>Home</p><p>Text</p></body>');
    learner.observe(blocks);
    learner.observe(blocks);
    expect(learner.isBoilerplate('Home')).toBe(false);
  });
});
