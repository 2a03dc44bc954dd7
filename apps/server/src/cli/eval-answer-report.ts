import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AnswerFigures, AnswerResult } from './eval-answer-judge.js';
import type { ModelResult } from './eval-answer-model.js';
import { isHeldOut, KINDS } from './eval-answer-sites.js';
import { currentRelease } from './eval-release.js';

/**
 * What `npm run eval:answers` prints (a markdown table per set, its figures beside the targets,
 * this release's failures) and keeps (every answer, in .cache/last-run.json).
 */

/** One set asked of one release on one database. */
export type SetRun = {
  set: string;
  database: string;
  release: string;
  results: AnswerResult[];
  figures: AnswerFigures;
  /** The model pass (fake model), when it ran for this database and release. */
  model: ModelResult[] | null;
};

type Target = { measure: string; target: string; value(f: AnswerFigures): number; met(v: number): boolean };

const share = (part: number, whole: number) => (whole === 0 ? Number.NaN : part / whole);

/** The issue's targets, with the share each is judged on (README: "Measures"). */
const TARGETS: Target[] = [
  {
    measure: 'correct',
    target: '≥ 0.85',
    value: (f) => share(f.correct, f.answerable),
    met: (v) => v >= 0.85,
  },
  {
    measure: 'false abstain',
    target: '≤ 0.05',
    value: (f) => share(f.falseAbstain, f.answerable),
    met: (v) => v <= 0.05,
  },
  { measure: 'wrong', target: '≤ 0.05', value: (f) => share(f.wrong, f.questions), met: (v) => v <= 0.05 },
  {
    measure: 'unanswerable handled',
    target: '≥ 0.90',
    value: (f) => share(f.handled, f.unanswerable),
    met: (v) => v >= 0.9,
  },
  { measure: 'Q&A questions leaked', target: '0', value: (f) => f.leaks, met: (v) => v === 0 },
  {
    measure: 'citation correct',
    target: '≥ 0.90',
    value: (f) => share(f.citedRight, f.correct),
    met: (v) => v >= 0.9,
  },
];

const fixed = (n: number) => (Number.isNaN(n) ? '–' : n.toFixed(3));
const cell = (part: number, whole: number) => `${fixed(share(part, whole))} (${part}/${whole})`;

/**
 * The held-out set is kept apart so that nobody tunes on it: its failures are printed only when
 * asked for (`--holdout-failures`), and are always in `.cache/last-run.json`.
 */
export function printSet(name: string, runs: SetRun[], showFailures = !isHeldOut(name)): void {
  const results = runs[0]?.results ?? [];
  const sites = new Set(results.map((r) => r.site)).size;
  const kinds = KINDS.map((k) => `${results.filter((r) => r.question.kind === k).length} ${k}`).join(', ');
  console.log(`\n## Set ${name}: ${sites} sites, ${results.length} questions (${kinds})\n`);
  printFigures(runs);
  printTargets(runs);
  printModel(runs);
  if (!showFailures) {
    console.log(`\n(${name}: failures not printed; --${name}-failures prints them)`);
    return;
  }
  for (const run of runs.filter((r) => r.release === currentRelease().label)) printFailures(run);
}

function printFigures(runs: SetRun[]): void {
  console.log(
    '| database | release | correct | false abstain | wrong | unanswerable handled | Q&A questions leaked | citation correct | correct: answerable · qna · followup | said not sure (right) |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---|---:|');
  for (const { database, release, figures: f } of runs) {
    const byKind = (['answerable', 'qna', 'followup'] as const)
      .map((k) => `${f.byKind[k].correct}/${f.byKind[k].of}`)
      .join(' · ');
    console.log(
      `| ${database} | ${release} | ${cell(f.correct, f.answerable)} | ${cell(f.falseAbstain, f.answerable)} | ${cell(f.wrong, f.questions)} | ${cell(f.handled, f.unanswerable)} | ${f.leaks} | ${cell(f.citedRight, f.correct)} | ${byKind} | ${f.unsure.all} (${f.unsure.right}) |`,
    );
  }
}

function printTargets(runs: SetRun[]): void {
  console.log(`\n| measure | target | ${runs.map((r) => `${r.database}, ${r.release}`).join(' | ')} |`);
  console.log(`|---|---|${runs.map(() => '---:|').join('')}`);
  for (const target of TARGETS) {
    const values = runs.map(({ figures }) => {
      const value = target.value(figures);
      const shown = target.measure === 'Q&A questions leaked' ? String(value) : fixed(value);
      return `${shown} ${!Number.isNaN(value) && target.met(value) ? '✓' : '✗'}`;
    });
    console.log(`| ${target.measure} | ${target.target} | ${values.join(' | ')} |`);
  }
}

/** The model pass: the share of answerable questions whose fact was in the passages sent to the model. */
function printModel(runs: SetRun[]): void {
  const withModel = runs.filter((r) => r.model);
  if (withModel.length === 0) return;
  console.log(
    '\nfact in passages sent to the model (the fake OpenAI-compatible model, answerable questions):\n',
  );
  console.log('| database | release | asked | model called | fact in passages sent to the model |');
  console.log('|---|---|---:|---:|---:|');
  for (const { database, release, model } of withModel) {
    const called = model!.filter((m) => m.calls > 0).length;
    const sent = model!.filter((m) => m.factSent).length;
    console.log(`| ${database} | ${release} | ${model!.length} | ${called} | ${cell(sent, model!.length)} |`);
  }
}

/** Every question of this release that misses a measure, with the start of its answer. */
function printFailures(run: SetRun): void {
  const failures = run.results.filter(
    (r) =>
      !['correct', 'handled'].includes(r.judged.outcome) ||
      r.judged.leaked ||
      r.judged.citesExpected === false,
  );
  console.log(`\n### ${run.set} on ${run.database}, ${run.release}: ${failures.length} failures\n`);
  for (const r of failures) {
    const reasons = [
      ...(['correct', 'handled'].includes(r.judged.outcome) ? [] : [r.judged.outcome]),
      ...(r.judged.leaked ? [`leaks "${r.judged.leaked}"`] : []),
      ...(r.judged.citesExpected === false ? [`cites none of ${r.question.sources.join(', ')}`] : []),
    ];
    const asked = r.question.first ? `"${r.question.first}" then "${r.question.q}"` : `"${r.question.q}"`;
    const answer = r.reply.text.replace(/\s+/g, ' ').slice(0, 160);
    const cited = r.judged.cited.length ? r.judged.cited.join(', ') : 'nothing';
    console.log(
      `- ${r.question.id} (${r.question.kind}; ${reasons.join('; ')}) ${asked} → "${answer}" [${r.reply.mode}; cited: ${cited}]`,
    );
    if (r.why) console.log(`  why: ${r.why}`);
  }
  const unsent = (run.model ?? []).filter((m) => !m.factSent);
  if (unsent.length > 0) {
    console.log('\nfact not in the passages sent to the model:');
    for (const m of unsent)
      console.log(
        `- ${m.id} "${m.q}" (${m.calls === 0 ? `model not called, ${m.mode}` : `${m.calls} call`})`,
      );
  }
}

/** Every answer of the run, with its verdict, for reading after the run. */
export function writeRun(file: string, runs: SetRun[], seconds: number): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ finished: new Date().toISOString(), seconds, runs }, null, 2)}\n`);
}
