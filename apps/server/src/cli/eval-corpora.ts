import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type EvalApi, sleep } from './eval-api.js';
import { docbookMainText, sphinxMainText, tocLinks } from './eval-baseline.js';
import { REPO } from './eval-release.js';
import type { StaticSite } from './eval-static.js';

/**
 * The corpora of `npm run eval:retrieval` (eval/retrieval/README.md): each is given to a bot
 * through the API as a customer would give it (files uploaded, a site crawled), and names the
 * pages that answer each of its questions.
 */
export const EVAL_DIR = path.join(REPO, 'eval/retrieval');

export type Question = { q: string; pages: string[] };
/** What a search hit or a cited source points at. */
export type PageRef = { page_url: string | null; page_title: string | null };

/** A bot trained on a corpus, and how to tell which of its pages a hit or a citation is. */
export type Trained = {
  botId: number;
  /** Every page the bot was given (the keys `pageOf` answers); a citation of anything else is invented. */
  known: Set<string>;
  pageOf(ref: PageRef): string | null;
};

export type Corpus = {
  name: string;
  questions: Question[];
  train(api: EvalApi, userId: number): Promise<Trained>;
  /** The text of these pages, read from disk and cleanly extracted, for the plain-BM25 reference. */
  texts(pages: Set<string>): Map<string, string>;
};

/**
 * Fastify's documentation (41 Markdown pages), uploaded as one file group. The pages are named by
 * their path with `__` for `/` (an upload keeps only a file's base name, and two are Index.md).
 */
export function fastifyCorpus(): Corpus {
  const dir = path.join(EVAL_DIR, 'corpus');
  const pages = readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.md'))
    .sort();
  const questions = readJson<Array<{ q: string; page: string }>>('questions.json').map(({ q, page }) => ({
    q,
    pages: [page],
  }));
  const pageOf = (ref: PageRef) => ref.page_title?.replaceAll('__', '/') ?? null;
  return {
    name: 'Fastify docs (41 pages, uploaded)',
    questions,
    texts: (known) => new Map([...known].map((page) => [page, readFileSync(path.join(dir, page), 'utf8')])),
    async train(api, userId) {
      const form = new FormData();
      form.set('group_name', 'fastify_docs');
      form.set('user_id', String(userId));
      for (const page of pages) {
        const text = readFileSync(path.join(dir, page));
        form.append('files', new Blob([text], { type: 'text/markdown' }), page.replaceAll('/', '__'));
      }
      const group = await api.call<{ id: number; job_id: string }>('POST', '/file/upload-multiple', form);
      await api.waitForJob(group.job_id);
      const known = await trainedFiles(api, userId, group.id, pages.length);
      const botId = await api.createBot('Fastify_docs', { file_group_ids: [group.id] });
      return { botId, known: new Set([...known].map((name) => name.replaceAll('__', '/'))), pageOf };
    },
  };
}

/** The group's file names once every one of them is trained; a failed or missing one throws. */
async function trainedFiles(api: EvalApi, userId: number, groupId: number, expected: number) {
  const groups = await api.call<
    Array<{ id: number; files: Array<{ filename: string; status: string; error: string | null }> }>
  >('GET', `/file/file-groups/user/${userId}`);
  const files = groups.find((g) => g.id === groupId)?.files ?? [];
  const untrained = files.filter((f) => f.status !== 'trained');
  if (files.length !== expected || untrained.length > 0)
    throw new Error(`files not trained: ${JSON.stringify(untrained.slice(0, 3))} (${files.length} uploaded)`);
  return new Set(files.map((f) => f.filename));
}

/**
 * The Python 3.11 manual (Debian's python3.11-doc, fetched by python-docs/fetch.sh), served on
 * loopback by `site` and crawled from its index: every page the crawler reaches, at most 1,000 and
 * four links deep (about 525 of its 530 pages). Pages are named by their path under the site.
 */
export function pythonCorpus(site: StaticSite, dir: string): Corpus {
  return crawledCorpus(site, dir, {
    name: 'python3.11-doc (crawled)',
    questions: 'python-docs/questions.json',
    mainText: sphinxMainText,
    crawl: { name: 'Python manual', maxPages: 1000, maxDepth: 4 },
  });
}

/** The folder fetch.sh extracts the manual's HTML into (fetching it first if needed). */
export function pythonDocsDir(): string {
  execFileSync('bash', [path.join(EVAL_DIR, 'python-docs/fetch.sh')], { stdio: 'inherit' });
  return path.join(EVAL_DIR, '.cache/python3.11-doc/usr/share/doc/python3.11/html');
}

/** The parts of the PostgreSQL manual served: the tutorial, the SQL language, server administration. */
const POSTGRES_PARTS = ['tutorial.html', 'sql.html', 'admin.html'];

/**
 * The PostgreSQL 15 manual's parts I to III (Debian's postgresql-doc-15, fetched by
 * postgres-docs/fetch.sh; DocBook XSL output), served on loopback by `site` with its index page, and
 * crawled from that index: the other parts answer 404. Pages are named by their file name.
 */
export function postgresCorpus(site: StaticSite, dir: string): Corpus {
  return crawledCorpus(site, dir, {
    name: 'postgresql-doc-15, parts I-III (crawled)',
    questions: 'postgres-docs/questions.json',
    mainText: docbookMainText,
    crawl: { name: 'PostgreSQL manual', maxPages: 1000, maxDepth: 10 },
  });
}

/** The folder fetch.sh extracts the PostgreSQL manual's HTML into (fetching it first if needed). */
export function postgresDocsDir(): string {
  execFileSync('bash', [path.join(EVAL_DIR, 'postgres-docs/fetch.sh')], { stdio: 'inherit' });
  return path.join(EVAL_DIR, '.cache/postgresql-doc-15/usr/share/doc/postgresql-doc-15/html');
}

/** The pages served of the PostgreSQL manual: index.html and POSTGRES_PARTS with every page their contents list, down. */
export function postgresPages(dir: string): Set<string> {
  const pages = new Set(['index.html']);
  const queue = [...POSTGRES_PARTS];
  for (let page = queue.shift(); page !== undefined; page = queue.shift()) {
    if (pages.has(page)) continue;
    pages.add(page);
    queue.push(...tocLinks(readFileSync(path.join(dir, page), 'utf8')));
  }
  return pages;
}

type CrawledCorpusOptions = {
  name: string;
  /** The questions' file under eval/retrieval. */
  questions: string;
  /** The page's text as the plain-BM25 reference reads it. */
  mainText: (html: string) => string;
  crawl: CrawlRequest;
};

/** A folder of HTML pages served by `site` and crawled from its index.html. */
function crawledCorpus(site: StaticSite, dir: string, options: CrawledCorpusOptions): Corpus {
  const pageOf = (ref: PageRef) =>
    ref.page_url?.startsWith(`${site.url}/`) ? ref.page_url.slice(site.url.length + 1).split('#')[0]! : null;
  return {
    name: options.name,
    questions: readJson<Question[]>(options.questions),
    texts: (known) =>
      new Map([...known].map((page) => [page, options.mainText(readFileSync(path.join(dir, page), 'utf8'))])),
    async train(api) {
      const sourceId = await crawl(api, `${site.url}/index.html`, options.crawl);
      const known = new Set<string>();
      for (const url of await crawledPages(api, sourceId))
        known.add(pageOf({ page_url: url, page_title: null })!);
      const botId = await api.createBot(options.crawl.name.replaceAll(' ', '_'), {
        web_source_ids: [sourceId],
      });
      return { botId, known, pageOf };
    },
  };
}

/** How a crawl is asked for: the web source's name, and the API's limits (at most 1,000 pages, depth 10). */
export type CrawlRequest = { name: string; maxPages: number; maxDepth: number };

/**
 * Starts a crawl (`POST /crawler/crawl`) and waits for it: the crawl job stores and trains each page
 * before it completes. Answers the web source's id.
 */
export async function crawl(api: EvalApi, url: string, request: CrawlRequest): Promise<number> {
  const started = await api.call<{ task_id: string; web_source_id: number }>('POST', '/crawler/crawl', {
    url,
    name: request.name,
    max_pages: request.maxPages,
    max_depth: request.maxDepth,
  });
  let reported = Date.now();
  for (;;) {
    const status = await api.call<{ status: string; current: number; total: number }>(
      'GET',
      `/crawler/crawl/${started.task_id}/status`,
    );
    if (Date.now() - reported > 30_000) {
      process.stderr.write(`  crawl: ${status.status} ${status.current}/${status.total}\n`);
      reported = Date.now();
    }
    if (status.status === 'completed') return started.web_source_id;
    if (status.status === 'failed') throw new Error(`the crawl failed: ${JSON.stringify(status)}`);
    await sleep(1000);
  }
}

/** The addresses of the pages the crawl stored. */
export async function crawledPages(api: EvalApi, sourceId: number): Promise<string[]> {
  const urls: string[] = [];
  for (let skip = 0; ; skip += 200) {
    const { pages } = await api.call<{ pages: Array<{ url: string }> }>(
      'GET',
      `/crawler/websource/${sourceId}/pages?limit=200&skip=${skip}`,
    );
    urls.push(...pages.map((p) => p.url));
    if (pages.length < 200) return urls;
  }
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(path.join(EVAL_DIR, file), 'utf8')) as T;
}
