import { readFileSync } from 'node:fs';
import path from 'node:path';
import { givenKeys, unsupportedFigures } from '../modules/chat/grounding.js';
import { extractPage } from '../modules/crawler/crawl.js';
import { loadSets, SETS } from './eval-answer-sites.js';

/**
 * How well the figure check of a model's answers (modules/chat/grounding.ts) tells a figure its
 * sources hold from one they do not, on the small business sites of eval/answers (written before
 * the check, in 14 languages). Every sentence of every page and Q&A answer that states a figure
 * is rewritten twice, as a model might:
 *
 * - **re-spelled**: each figure in another usual spelling (a decimal comma for a point, "$45.00" for
 *   "$45", "17:00" as "5 pm", "9 am" as "09:00", a phone number grouped otherwise, a link without
 *   its scheme). Checked against its own page, it must stand: a held-back answer here is a false alarm.
 * - **altered**: one figure changed (a number plus one, a time an hour later, a phone number's last
 *   digit, an address's name). Checked against its page, it must be caught, unless the new figure is
 *   on the page anyway, which the check cannot tell from the right one (counted apart).
 *
 *   npm run eval:grounding
 */
type Tally = { sentences: number; respelledKept: number; altered: number; caught: number; onPage: number };

const SENTENCE = /[^.!?\n]+(?:[.!?]+(?=\s|$)|$)/gu;
const HAS_FIGURE = /\d|@|https?:\/\//u;

async function main() {
  const rows: string[] = [];
  const misses: string[] = [];
  const missed: string[] = [];
  for (const set of loadSets(SETS)) {
    const tally: Tally = { sentences: 0, respelledKept: 0, altered: 0, caught: 0, onPage: 0 };
    for (const site of set.sites) {
      const texts = await Promise.all(
        site.pages.map(async (page) => {
          const html = readFileSync(path.join(site.pagesDir, page), 'utf8');
          return (await extractPage(html, `https://example.test/${page}`)).text;
        }),
      );
      for (const text of [...texts, ...site.qna.map((pair) => pair.answer)]) {
        const given = givenKeys([text]);
        for (const sentence of (text.match(SENTENCE) ?? []).map((s) => s.trim())) {
          if (!HAS_FIGURE.test(sentence) || unsupportedFigures(sentence, given).length > 0) continue;
          tally.sentences += 1;
          const respelled = respell(sentence);
          const alarms = unsupportedFigures(respelled, given);
          if (alarms.length === 0) tally.respelledKept += 1;
          else if (misses.length < 12) misses.push(`${site.name}: "${respelled}" → ${alarms.join(', ')}`);
          const changed = alter(sentence);
          if (!changed) continue;
          if (unsupportedFigures(changed.figure, given).length === 0) {
            tally.onPage += 1;
            continue;
          }
          tally.altered += 1;
          if (unsupportedFigures(changed.sentence, given).length > 0) tally.caught += 1;
          else if (missed.length < 12) missed.push(`${site.name}: "${changed.sentence}" (${changed.figure})`);
        }
      }
    }
    const share = (a: number, b: number) => `${(a / Math.max(b, 1)).toFixed(3)} (${a}/${b})`;
    rows.push(
      `| ${set.name} | ${set.sites.length} | ${tally.sentences} | ${share(tally.respelledKept, tally.sentences)} | ${share(tally.caught, tally.altered)} | ${tally.onPage} |`,
    );
  }
  process.stdout.write(
    [
      '## The figure check on the sites of eval/answers',
      '',
      '| set | sites | sentences with figures | re-spelled, kept | altered, caught | altered to a figure on the page |',
      '|---|---:|---:|---:|---:|---:|',
      ...rows,
      '',
      misses.length > 0 ? 'False alarms (the first 12):' : 'No false alarms.',
      ...misses.map((miss) => `- ${miss}`),
      '',
      missed.length > 0 ? 'Altered and not caught (the first 12):' : 'Every altered figure caught.',
      ...missed.map((miss) => `- ${miss}`),
      '',
    ].join('\n'),
  );
}

/** Each figure of a sentence in another spelling a model might use. */
export function respell(sentence: string): string {
  return (
    sentence
      // Links: without their scheme.
      .replace(/https?:\/\/(\S+)/g, '$1')
      // Times: "17:00" as "5:00 pm", "9 am" as "09:00".
      .replace(/\b(1[3-9]|2[0-3]):([0-5]\d)\b/g, (_m, h: string, m: string) => `${Number(h) - 12}:${m} pm`)
      .replace(/(?<![:\d])(\d{1,2})(?::(\d{2}))?\s?(am|pm)\b/gi, (_m, h: string, m = '00', half = 'am') => {
        const hours = (Number(h) % 12) + (half.toLowerCase() === 'pm' ? 12 : 0);
        return `${String(hours).padStart(2, '0')}:${m}`;
      })
      // Phone numbers: the digits grouped in threes.
      .replace(/\+?\(?\d[\d\s().-]{7,}\d/g, (run) => {
        const digits = run.replace(/\D/g, '');
        return digits.length >= 8 ? (digits.match(/\d{1,3}/g) ?? []).join(' ') : run;
      })
      // Amounts: a decimal comma for a point and back, and whole amounts with cents.
      .replace(
        /(\d)([.,])(\d{2})(?!\d)/g,
        (_m, a: string, sep: string, b: string) => `${a}${sep === '.' ? ',' : '.'}${b}`,
      )
      .replace(/([$€£])(\d+)(?![\d.,])/g, '$1$2.00')
  );
}

/** The sentence with one figure changed, and that figure alone; null when it states none to change. */
export function alter(sentence: string): { sentence: string; figure: string } | null {
  const email = /([\p{L}\p{N}._%+-]+)@([\p{L}\p{N}.-]+\.[\p{L}]+)/u.exec(sentence);
  if (email) {
    const figure = `other${email[1]}@${email[2]}`;
    return { sentence: sentence.replace(email[0], figure), figure };
  }
  const time = /\b(\d{1,2}):([0-5]\d)\b/.exec(sentence);
  if (time) {
    const figure = `${(Number(time[1]) + 1) % 24}:${time[2]}`;
    return { sentence: sentence.replace(time[0], figure), figure };
  }
  const number = /(?<![\p{L}\d.,])(\d+)(?:[.,](\d+))?(?!\d|\p{L}+\d)/u.exec(sentence);
  if (!number) return null;
  const whole = Number(number[1]);
  // A small count is not checked (it is as often written out): change it to one that is.
  const next = whole < 9 ? whole + 10 : whole + 1;
  const separator = number[0].charAt(number[1]!.length);
  const figure = number[2] !== undefined ? `${next}${separator}${number[2]}` : String(next);
  const changed = sentence.replace(number[0], figure);
  // The figure as the sentence spells it around the change ("22h00", "9 am"), to look for on the page.
  const at = number.index;
  const before = changed.slice(0, at).match(/\S*$/)![0];
  const after = changed.slice(at + figure.length).match(/^(?:\s?[ap]\.?m\.?(?!\p{L})|\S*)/iu)![0];
  return { sentence: changed, figure: `${before}${figure}${after}`.replace(/[.,;:!?)]+$/, '') };
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
