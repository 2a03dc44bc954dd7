import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type EvalApi, sleep } from './eval-api.js';
import { crawl, crawledPages } from './eval-corpora.js';
import { REPO } from './eval-release.js';
import { serveHtml } from './eval-static.js';

/**
 * The small business sites of `npm run eval:answers` (eval/answers/README.md). A set is a folder of
 * eval/answers (dev, holdout, and the sites in other languages: intl, intl-holdout); each site in
 * it is a folder holding:
 * - site/*.html: the pages, index.html the home page linking to the others;
 * - qna.json: the Q&A pairs its owner added, [{ question, answer }];
 * - questions.json: what visitors ask, with the pattern a right answer matches and where the fact is.
 */
export const ANSWERS_DIR = path.join(REPO, 'eval/answers');
export const SETS = ['dev', 'holdout', 'intl', 'intl-holdout'] as const;
/** A held-out set is run for its figures; its failures are not printed unless asked for. */
export const isHeldOut = (set: string) => set.endsWith('holdout');

export type QuestionKind = 'answerable' | 'qna' | 'unanswerable' | 'followup';
export const KINDS: QuestionKind[] = ['answerable', 'qna', 'unanswerable', 'followup'];

export type SiteQuestion = {
  id: string;
  kind: QuestionKind;
  q: string;
  /** A follow-up's first question, asked before `q` in the same conversation. */
  first?: string;
  /** Regular expression source a right answer matches (case-insensitive); null when unanswerable. */
  expect: string | null;
  /** Page file names holding the fact, or "qna" for a Q&A pair. */
  sources: string[];
};

export type QnaPair = { question: string; answer: string };

export type Site = {
  set: string;
  name: string;
  /** The folder of its pages (site/). */
  pagesDir: string;
  pages: string[];
  qna: QnaPair[];
  questions: SiteQuestion[];
};

/** A site given to a bot: its pages crawled, its pairs trained. */
export type TrainedSite = { site: Site; botId: number; crawled: number };

/**
 * The sets asked for (a set that is not there yet is left out with a word), each with its sites:
 * all of them, or only those named in `only`.
 */
export function loadSets(names: readonly string[], only?: string[]): Array<{ name: string; sites: Site[] }> {
  const sets = [];
  for (const name of names) {
    const dir = path.join(ANSWERS_DIR, name);
    if (!existsSync(dir)) {
      process.stderr.write(`eval: no ${path.relative(REPO, dir)}, set ${name} left out\n`);
      continue;
    }
    const sites = readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && (!only || only.includes(entry.name)))
      .map((entry) => loadSite(name, path.join(dir, entry.name)))
      .sort((a, b) => a.name.localeCompare(b.name));
    sets.push({ name, sites });
  }
  return sets;
}

function loadSite(set: string, dir: string): Site {
  const pagesDir = path.join(dir, 'site');
  const questions = readJson<SiteQuestion[]>(path.join(dir, 'questions.json'));
  for (const question of questions) checkQuestion(question, dir);
  return {
    set,
    name: path.basename(dir),
    pagesDir,
    pages: readdirSync(pagesDir).filter((file) => file.endsWith('.html')),
    qna: readJson<QnaPair[]>(path.join(dir, 'qna.json')),
    questions,
  };
}

/** A malformed question stops the run before any server starts, naming it. */
function checkQuestion(question: SiteQuestion, dir: string): void {
  const problem = !KINDS.includes(question.kind)
    ? `kind ${question.kind}`
    : (question.expect === null) !== (question.kind === 'unanswerable')
      ? 'expect must be null exactly when unanswerable'
      : question.kind === 'followup' && !question.first
        ? 'a follow-up needs "first"'
        : null;
  if (problem) throw new Error(`${dir}/questions.json, ${question.id}: ${problem}`);
  if (question.expect !== null) new RegExp(question.expect, 'i');
}

/**
 * What in a site's files does not hold together, as warnings: a pattern that matches none of the
 * sources its question names (the page's text with tags dropped, or a pair's answer), or a page the
 * crawl did not store.
 */
export function siteWarnings(site: Site, crawled: number): string[] {
  const warnings: string[] = [];
  if (crawled !== site.pages.length)
    warnings.push(`${site.name}: the crawl stored ${crawled} of ${site.pages.length} pages`);
  const texts = new Map(site.pages.map((page) => [page, pageText(path.join(site.pagesDir, page))]));
  for (const question of site.questions) {
    if (question.expect === null) continue;
    const pattern = new RegExp(question.expect, 'i');
    const found = question.sources.some((source) =>
      source === 'qna'
        ? site.qna.some((pair) => pattern.test(pair.answer))
        : pattern.test(texts.get(source) ?? ''),
    );
    if (!found) warnings.push(`${question.id}: /${question.expect}/ matches none of ${question.sources}`);
  }
  return warnings;
}

/** A page's text, roughly: tags dropped, the few entities these pages use decoded, spaces collapsed. */
function pageText(file: string): string {
  const entities: Record<string, string> = {
    amp: '&',
    nbsp: ' ',
    ndash: '–',
    mdash: '—',
    middot: '·',
    euro: '€',
    pound: '£',
    sup3: '³',
    rsquo: '’',
    lsquo: '‘',
    times: '×',
  };
  return readFileSync(file, 'utf8')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&(\w+);/g, (whole, name: string) => entities[name] ?? whole)
    .replace(/\s+/g, ' ');
}

/**
 * Gives a site to a new bot as its owner would: the site served on loopback and crawled from its
 * home page, a bot made with that web source and the bot's defaults, then the Q&A pairs added to it
 * and trained.
 */
export async function trainSite(api: EvalApi, site: Site): Promise<TrainedSite> {
  const server = await serveHtml(site.pagesDir);
  let sourceId: number;
  let crawled: number;
  try {
    sourceId = await crawl(api, `${server.url}/index.html`, { name: site.name, maxPages: 100, maxDepth: 5 });
    crawled = (await crawledPages(api, sourceId)).length;
  } finally {
    await server.close();
  }
  const botId = await api.createBot(botName(site), { web_source_ids: [sourceId] });
  await addPairs(api, botId, site.qna);
  return { site, botId, crawled };
}

/** Bot names take letters, digits, spaces and underscores, at most 50. */
const botName = (site: Site) => `${site.set}_${site.name}`.replace(/[^A-Za-z0-9_]+/g, '_').slice(0, 50);

/** Adds the pairs (`POST /qna/`; each is trained when saved) and waits until all are trained. */
async function addPairs(api: EvalApi, botId: number, pairs: QnaPair[]): Promise<void> {
  for (const pair of pairs) await api.call('POST', '/qna/', { bot_id: botId, ...pair });
  const deadline = Date.now() + 120_000;
  for (;;) {
    const listed = await api.call<Array<{ trained: boolean; training: boolean }>>(
      'GET',
      `/qna/?bot_id=${botId}`,
    );
    if (listed.length === pairs.length && listed.every((pair) => pair.trained && !pair.training)) return;
    if (Date.now() > deadline) throw new Error(`bot ${botId}: Q&A pairs not trained within 2 minutes`);
    await sleep(250);
  }
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}
