// What checking a language model's figures costs an answer (apps/server/src/modules/chat/grounding.ts):
// reading what the model was given (value and place of every figure) and checking a sentence that
// states one, on a prompt's worth of passages (about 16 KB of the eval sites' pages, chunked as
// training chunks them). Baseline, measured in the same run: reading the same passages for their
// figures' values alone (`figuresOf`), the work the check did before it read where a figure is.
// It is paid once per answer that states a figure, when its first such sentence ends.
//
//   npm run build && node bench/run.mjs grounding
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { printTable, summary, trio } from '../shared/report.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = (file) => import(path.join(repo, 'apps/server/dist', file));
const { figuresOf, readGiven, unsupportedFigures } = await dist('modules/chat/grounding.js');
const { extractPage } = await dist('modules/crawler/crawl.js');
const { chunkSections } = await dist('modules/knowledge/chunker.js');
const { sectionsOf } = await dist('modules/knowledge/html-sections.js');

const SMOKE = process.env.BENCH_SMOKE === '1';
const RUNS = Number(process.env.GROUNDING_BENCH_RUNS ?? (SMOKE ? 5 : 200));
const PROMPT_CHARS = 16_000;

/** Passages of the dev sites, as many as a prompt holds. */
async function promptPassages() {
  const passages = [];
  let chars = 0;
  for (const site of ['bakery', 'hotel', 'auto-repair']) {
    const dir = path.join(repo, 'eval/answers/dev', site, 'site');
    for (const file of readdirSync(dir)) {
      const page = await extractPage(
        readFileSync(path.join(dir, file), 'utf8'),
        `https://example.test/${file}`,
      );
      for (const chunk of chunkSections(sectionsOf(page.blocks, page.title))) {
        if (chars + chunk.content.length > PROMPT_CHARS) continue;
        passages.push({
          text: chunk.content,
          title: [page.title, chunk.headingPath].filter(Boolean).join('\n'),
        });
        chars += chunk.content.length;
      }
    }
  }
  return { passages, chars };
}

const timed = (run) => {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  return summary(times);
};

const { passages, chars } = await promptPassages();
const sentence = 'Delivery is $14 for up to 5 miles.';
// Warm both paths before measuring, in alternating order.
for (let i = 0; i < 10; i++) {
  for (const passage of passages) figuresOf(passage.text);
  unsupportedFigures(sentence, readGiven({ sources: passages }), { about: 'how much is delivery?' });
}
const baseline = timed(() => {
  for (const passage of passages) figuresOf(`${passage.title}\n${passage.text}`);
});
const check = timed(() =>
  unsupportedFigures(sentence, readGiven({ sources: passages }), { about: 'how much is delivery?' }),
);
console.log(`\n${passages.length} passages, ${chars.toLocaleString('en-US')} characters, ${RUNS} runs\n`);
printTable(
  ['what', 'runs', 'ms p50 / p95 / p99'],
  [
    ['baseline: the passages read for figures by value', String(baseline.n), trio(baseline)],
    ['the check: read for value and place, one sentence checked', String(check.n), trio(check)],
  ],
  1,
);
