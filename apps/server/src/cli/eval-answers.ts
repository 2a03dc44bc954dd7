import path from 'node:path';
import { type AnswerResult, ask, judge, summarise } from './eval-answer-judge.js';
import { addModel, type ModelFake, modelPass, startModelFake } from './eval-answer-model.js';
import { printSet, type SetRun, writeRun } from './eval-answer-report.js';
import {
  ANSWERS_DIR,
  isHeldOut,
  loadSets,
  SETS,
  type Site,
  siteWarnings,
  type TrainedSite,
  trainSite,
} from './eval-answer-sites.js';
import { EvalApi, sleep } from './eval-api.js';
import { evalOptions } from './eval-options.js';
import type { Release } from './eval-release.js';
import { freshDatabase, serverLog, withServer } from './eval-server.js';

/**
 * npm run eval:answers — does a bot with no language model answer customers' questions right on
 * small business websites (eval/answers/README.md)? For each database (PGlite; PostgreSQL too with
 * EVAL_DATABASE_URL or --pg) and each release (the previous one, then this one), a server is started
 * on a fresh database and an owner signs up. Each site of each set is crawled on loopback into a bot
 * with its Q&A pairs, and every question is asked in a new conversation (a follow-up as two messages
 * of one conversation) and judged. Then, on PGlite for this release, the bots get a fake
 * OpenAI-compatible model and the answerable questions are asked again, to check that the passages
 * sent to a model hold the fact.
 *
 * Options: --set=dev|holdout|intl|intl-holdout (default all), --pg, --previous=<commit> (default c8c79f1),
 * --no-previous, --model (the model pass on every database and release), --no-model,
 * --holdout-failures (print the held-out set's failures, which are otherwise left out),
 * --sites=a,b (only these sites of the sets: a round of new sites on its own).
 */
const PREVIOUS = 'c8c79f1';
const CACHE = path.join(ANSWERS_DIR, '.cache');
/**
 * A bot's first search builds its in-memory index in the background while SQL answers; the run
 * searches each bot once and waits this long, so questions meet a server in steady use.
 */
const WARM_UP_MS = 3000;

type Sets = ReturnType<typeof loadSets>;
type ModelPlan = 'none' | 'first' | 'all';

async function main(): Promise<void> {
  const started = performance.now();
  const { databases, releases, option, flag } = evalOptions(process.argv.slice(2), PREVIOUS);
  const only = option('set');
  if (only && !(SETS as readonly string[]).includes(only))
    throw new Error(`--set=${only}: one of ${SETS.join(', ')}`);
  const sites = option('sites')?.split(',');
  const sets = loadSets(only ? [only] : SETS, sites).filter((set) => set.sites.length > 0);
  const unknown = sites?.filter((name) => !sets.some((set) => set.sites.some((site) => site.name === name)));
  if (unknown?.length) throw new Error(`--sites: no site ${unknown.join(', ')}`);
  if (sets.length === 0) throw new Error('no set to run');
  const plan: ModelPlan = flag('no-model') ? 'none' : flag('model') ? 'all' : 'first';
  const fake = plan === 'none' ? null : await startModelFake();
  const runs: SetRun[] = [];
  try {
    for (const [d, database] of databases.entries())
      for (const release of releases) {
        // By default the model pass runs once: on PGlite (the first database), for this release.
        const withModel = plan === 'all' || (plan === 'first' && d === 0 && release === releases.at(-1));
        runs.push(...(await runRelease(release, database, sets, withModel ? fake : null)));
      }
  } finally {
    await fake?.close();
  }
  const seconds = Math.round((performance.now() - started) / 1000);
  for (const set of sets)
    printSet(
      set.name,
      runs.filter((r) => r.set === set.name),
      !isHeldOut(set.name) || flag('holdout-failures'),
    );
  const file = path.join(CACHE, 'last-run.json');
  writeRun(file, runs, seconds);
  console.log(`\nevery answer and its verdict: ${file}\nthe run took ${seconds} s`);
}

/** One release on one fresh database: every set trained and asked, then (with a fake) the model pass. */
async function runRelease(
  release: Release,
  pgUrl: string | null,
  sets: Sets,
  fake: ModelFake | null,
): Promise<SetRun[]> {
  const database = await freshDatabase(pgUrl);
  const log = serverLog(CACHE, release, database);
  try {
    return await withServer(release, database, log, {}, async (url) => {
      const { api } = await EvalApi.signUp(url);
      const trained = [];
      for (const set of sets) trained.push(await trainSet(api, set.sites));
      const runs: SetRun[] = [];
      for (const [i, set] of sets.entries()) {
        const results = await askSet(api, trained[i]!);
        const base = { set: set.name, database: database.label, release: release.label };
        runs.push({ ...base, results, figures: summarise(results), model: null });
      }
      if (fake) {
        const llmId = await addModel(api, fake);
        for (const [i, run] of runs.entries()) run.model = await modelPass(api, fake, llmId, trained[i]!);
      }
      return runs;
    });
  } finally {
    await database.drop();
  }
}

/** Each site crawled into its bot with its pairs; the bots' indexes warmed up. */
async function trainSet(api: EvalApi, sites: Site[]): Promise<TrainedSite[]> {
  const trained: TrainedSite[] = [];
  for (const site of sites) {
    const started = performance.now();
    const bot = await trainSite(api, site);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stderr.write(
      `  ${site.set}/${site.name}: ${bot.crawled} pages crawled, ${site.qna.length} pairs trained in ${seconds} s\n`,
    );
    for (const warning of siteWarnings(site, bot.crawled)) process.stderr.write(`    warning: ${warning}\n`);
    await warmUp(api, bot.botId);
    trained.push(bot);
  }
  await sleep(WARM_UP_MS);
  return trained;
}

/**
 * One search of the bot, which starts building its index. It is not scored, so a failure is only
 * reported: the questions then meet an index still being built.
 */
async function warmUp(api: EvalApi, botId: number): Promise<void> {
  try {
    await api.call('POST', `/knowledge/search/${botId}`, { query: 'opening hours' });
  } catch (error) {
    process.stderr.write(`    warning: the warm-up search failed: ${String(error).slice(0, 200)}\n`);
  }
}

/** Every question of every site, asked one after the other and judged. */
async function askSet(api: EvalApi, trained: TrainedSite[]): Promise<AnswerResult[]> {
  const results: AnswerResult[] = [];
  for (const { site, botId } of trained)
    for (const question of site.questions) {
      const { reply, firstReply } = await ask(api, botId, question);
      const judged = judge(site, question, reply);
      const failed = !['correct', 'handled'].includes(judged.outcome);
      // The held-out set's failures are not for reading: no reasons are gathered for them.
      const before = question.first
        ? { previous_question: question.first, previous_answer: firstReply?.text }
        : {};
      const why =
        failed && !isHeldOut(site.set) ? await decisionOf(api, botId, question.q, before) : undefined;
      results.push({ site: site.name, question, reply, firstReply, judged, ...(why ? { why } : {}) });
    }
  return results;
}

/**
 * The bot's decision on a question as the knowledge search explains it: what it covered and missed,
 * a follow-up read with the turn before it. A release from before the search explained itself gives none.
 */
async function decisionOf(
  api: EvalApi,
  botId: number,
  query: string,
  before: { previous_question?: string; previous_answer?: string },
): Promise<string | undefined> {
  const { decision } = await api.call<{
    decision?: { summary: string; coverage: number; covered: string[]; missing: string[] };
  }>('POST', `/knowledge/search/${botId}`, { query, ...before });
  if (!decision) return undefined;
  const words = (list: string[]) => list.join(', ') || 'nothing';
  return `${decision.summary} (coverage ${decision.coverage}; covered: ${words(decision.covered)}; missing: ${words(decision.missing)})`;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
