import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { BoilerplateLearner, readBlocks, sectionsOf, tableRows } from './html-sections.js';

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
      text: 'setting_6: Controls behaviour number 6 of the server.',
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

  it('reads a definition list term and its definition as one line, a question term with a space', () => {
    const blocks = blocksOf(`<body><main><dl>
      <dt>Vinho Verde (white)</dt><dd>$10 glass · $38 bottle</dd>
      <dt>Fall term:</dt><dd>Monday, September 14</dd>
      <dt>Can I park nearby?</dt><dd>Yes, on Alder Street.</dd><dd>Or behind the bakery.</dd>
    </dl><p>After the list.</p></main></body>`);
    expect(blocks.map((b) => b.text)).toEqual([
      'Vinho Verde (white): $10 glass · $38 bottle',
      'Fall term: Monday, September 14',
      'Can I park nearby? Yes, on Alder Street.',
      'Or behind the bakery.',
      'After the list.',
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

describe('sections of DocBook pages', () => {
  /** As DocBook XSL writes them: ids on the section divs, titles wrapped in div.titlepage, notes as h3. */
  const section = (id: string, title: string, body: string) =>
    `<div class="sect2" id="${id}"><div class="titlepage"><div><div><h3 class="title">${title}</h3></div></div></div>${body}</div>`;
  const PAGE = `<html><body><div class="navheader"><a href="prev.html">Prev</a></div>
    <div class="sect1" id="RUNTIME-CONFIG-REPLICATION"><div class="titlepage"><div><div><h2 class="title">20.6. Replication</h2></div></div></div>
    <p>These settings control streaming replication.</p>
    ${section(
      'RUNTIME-CONFIG-REPLICATION-SENDER',
      '20.6.1. Sending Servers',
      `<p>These parameters are set on the sending server.</p>
      <div class="note"><h3 class="title">Note</h3><p>Restart the server after changing them.</p></div>
      <dl class="variablelist"><dt>max_wal_senders</dt><dd>Sets the maximum number of walsender processes.</dd></dl>`,
    )}
    ${section('RUNTIME-CONFIG-REPLICATION-PRIMARY', '20.6.2. Primary Server', '<p>These are set on the primary.</p>')}
    </div></body></html>`;

  it("keeps the text after a note under its section's heading, the note under it too, each with the section's anchor", () => {
    expect(sectionsFrom(PAGE, '20.6. Replication')).toEqual([
      {
        headingPath: '20.6. Replication',
        anchor: 'RUNTIME-CONFIG-REPLICATION',
        text: 'These settings control streaming replication.',
      },
      {
        headingPath: '20.6. Replication > 20.6.1. Sending Servers',
        anchor: 'RUNTIME-CONFIG-REPLICATION-SENDER',
        text: 'These parameters are set on the sending server.',
      },
      {
        headingPath: '20.6. Replication > 20.6.1. Sending Servers > Note',
        anchor: 'RUNTIME-CONFIG-REPLICATION-SENDER',
        text: 'Restart the server after changing them.',
      },
      {
        headingPath: '20.6. Replication > 20.6.1. Sending Servers',
        anchor: 'RUNTIME-CONFIG-REPLICATION-SENDER',
        text: 'max_wal_senders: Sets the maximum number of walsender processes.',
      },
      {
        headingPath: '20.6. Replication > 20.6.2. Primary Server',
        anchor: 'RUNTIME-CONFIG-REPLICATION-PRIMARY',
        text: 'These are set on the primary.',
      },
    ]);
  });

  it('reads headings written flat between paragraphs by their levels, as before', () => {
    const sections = sectionsFrom(
      '<main><h2 id="a">A</h2><p>one</p><h3>A1</h3><p>two</p><h2 id="b">B</h2><p>three</p></main>',
      'Page',
    );
    expect(sections.map((s) => [s.headingPath, s.anchor, s.text])).toEqual([
      ['Page > A', 'a', 'one'],
      ['Page > A > A1', 'a', 'two'],
      ['Page > B', 'b', 'three'],
    ]);
  });
});

describe('furniture named like a sidebar, a menu or share buttons', () => {
  it("keeps a DocBook sidebar (a boxed aside in prose) and a section whose id names it, drops a site's link sidebar", () => {
    const sections = sectionsFrom(
      `<body><div class="navheader"><a href="/prev">Prev</a> <a href="/next">Next</a></div>
      <div class="section"><h2 id="shells">Shell Environment</h2><p>${REFUND}</p>
      <div class="sidebar"><div class="titlepage"><p class="title"><strong>BACK TO BASICS</strong> Automatic completion</p></div>
        <div class="para">Most shells complete a command or file name when you press the <a href="#tab">Tab</a> key twice.</div></div>
      <div class="refsect2" id="SQL-FOR-UPDATE-SHARE"><h3>The Locking Clause</h3><p>FOR UPDATE locks the rows read against concurrent updates.</p></div>
      <div class="sidebar"><a href="/a">Installing</a> <a href="/b">Upgrading</a> <a href="/c">Backups</a></div>
      <ul class="share-menu"><li><a href="/tw">Share on Twitter</a></li></ul></div></body>`,
      'Shells',
    );
    const text = sections.map((s) => s.text).join('\n');
    expect(text).toContain('BACK TO BASICS Automatic completion');
    expect(text).toContain('press the Tab key twice');
    expect(sections.at(-1)).toMatchObject({ headingPath: 'Shells > Shell Environment > The Locking Clause' });
    expect(text).not.toMatch(/Installing|Upgrading|Twitter|Prev|Next/);
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

describe('tableRows', () => {
  const rowsOf = (html: string) =>
    tableRows(new JSDOM(`<body>${html}</body>`).window.document.querySelector('table')!);

  it('keeps each value under its header: empty cells in place, spans filled, a group named once continued', () => {
    expect(
      rowsOf(`<table>
        <tr><th></th><th>Mon</th><th>Tue</th><th>Wed</th></tr>
        <tr><td>9:00</td><td>Yoga</td><td></td><td>Pilates</td></tr>
        <tr><td>18:00</td><td></td><td>Spin</td><td></td></tr>
      </table>`),
    ).toEqual([
      ['Mon', 'Tue', 'Wed'],
      ['9:00', 'Yoga', '', 'Pilates'],
      ['18:00', '', 'Spin'],
    ]);
    expect(
      rowsOf(`<table>
        <tr><th>Pizza</th><th colspan="2">Price</th></tr>
        <tr><td rowspan="2">Margherita</td><td>Small €9</td><td>Large €13</td></tr>
        <tr><td>Small gluten-free €11</td><td>Large gluten-free €15</td></tr>
        <tr><td></td><td>Extra cheese €2</td></tr>
        <tr><td colspan="3">Prices include VAT.</td></tr>
        <tr><td></td><td></td></tr>
      </table>`),
    ).toEqual([
      ['Pizza', 'Price', 'Price'],
      ['Margherita', 'Small €9', 'Large €13'],
      ['Margherita', 'Small gluten-free €11', 'Large gluten-free €15'],
      ['Margherita', 'Extra cheese €2'],
      ['Prices include VAT.'],
    ]);
  });

  it('caps a span that would blow the table up', () => {
    const rows = rowsOf('<table><tr><td rowspan="99999" colspan="99999">x</td><td>y</td></tr></table>');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.length).toBeLessThanOrEqual(51);
  });

  it('writes a row with an empty cell so the cells after it keep their places', () => {
    const blocks = blocksOf(
      '<body><main><table><tr><th>Item</th><th>Small</th><th>Large</th></tr><tr><td>Latte</td><td></td><td>$4</td></tr></table></main></body>',
    );
    expect(blocks.map((b) => b.text)).toEqual(['Item | Small | Large\nLatte |  | $4']);
  });
});
