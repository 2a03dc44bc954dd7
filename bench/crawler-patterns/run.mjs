// Crawler include/exclude patterns (apps/server/src/modules/crawler/patterns.ts) run on RE2JS, a
// linear-time engine, so a tenant's pattern cannot stall the process. What that costs, beside the
// baseline it replaced (JavaScript's backtracking RegExp, compiled as before), in the same run:
//   1. patterns users write, tested against realistic paths (the crawler tests every link it finds);
//   2. the nested quantifier from issue 13 against /aaa…a!, where RegExp's time doubles per `a`.
// Needs the built server (npm run build). `node bench/crawler-patterns/run.mjs`
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ms, printTable } from '../shared/report.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const built = path.join(root, 'apps/server/dist/modules/crawler/patterns.js');
if (!existsSync(built)) {
  console.error('apps/server/dist/modules/crawler/patterns.js is missing: run npm run build first');
  process.exit(1);
}
const { compilePattern } = await import(pathToFileURL(built).href);

/** The compiler patterns had before RE2: `/regex/` as a RegExp, a glob as an escaped RegExp. */
function regExpPattern(pattern) {
  if (pattern.length > 2 && pattern.startsWith('/') && pattern.endsWith('/'))
    return new RegExp(pattern.slice(1, -1));
  return new RegExp(
    pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.'),
  );
}

const PATTERNS = ['/blog/*', '*.html', '/about', '/tag/*?page=*', '/^\\/docs\\/v\\d+\\/[a-z-]+$/'];
const SECTIONS = ['blog', 'docs/v2', 'shop/product', 'tag/news', 'about-us', 'en/blog'];
const paths = Array.from({ length: 5000 }, (_, i) => {
  const section = SECTIONS[i % SECTIONS.length];
  const slug = `item-${i}-${'word-'.repeat(i % 7)}end`;
  return `/${section}/${slug}${i % 3 === 0 ? '.html' : ''}${i % 4 === 0 ? `?page=${i % 9}&utm_source=x` : ''}`;
});

/** Microseconds per test of one path against every pattern, the best of five rounds. */
function perPath(compiled) {
  let best = Number.POSITIVE_INFINITY;
  let matches = 0;
  for (let round = 0; round < 5; round++) {
    matches = 0;
    const started = performance.now();
    for (const target of paths) for (const p of compiled) if (p.test(target)) matches++;
    best = Math.min(best, performance.now() - started);
  }
  return { us: (best * 1000) / paths.length, matches };
}

const re2 = perPath(PATTERNS.map(compilePattern));
const native = perPath(PATTERNS.map(regExpPattern));
if (re2.matches !== native.matches)
  throw new Error(`matches differ: RE2 ${re2.matches}, RegExp ${native.matches}`);
console.log(
  `\n${PATTERNS.length} typical patterns × ${paths.length} paths (${re2.matches} matches, the same on both)\n`,
);
printTable(
  ['engine', 'role', 'µs per path (all patterns)'],
  [
    ['RegExp (before)', 'baseline', native.us.toFixed(2)],
    ['RE2JS (now)', 'Parley', re2.us.toFixed(2)],
  ],
);

const NESTED = '/^\\/(a+)+$/';
const time = (pattern, target) => {
  const started = performance.now();
  pattern.test(target);
  return performance.now() - started;
};
const rows = [];
for (const n of [16, 20, 22, 24, 30, 1000, 100_000]) {
  const target = `/${'a'.repeat(n)}!`;
  // RegExp doubles with each `a`: past 24 it would stall this run for seconds to years.
  const before = n <= 24 ? ms(time(regExpPattern(NESTED), target)) : 'stalls';
  rows.push([String(n), before, ms(time(compilePattern(NESTED), target))]);
}
console.log(`\n${NESTED} against /aaa…a! (ms for one test)\n`);
printTable(['a count', 'RegExp (baseline)', 'RE2JS (Parley)'], rows, 1);
