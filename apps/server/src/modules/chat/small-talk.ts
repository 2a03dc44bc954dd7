import { fillText } from '@parley/contracts';
import type { Language } from '../knowledge/languages.js';
import {
  FOREIGN_SMALL_TALK,
  type PlainReplies,
  type SmallTalkLanguage,
  type SmallTalkReplies,
} from './small-talk-languages.js';

/**
 * Social turns: a visitor's message that only greets, thanks, says goodbye or acknowledges ("hi",
 * "hello there!", "ok thanks 👍", "bye"), checks the bot is still there, or asks whether it is a
 * person. Such a message asks nothing the sources could answer, so
 * searching them would only end in "Sorry, I don't know the answer to that", an offer of a person,
 * an entry in the owner's unanswered questions and a lower answer rate. It gets a short reply of its
 * own instead. A message with anything else in it ("hi, are you open on Sunday?", "thanks, and the
 * price?") is a question and goes to the sources as before. English phrases here; those of other
 * languages, with replies in them, in small-talk-languages.ts.
 */
export type SmallTalk =
  | 'greeting'
  | 'wellbeing'
  | 'presence'
  | 'identity'
  | 'capabilities'
  | 'opener'
  | 'thanks'
  | 'goodbye'
  | 'acknowledgement'
  | 'declined';

/** The reply to each kind but those the bot's settings word (identityReply, capabilitiesReply). */
export const SMALL_TALK_REPLIES: PlainReplies = {
  greeting: 'Hello! How can I help you today?',
  wellbeing: "I'm well, thank you! How can I help you today?",
  presence: "Yes, I'm here! How can I help you?",
  opener: 'Of course! What would you like to know?',
  thanks: "You're welcome! Is there anything else I can help you with?",
  goodbye: 'Thanks for chatting with us. Goodbye!',
  acknowledgement: 'Is there anything else I can help you with?',
  declined: 'No problem. Is there anything else I can help you with?',
};

const ENGLISH: SmallTalkReplies = {
  replies: SMALL_TALK_REPLIES,
  identity: {
    named: "I'm {name}, an automated assistant, not a person.",
    unnamed: "I'm an automated assistant, not a person.",
    withPerson: 'I can answer your questions, or you can ask to talk to a person from our team.',
    withoutPerson: 'How can I help you?',
  },
  capabilities: {
    answers: 'I can answer your questions from the information our team has given me.',
    examples: 'For example, you could ask {questions}.',
    or: 'or',
    person: 'I can also put you in touch with a person from our team.',
  },
};

/** Phrases of each kind, as normalised text (lower case, letters and spaces). */
const PHRASES: Record<SmallTalk, string[]> = {
  greeting: [
    'hi',
    'hii',
    'hiii',
    'hey',
    'heya',
    'hello',
    'helo',
    'hiya',
    'howdy',
    'yo',
    'greetings',
    'good morning',
    'good afternoon',
    'good evening',
    'good day',
    'nice to meet you',
    // Hellos of languages with no replies of their own (small-talk-languages.ts has the others').
    'namaste',
    'salaam',
    'salam',
  ],
  wellbeing: ['how are you', 'how are you doing', 'how r u', 'hows it going', 'how is it going', 'whats up'],
  presence: [
    'are you there',
    'are you still there',
    'you there',
    'you still there',
    'r u there',
    'anyone there',
    'anybody there',
    'is anyone there',
    'is anybody there',
    'is someone there',
    'is there anyone',
    'is there anybody',
    'is anyone here',
    'hello anyone',
    'are you awake',
  ],
  // A visitor has a right to know they are talking to a machine: the answer says so plainly.
  identity: [
    'are you a bot',
    'are you a robot',
    'are you a chatbot',
    'are you an ai',
    'are you ai',
    'are you human',
    'are you a human',
    'are you a person',
    'are you a real person',
    'are you real',
    'is this a bot',
    'is this a chatbot',
    'is this a real person',
    'is this a human',
    'is this automated',
    'is this an ai',
    'am i talking to a bot',
    'am i talking to a robot',
    'am i talking to a human',
    'am i talking to a person',
    'am i talking to a real person',
    'am i chatting with a bot',
    'am i chatting with a human',
    'am i chatting with a real person',
    'bot or human',
    'human or bot',
    'are you human or bot',
    'are you a bot or human',
    'are you a bot or a human',
    'are you a human or a bot',
    'are you a bot or a person',
    'are you a person or a bot',
  ],
  // What the bot can do: it answers from what it was given, and shows the owner's suggested questions.
  capabilities: [
    'what can you do',
    'what can you do for me',
    'what are you able to do',
    'what can you help with',
    'what can you help me with',
    'how can you help',
    'how can you help me',
    'what can i ask',
    'what can i ask you',
    'what can i ask you about',
    'what should i ask',
    'what questions can i ask',
    'what can you answer',
    'what kind of questions can you answer',
    'what do you know',
  ],
  opener: [
    'help',
    'i need help',
    'i need some help',
    'can you help me',
    'can you help',
    'could you help me',
    'i have a question',
    'i have some questions',
    'can i ask a question',
    'can i ask you something',
    'quick question',
  ],
  thanks: [
    'thanks',
    'thank you',
    'thankyou',
    'thank u',
    'thanx',
    'thx',
    'thnx',
    'ty',
    'tysm',
    'cheers',
    'many thanks',
    'much appreciated',
    'appreciate it',
    'i appreciate it',
    'that helps',
    'that helped',
    'that was helpful',
    'that is helpful',
    'thats helpful',
    'helpful',
  ],
  goodbye: [
    'bye',
    'bye bye',
    'byebye',
    'goodbye',
    'good bye',
    'see you',
    'see ya',
    'see you later',
    'cya',
    'have a nice day',
    'have a good day',
    'have a great day',
    'good night',
    'take care',
  ],
  acknowledgement: [
    'ok',
    'okay',
    'okey',
    'okie',
    'k',
    'kk',
    'cool',
    'great',
    'perfect',
    'nice',
    'awesome',
    'excellent',
    'lovely',
    'brilliant',
    'wonderful',
    'got it',
    'gotcha',
    'alright',
    'all right',
    'sounds good',
    'understood',
    'noted',
    'i see',
    'makes sense',
    'that makes sense',
  ],
  // "No thanks" to an offered person (answerToOffer): alone, "no" answers something the reader cannot see.
  declined: [],
};

/** Words that may sit around the phrases without making the message a question. */
const FILLER = new Set(
  'there so very much again a lot guys all everyone folks team oh ah well really just for your the help and you too'.split(
    ' ',
  ),
);

/** When one message holds several kinds, the reply answers the one that ends a conversation first. */
const PRIORITY: SmallTalk[] = [
  'goodbye',
  'thanks',
  'identity',
  'capabilities',
  'presence',
  'opener',
  'wellbeing',
  'greeting',
  'acknowledgement',
];

/** Social turns are short: a longer message says something more. */
const MAX_WORDS = 8;

type Lexicon<K> = { kind: K; words: string[]; language: Language }[];

/** Every phrase with its kind, longest first, so "thank you" is read before "ty" could be. */
function lexiconOf<K extends string>(
  phrases: Partial<Record<K, string[]>>,
  language: Language = 'english',
): Lexicon<K> {
  return (Object.entries(phrases) as [K, string[]][])
    .flatMap(([kind, list]) => list.map((phrase) => ({ kind, words: wordsOf(phrase), language })))
    .sort((a, b) => b.words.length - a.words.length);
}

const LEXICON = lexiconOfLanguages(PHRASES, (language) => language.phrases);

/** Every phrase of every language, longest first: English's, then the others' (small-talk-languages.ts). */
function lexiconOfLanguages<K extends string>(
  english: Partial<Record<K, string[]>>,
  phrasesIn: (language: SmallTalkLanguage) => Partial<Record<K, string[]>>,
): Lexicon<K> {
  return [
    ...lexiconOf(english),
    ...Object.entries(FOREIGN_SMALL_TALK).flatMap(([language, texts]) =>
      lexiconOf(phrasesIn(texts), language as Language),
    ),
  ].sort((a, b) => b.words.length - a.words.length);
}

/**
 * Lower case letters and spaces only: a thumbs-up reads "ok"; other emoji, punctuation, apostrophes
 * ("what's" → "whats") and accents ("adiós" → "adios", as many type it) go.
 */
function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/['’]/g, '')
    .replace(/👍|👌/gu, ' ok ')
    .replace(/[^\p{L}\s]+/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

/**
 * The kinds of the phrases the message is made of, or null when any word of it is neither one of
 * the phrases, a filler word nor a word of the bot's name. `found` gets each phrase with its
 * languages: one, or several for a phrase they share ("hallo", "no").
 */
function phrasesOf<K>(
  message: string,
  lexicon: Lexicon<K>,
  botName: string,
  found: { words: string[]; languages: Language[] }[] = [],
): Set<K> | null {
  const words = wordsOf(message);
  if (words.length === 0 || words.length > MAX_WORDS) return null;
  const named = new Set(wordsOf(botName));
  const kinds = new Set<K>();
  for (let at = 0; at < words.length; ) {
    const phrase = lexicon.find((entry) => entry.words.every((word, i) => words[at + i] === word));
    if (phrase) {
      kinds.add(phrase.kind);
      const text = phrase.words.join(' ');
      const languages = lexicon
        .filter((entry) => entry.words.join(' ') === text)
        .map((entry) => entry.language);
      found.push({ words: phrase.words, languages });
      at += phrase.words.length;
    } else if (FILLER.has(words[at]!) || named.has(words[at]!)) at += 1;
    else return null;
  }
  return kinds;
}

/**
 * The kind of social turn the message is, or null when it holds anything else. The bot's own name
 * may appear in it ("hi Crumb helper").
 */
export function smallTalkOf(message: string, botName = ''): SmallTalk | null {
  const kinds = phrasesOf(message, LEXICON, botName);
  return PRIORITY.find((kind) => kinds?.has(kind)) ?? null;
}

/**
 * The language a social turn or an answer to an offer was written in, to reply in: the one most of
 * its phrases are in ("ok gracias" is Spanish: "ok" is every language's). Of languages that share
 * a phrase ("hallo", "no"), the bot's sources' first, then its own language (`fallback`), then
 * English. A turn of words every language types ("ok", 👍) gets the bot's own language; anything
 * else, English.
 */
export function smallTalkLanguage(
  message: string,
  botName: string,
  sourceLanguages: readonly Language[],
  fallback: Language = 'english',
): Language {
  const found: { words: string[]; languages: Language[] }[] = [];
  const kinds = phrasesOf(message, ANY_LEXICON, botName, found);
  const votes = new Map<Language, number>();
  for (const { words, languages } of found)
    if (!words.every((word) => UNIVERSAL.has(word)))
      for (const language of new Set(languages)) votes.set(language, (votes.get(language) ?? 0) + 1);
  if (votes.size === 0) return kinds !== null ? fallback : 'english';
  const most = Math.max(...votes.values());
  const best = [...votes].filter(([, n]) => n === most).map(([language]) => language);
  return (
    sourceLanguages.find((language) => best.includes(language)) ??
    [fallback, 'english' as const].find((language) => best.includes(language)) ??
    best[0]!
  );
}

/** Words typed the same in any language ("ok", 👍): they tell no language. */
const UNIVERSAL = new Set(['ok', 'okay', 'okey', 'okie', 'k', 'kk']);

/**
 * The reply to "are you a bot?": the bot says what it is, by its name, and, when it hands off, that
 * a person can take over (its "Talk to a person" button goes with it).
 */
export function identityReply(
  botName: string,
  offersPerson: boolean,
  language: Language = 'english',
): string {
  const { identity } = repliesIn(language);
  const name = botName.trim();
  const who = name ? fillText(identity.named, { name }) : identity.unnamed;
  return `${who} ${offersPerson ? identity.withPerson : identity.withoutPerson}`;
}

/** The kinds whose reply shows the way to a person (the bot's "Talk to a person" button goes with it). */
export const SHOWS_PERSON: ReadonlySet<SmallTalk> = new Set(['identity', 'capabilities']);

/** The reply to any kind but a greeting (whose words depend on the conversation), in the bot's words where it has them. */
export function smallTalkReply(
  kind: Exclude<SmallTalk, 'greeting'>,
  bot: { botName: string; suggestionQuestions: readonly string[] },
  offersPerson: boolean,
  language: Language = 'english',
): string {
  if (kind === 'identity') return identityReply(bot.botName, offersPerson, language);
  if (kind === 'capabilities') return capabilitiesReply(bot.suggestionQuestions, offersPerson, language);
  return repliesIn(language).replies[kind];
}

/** What the bot says to social turns in a language; English's for a language it has none in. */
export const repliesIn = (language: Language): SmallTalkReplies => FOREIGN_SMALL_TALK[language] ?? ENGLISH;

/** Suggested questions the reply to "what can you do?" names at most. */
const SUGGESTIONS_NAMED = 3;

/**
 * The reply to "what can you do?": what the bot answers from, a few of the questions the owner
 * suggests for it (the welcome's chips on the web, which a channel never shows), and, when it hands
 * off, that a person can take over.
 */
export function capabilitiesReply(
  suggestions: readonly string[],
  offersPerson: boolean,
  language: Language = 'english',
): string {
  const { capabilities } = repliesIn(language);
  const named = suggestions
    .map((question) => question.trim())
    .filter(Boolean)
    .slice(0, SUGGESTIONS_NAMED)
    .map((question) => `“${question}”`);
  const questions =
    named.length <= 1
      ? named.join('')
      : `${named.slice(0, -1).join(', ')} ${capabilities.or} ${named.at(-1)}`;
  return [
    capabilities.answers,
    questions ? fillText(capabilities.examples, { questions }) : '',
    offersPerson ? capabilities.person : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * After the bot offered a person ("Would you like to talk to a person from our team?"), a visitor
 * may answer in words instead of pressing the button: "yes please" takes the offer, "no thanks"
 * declines it. Anything else is a new question.
 */
const OFFER_REPLIES: Record<'yes' | 'no', string[]> = {
  yes: [
    'yes',
    'yes please',
    'yeah',
    'yea',
    'yep',
    'yup',
    'y',
    'sure',
    'ok',
    'okay',
    'please',
    'ok please',
    'definitely',
    'absolutely',
    'of course',
    'go ahead',
    'i would',
    'i would like that',
    'id like that',
    'that would be great',
    'that would be good',
  ],
  no: [
    'no',
    'nope',
    'nah',
    'n',
    'no thanks',
    'no thank you',
    'not now',
    'not right now',
    'maybe later',
    'im good',
    'im fine',
  ],
};
const OFFER_LEXICON = lexiconOfLanguages(OFFER_REPLIES, (language) => language.offer);

/** Social phrases and answers to an offer together: what tells the language a visitor wrote in. */
const ANY_LEXICON: Lexicon<string> = [...LEXICON, ...OFFER_LEXICON].sort(
  (a, b) => b.words.length - a.words.length,
);

/** Whether the message takes (`yes`) or declines (`no`) an offered person, or null when it does neither. */
export function answerToOffer(message: string): 'yes' | 'no' | null {
  const kinds = phrasesOf(message, OFFER_LEXICON, '');
  if (kinds?.size !== 1) return null;
  return kinds.has('yes') ? 'yes' : 'no';
}
