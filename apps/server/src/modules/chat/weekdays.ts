/**
 * The days of the week a text names, in the 14 languages Parley reads: a visitor acts on "we deliver
 * on Sundays" as on a price. Monday is 1, Sunday 7. A range ("Tuesday to Saturday", "lunes a
 * viernes", "Mo–Fr") names every day in it.
 */

/** Each day's names: full names, with the endings their languages put on them read as the same day. */
const NAMES: string[][] = [
  // Monday to Sunday: English, Spanish, French, German, Italian, Portuguese, Dutch, Swedish,
  // Danish and Norwegian, Finnish, Russian (the stem its cases share), Hungarian, Turkish.
  'monday lunes lundi montag lunedì lunedi segunda-feira maandag måndag mandag maanantai понедельник hétfő pazartesi',
  'tuesday martes mardi dienstag martedì martedi terça-feira dinsdag tisdag tirsdag tiistai вторник kedd salı',
  'wednesday miércoles miercoles mercredi mittwoch mercoledì mercoledi quarta-feira woensdag onsdag keskiviikko среда среду среды средам szerda çarşamba',
  'thursday jueves jeudi donnerstag giovedì giovedi quinta-feira donderdag torsdag torstai четверг csütörtök perşembe',
  'friday viernes vendredi freitag venerdì venerdi sexta-feira vrijdag fredag perjantai пятниц péntek cuma',
  'saturday sábado sabado samedi samstag sonnabend sabato zaterdag lördag lørdag lauantai суббот szombat cumartesi',
  'sunday domingo dimanche sonntag domenica zondag söndag søndag sunnuntai воскресень vasárnap pazar',
].map((names) => names.split(' '));

/**
 * Short names, read only in what the model was given (where reading too much only lets more stand)
 * and only as a schedule writes them, beside a dash, a colon or a time: "Mon–Fri", "Sa: 9–13",
 * "segunda a sexta". Alone, "sun", "do" or "ma" are other words (and Norwegian's "to", English's).
 */
const SHORT_NAMES: string[][] = [
  'mon mo lun ma segunda må',
  'tue tues di mar terça terca ti tis tir',
  'wed mi mer mié mie quarta wo ons ke',
  'thu thur thurs do gio jeu jue quinta tor',
  'fri fr ven vie sexta vr fre pe',
  'sat sa sam sab sáb za lö lø la',
  'sun so dim dom zo sö sø su',
].map((names) => names.split(' '));

/** Words that join two days into the days between them. */
const RANGE = /^\s*(?:-|–|—|to|through|thru|till|until|a|al|à|au|bis|tot|tot en met|t\/m|til|по|ila)\s*$/iu;

const phrase = (words: string) => new RegExp(`(?<![\\p{L}])(?:${words})(?![\\p{L}])`, 'giu');
/** Phrases that name every day, the working days or the weekend (read in what the model was given). */
const EVERY_DAY = phrase(
  [
    'every day|daily|(?:7|seven) days(?: a week)?|all week|24/7|around the clock',
    'todos los días|7 días|tous les jours|7 ?j(?:ours)?/7|täglich|7 Tage|tutti i giorni|7 giorni|todos os dias|7 dias',
    'dagelijks|7 dagen|alla dagar|7 dagar|hver dag|7 dage[r]?|joka päivä|7 päivää|ежедневно|каждый день|без выходных',
    'minden nap|7 nap|her gün|7 gün',
  ].join('|'),
);
const WORKING_DAYS = phrase(
  'weekdays?|M ?[-–] ?F|entre semana|en semaine|werktags|feriali|dias úteis|doordeweeks|vardagar|hverdage|hverdager|arkisin|по будням|hétköznap\\p{L}*|hafta içi',
);
const WEEKEND = phrase(
  'weekends?|week-ends?|fines? de semana|wochenende\\p{L}*|fine settimana|fins? de semana|helg(?:er)?|viikonloppu\\p{L}*|hétvég\\p{L}*|hafta sonu',
);

/** Days a text names; `short` for a short name read alone ("Sat 9–1"), not in a range of names. */
export type DayMention = { at: number; end: number; text: string; days: number[]; short?: boolean };

type Name = { word: string; day: number };

/** Names by their first two letters, longest first: a word is looked up, not matched against all. */
function namesByStart(names: string[][]): Map<string, Name[]> {
  const byStart = new Map<string, Name[]>();
  const all = names
    .flatMap((words, index) => words.map((word) => ({ word, day: index + 1 })))
    .sort((a, b) => b.word.length - a.word.length);
  for (const name of all)
    byStart.set(name.word.slice(0, 2), [...(byStart.get(name.word.slice(0, 2)) ?? []), name]);
  return byStart;
}
const FULL_NAMES = namesByStart(NAMES);
const SHORT_WORDS = namesByStart(SHORT_NAMES);

/** A word, hyphenated parts and all ("segunda-feira"). */
const WORD = /\p{L}+(?:-\p{L}+)*/gu;
/** A full name takes the endings plurals and cases add ("Mondays", "sábados", "maanantaisin", "пятницам"). */
const MAX_ENDING = 6;
/** Whether a text names a day in full (a sentence that does is checked). */
export const NAMES_A_DAY = new RegExp(
  `(?<![\\p{L}])(?:${[...FULL_NAMES.values()]
    .flat()
    .map((name) => name.word)
    .join('|')})\\p{L}{0,${MAX_ENDING}}(?![\\p{L}])`,
  'iu',
);
/** Where a short name is a day: beside a dash, a colon, a number, an "and" or a range's word ("segunda a sexta", "Sat & Sun"). */
const SHORT_AFTER =
  /^\.?(?:\s*(?:[-–—:,/&+]|\d)|\s+(?:a|à|al|au|bis|to|till|til|tot|and|und|et|y|e|en|och|og|ja|и|és|ve)\s)/u;
const SHORT_BEFORE = /[-–—/]\s*$/u;

/** The day a word of a text names, if any: in full (with an ending), or short where a schedule puts one. */
function dayOf(word: string, text: string, at: number): { day: number; short?: true } | undefined {
  const lower = word.toLowerCase();
  const full = FULL_NAMES.get(lower.slice(0, 2))?.find(
    (name) => lower.startsWith(name.word) && lower.length - name.word.length <= MAX_ENDING,
  );
  if (full) return { day: full.day };
  const short = SHORT_WORDS.get(lower.slice(0, 2))?.find((name) => name.word === lower);
  if (!short) return undefined;
  const after = text.slice(at + word.length, at + word.length + 8);
  const before = text.slice(Math.max(0, at - 3), at);
  return SHORT_AFTER.test(after) || SHORT_BEFORE.test(before) ? { day: short.day, short: true } : undefined;
}

/**
 * The days a text names, in order; a range is one mention of every day in it. `given`: the text is
 * what the model was given, where short names alone and "every day", "weekdays" and "weekends" count
 * too (reading too much there only lets more stand).
 */
export function dayMentions(text: string, { given = false }: { given?: boolean } = {}): DayMention[] {
  const found: DayMention[] = [];
  for (const match of text.matchAll(WORD)) {
    const named = dayOf(match[0], text, match.index);
    if (!named) continue;
    // A short name's full stop is part of it ("Sa.").
    const stop = match.index + match[0].length;
    const end = named.short && text[stop] === '.' ? stop + 1 : stop;
    found.push({
      at: match.index,
      end,
      text: text.slice(match.index, end),
      days: [named.day],
      short: named.short,
    });
  }
  // In an answer a short name is read only in a range of them ("Mon–Fri"): alone, "Sa" or "ma" may be no day.
  const joined = joinRanges(text, found).filter((mention) => given || !mention.short);
  if (given) joined.push(...phrases(text));
  return joined.sort((a, b) => a.at - b.at);
}

/** Two days joined by "to", "–", "bis"... become one mention of the days from the first to the second. */
function joinRanges(text: string, mentions: DayMention[]): DayMention[] {
  const joined: DayMention[] = [];
  for (let i = 0; i < mentions.length; i++) {
    const from = mentions[i]!;
    const to = mentions[i + 1];
    if (to && RANGE.test(text.slice(from.end, to.at))) {
      const days: number[] = [];
      for (let day = from.days[0]!; ; day = (day % 7) + 1) {
        days.push(day);
        if (day === to.days[0]) break;
      }
      joined.push({ at: from.at, end: to.end, text: text.slice(from.at, to.end), days });
      i += 1;
    } else joined.push(from);
  }
  return joined;
}

function phrases(text: string): DayMention[] {
  const named = (pattern: RegExp, days: number[]) =>
    [...text.matchAll(pattern)].map((m) => ({ at: m.index!, end: m.index! + m[0].length, text: m[0], days }));
  return [
    ...named(EVERY_DAY, [1, 2, 3, 4, 5, 6, 7]),
    ...named(WORKING_DAYS, [1, 2, 3, 4, 5]),
    ...named(WEEKEND, [6, 7]),
  ];
}

/** A statement that a place is closed, or that something is not so: a day said in it is no day it is open. */
export const SAYS_CLOSED =
  /(?<![\p{L}])(?:closed|shut|cerrad[oa]s?|fermée?s?|geschlossen|ruhetag|chius[oa]|fechad[oa]s?|gesloten|stängt|lukket|stengt|suljettu|закрыт\p{L}*|выходн\p{L}*|zárva|szünnap|kapalı)(?![\p{L}])/iu;
export const SAYS_NOT =
  /(?<![\p{L}])(?:not|no|never|cannot|nor|ningún|nunca|pas|jamais|nicht|kein\p{L}*|nie|non|mai|não|niet|geen|nooit|inte|aldrig|ikke|aldri|ei|emme|не|нет|никогда|nem|soha|değil|yok|hiç)(?![\p{L}])|n['’]t/iu;
/** Opening words and times: a statement with them says when a place is open, whatever else it says. */
export const SAYS_OPEN =
  /(?<![\p{L}])(?:open\p{L}*|abiert\p{L}*|ouvert\p{L}*|geöffnet|offen|apert\p{L}*|aberto|geopend|öppet|åben|åpent|auki|открыт\p{L}*|nyitva|açık)(?![\p{L}])|\d{1,2}(?:[:.h]\d{2})?\s?(?:am|pm|h)?\s?[-–—]\s?\d{1,2}/iu;
