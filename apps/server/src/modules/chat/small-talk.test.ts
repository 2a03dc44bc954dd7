import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  answerToOffer,
  capabilitiesReply,
  identityReply,
  smallTalkLanguage,
  smallTalkOf,
  smallTalkReply,
} from './small-talk.js';

describe('smallTalkOf', () => {
  it('reads greetings, thanks, goodbyes and acknowledgements in everyday spellings', () => {
    const cases: [string, ReturnType<typeof smallTalkOf>][] = [
      ['hi', 'greeting'],
      ['Hello there!', 'greeting'],
      ['hey 👋', 'greeting'],
      ['Good morning', 'greeting'],
      ['hi, how are you?', 'wellbeing'],
      ["what's up", 'wellbeing'],
      ['Can you help me?', 'opener'],
      ['hi, I have a question', 'opener'],
      ['thanks!', 'thanks'],
      ['Thank you so much 🙏', 'thanks'],
      ['ok thanks for your help', 'thanks'],
      ['great, that was helpful', 'thanks'],
      ['ty', 'thanks'],
      ['bye', 'goodbye'],
      ['thanks, bye!', 'goodbye'],
      ['Have a nice day', 'goodbye'],
      ['ok', 'acknowledgement'],
      ['Got it.', 'acknowledgement'],
      ['alright, sounds good', 'acknowledgement'],
      ['👍', 'acknowledgement'],
      ['Hola!', 'greeting'],
      ['Are you still there?', 'presence'],
      ['hello?? anyone there?', 'presence'],
      ['Is this a bot?', 'identity'],
      ['hi, am I talking to a real person?', 'identity'],
      ['are you human or bot', 'identity'],
      ['What can you do?', 'capabilities'],
      ['hi! what can you help me with?', 'capabilities'],
    ];
    for (const [text, kind] of cases) expect(smallTalkOf(text), text).toBe(kind);
  });

  it('reads social turns of other languages, and replies in their language', () => {
    const cases: [string, ReturnType<typeof smallTalkOf>, string][] = [
      ['¡Hola!', 'greeting', 'spanish'],
      ['vale, muchas gracias', 'thanks', 'spanish'],
      ['Merci beaucoup, au revoir !', 'goodbye', 'french'],
      ['Guten Morgen', 'greeting', 'german'],
      ['grazie mille', 'thanks', 'italian'],
      ['obrigada!', 'thanks', 'portuguese'],
      ['dank je wel', 'thanks', 'dutch'],
      ['ok thanks', 'thanks', 'english'],
    ];
    for (const [text, kind, language] of cases) {
      expect(smallTalkOf(text), text).toBe(kind);
      expect(smallTalkLanguage(text, '', []), text).toBe(language);
    }
    // "hallo" is German and Dutch: the bot's sources tell which.
    expect(smallTalkLanguage('hallo', '', ['dutch'])).toBe('dutch');
    expect(smallTalkLanguage('hallo', '', ['german'])).toBe('german');
    const bot = { botName: 'Helecho', suggestionQuestions: [] };
    expect(smallTalkReply('thanks', bot, true, 'spanish')).toBe('¡De nada! ¿Puedo ayudarte en algo más?');
    expect(smallTalkReply('presence', bot, true, 'spanish')).toBe('¡Sí, aquí estoy! ¿En qué puedo ayudarte?');
    expect(smallTalkReply('presence', bot, true, 'finnish')).toBe('Kyllä, olen täällä! Miten voin auttaa?');
    expect(smallTalkReply('thanks', bot, true, 'russian')).toMatch(/^Пожалуйста/);
    expect(smallTalkOf('hola, ¿tenéis pan sin gluten?')).toBeNull();
  });

  it('reads every kind in every language it replies in, typed with or without accents', () => {
    const cases: [string, ReturnType<typeof smallTalkOf>, string][] = [
      ['¿Qué tal?', 'wellbeing', 'spanish'],
      ['hola, ¿hay alguien ahí?', 'presence', 'spanish'],
      ['¿eres un bot?', 'identity', 'spanish'],
      ['¿estoy hablando con una persona real?', 'identity', 'spanish'],
      ['¿qué puedes hacer?', 'capabilities', 'spanish'],
      ['hola, tengo una duda', 'opener', 'spanish'],
      ['adios', 'goodbye', 'spanish'],
      ['Êtes-vous un robot ?', 'identity', 'french'],
      ["qu'est-ce que vous pouvez faire ?", 'capabilities', 'french'],
      ['bonjour, ça va ?', 'wellbeing', 'french'],
      ['Bist du ein Mensch?', 'identity', 'german'],
      ['Hallo, ist da jemand?', 'presence', 'german'],
      ['Wobei können Sie mir helfen?', 'capabilities', 'german'],
      ['sei un bot?', 'identity', 'italian'],
      ['ciao, ho una domanda', 'opener', 'italian'],
      ['você é um robô?', 'identity', 'portuguese'],
      ['olá, tudo bem?', 'wellbeing', 'portuguese'],
      ['Praat ik met een mens?', 'identity', 'dutch'],
      ['Kunt u mij helpen?', 'opener', 'dutch'],
      ['tack så mycket!', 'thanks', 'swedish'],
      ['er det noen der?', 'presence', 'norwegian'],
      ['kiitos paljon', 'thanks', 'finnish'],
      ['вы бот?', 'identity', 'russian'],
      ['köszönöm szépen', 'thanks', 'hungarian'],
      ['merhaba, kimse var mı?', 'presence', 'turkish'],
      ['tesekkurler', 'thanks', 'turkish'],
    ];
    for (const [text, kind, language] of cases) {
      expect(smallTalkOf(text), text).toBe(kind);
      expect(smallTalkLanguage(text, '', []), text).toBe(language);
    }
    for (const text of ['¿eres un bot de la panadería o de la tienda?', 'une question sur ma commande'])
      expect(smallTalkOf(text), text).toBeNull();
  });

  it("reads the bot's own name as part of a greeting", () => {
    expect(smallTalkOf('Hi Crumb helper!', 'Crumb helper')).toBe('greeting');
    expect(smallTalkOf('Hi Crumb helper!')).toBeNull();
  });

  it('leaves every message that asks or says anything more to the sources', () => {
    for (const text of [
      'hi, are you open on Sunday?',
      'thanks, and how much is delivery?',
      'ok so what does a cake cost',
      'Do you ship to Canada?',
      'help with my order',
      'thanks for the help with my order',
      'evening?',
      'is that ok',
      'yes',
      'no',
      'great cakes, do you deliver them?',
      'hello hello hello hello hello hello hello hello hello',
      'are you open there on Sundays?',
      'is there anyone who can fix my order',
      'are you a shop or a bakery?',
      'who are you',
      'what can you do about my late order',
      'what do you know about gluten',
      '',
      '🎂',
    ])
      expect(smallTalkOf(text), text).toBeNull();
  });
});

describe('identityReply', () => {
  it('says it is an automated assistant, by its name, and shows the way to a person when it hands off', () => {
    expect(identityReply('Crumb helper', true)).toBe(
      "I'm Crumb helper, an automated assistant, not a person. I can answer your questions, or you can ask to talk to a person from our team.",
    );
    expect(identityReply('  ', false)).toBe("I'm an automated assistant, not a person. How can I help you?");
  });

  it("says it in the visitor's language", () => {
    expect(identityReply('Helecho', true, 'spanish')).toBe(
      'Soy Helecho, un asistente automático, no una persona. Puedo responder a tus preguntas, o puedes pedir hablar con una persona de nuestro equipo.',
    );
    expect(identityReply('', false, 'german')).toBe(
      'Ich bin ein automatischer Assistent, kein Mensch. Wie kann ich Ihnen helfen?',
    );
  });
});

describe('capabilitiesReply', () => {
  it("names up to three of the owner's suggested questions, and a person when the bot hands off", () => {
    expect(capabilitiesReply(['Do you deliver?', ' ', 'Are you open on Sunday?'], true)).toBe(
      'I can answer your questions from the information our team has given me. For example, you could ask “Do you deliver?” or “Are you open on Sunday?”. I can also put you in touch with a person from our team.',
    );
    expect(capabilitiesReply(['A?', 'B?', 'C?', 'D?'], false)).toBe(
      'I can answer your questions from the information our team has given me. For example, you could ask “A?”, “B?” or “C?”.',
    );
    expect(capabilitiesReply([], false)).toBe(
      'I can answer your questions from the information our team has given me.',
    );
  });

  it("says it in the visitor's language", () => {
    expect(capabilitiesReply(['¿Hacéis envíos?', '¿Abrís el domingo?'], true, 'spanish')).toBe(
      'Puedo responder a tus preguntas con la información que me ha dado nuestro equipo. Por ejemplo, puedes preguntar “¿Hacéis envíos?” o “¿Abrís el domingo?”. También puedo ponerte en contacto con una persona de nuestro equipo.',
    );
    expect(capabilitiesReply(['Livrez-vous ?'], false, 'french')).toBe(
      'Je peux répondre à vos questions grâce aux informations que notre équipe m’a données. Par exemple, vous pouvez demander “Livrez-vous ?”.',
    );
  });
});

describe('answerToOffer', () => {
  it('reads a yes or a no to an offered person, and nothing else', () => {
    for (const text of ['yes', 'Yes please!', 'yeah sure', 'ok', 'please', "I'd like that", 'y'])
      expect(answerToOffer(text), text).toBe('yes');
    for (const text of ['no', 'No thanks.', 'nope', 'not now', "I'm good"])
      expect(answerToOffer(text), text).toBe('no');
    for (const text of ['yes no', 'yes, do you ship to Canada?', 'thanks', 'hello', ''])
      expect(answerToOffer(text), text).toBeNull();
  });

  it('reads them in the languages the bot offers a person in, and tells the language to reply in', () => {
    const cases: [string, 'yes' | 'no', string][] = [
      ['sí, por favor', 'yes', 'spanish'],
      ['Si', 'yes', 'spanish'],
      ['no, gracias', 'no', 'spanish'],
      ['oui merci', 'yes', 'french'],
      ['non merci', 'no', 'french'],
      ['Ja, gerne!', 'yes', 'german'],
      ['nein danke', 'no', 'german'],
      ['sì grazie', 'yes', 'italian'],
      ['não, obrigado', 'no', 'portuguese'],
      ['ja graag', 'yes', 'dutch'],
      ['nee, bedankt', 'no', 'dutch'],
    ];
    for (const [text, answer, language] of cases) {
      expect(answerToOffer(text), text).toBe(answer);
      expect(smallTalkLanguage(text, '', []), text).toBe(language);
    }
    // "no" is English, Spanish and Italian: the bot's sources tell which; "ja" is German and Dutch.
    expect(smallTalkLanguage('no', '', ['spanish'])).toBe('spanish');
    expect(smallTalkLanguage('no', '', ['english'])).toBe('english');
    expect(smallTalkLanguage('ja', '', ['dutch'])).toBe('dutch');
    expect(smallTalkLanguage('ok', '', ['german'], 'german')).toBe('german');
  });
});

/** Every visitor question of the answer and retrieval evaluations (eval/), holdout sets included. */
function evaluationQuestions(): string[] {
  const evalDir = fileURLToPath(new URL('../../../../../eval/', import.meta.url));
  const questions: string[] = [];
  const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Array<Record<string, string>>;
  for (const set of ['dev', 'holdout', 'intl', 'intl-holdout'])
    for (const site of readdirSync(`${evalDir}answers/${set}`))
      for (const q of read(`${evalDir}answers/${set}/${site}/questions.json`))
        questions.push(...[q.first, q.q].filter((text): text is string => Boolean(text)));
  for (const file of ['questions.json', 'python-docs/questions.json', 'postgres-docs/questions.json'])
    for (const q of read(`${evalDir}retrieval/${file}`)) questions.push(q.q!);
  return questions;
}

describe("the evaluations' questions", () => {
  it('are all questions, none read as small talk or as an answer to an offer', () => {
    const questions = evaluationQuestions();
    expect(questions.length).toBeGreaterThan(300);
    expect(questions.filter((q) => smallTalkOf(q) !== null || answerToOffer(q) !== null)).toEqual([]);
  });
});
