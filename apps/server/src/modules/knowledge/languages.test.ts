import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { questionTerms, segment } from './evidence.js';
import { FOREIGN_INTENTS } from './foreign-words.js';
import {
  detectLanguage,
  detectLanguageByWords,
  type Language,
  lexiconOf,
  lowerCase,
  questionLanguage,
  withoutAccents,
} from './languages.js';

describe('detectLanguage', () => {
  it("tells a page's language by its words", () => {
    const pages: [string, string][] = [
      [
        'Llevamos pedidos a domicilio de martes a sábado. El envío cuesta 3 € y es gratis en pedidos de más de 30 €.',
        'spanish',
      ],
      [
        "Le petit-déjeuner est servi de 7h30 à 10h dans la salle du jardin. Il coûte 16,50 € par personne et n'est pas inclus.",
        'french',
      ],
      [
        'Wir behandeln Kassen- und Privatpatienten. Bitte sagen Sie einen Termin mindestens 24 Stunden vorher ab.',
        'german',
      ],
      [
        'Il noleggio di una bici da città costa 15 € al giorno, casco e lucchetto compresi nel prezzo.',
        'italian',
      ],
      [
        'Os cursos intensivos começam todas as segundas-feiras e custam 890 € por quatro semanas.',
        'portuguese',
      ],
      ['Wij zijn op donderdag geopend tot 20.00 uur. Een controle kost € 27,46 en wordt vergoed.', 'dutch'],
    ];
    for (const [text, language] of pages) expect(detectLanguage(text), text).toBe(language);
  });

  it('keeps English pairs English, which letter trigrams alone read as French', () => {
    const pair =
      'Do you offer classes for children?\nOur group classes are for adults and teens aged 16 and over. We don’t run children’s classes, but younger learners can take private lessons with a parent present.';
    expect(detectLanguage(pair)).toBe('english');
    expect(detectLanguage('Can I pick up my car after you close?')).toBe('english');
    // Too little to tell: English, the default.
    expect(detectLanguage('ok')).toBe('english');
    expect(detectLanguageByWords('paella')).toBeNull();
  });
});

describe('questionLanguage', () => {
  it("tells a short question's language by its chat and question words too", () => {
    expect(questionLanguage('¿Hacéis envíos a Francia?')).toBe('spanish');
    expect(detectLanguageByWords('¿Hacéis envíos a Francia?')).toBeNull();
    expect(questionLanguage('Combien coûte le petit-déjeuner ?')).toBe('french');
    expect(questionLanguage('Was kostet eine Massage?')).toBe('german');
    expect(questionLanguage('How much is a massage?')).toBe('english');
    // Words every chat types tell nothing.
    expect(questionLanguage('ok, info?')).toBeNull();
  });

  it('never reads a question of the evaluations in another language than its site', () => {
    const evalDir = fileURLToPath(new URL('../../../../../eval/answers/', import.meta.url));
    const site: Record<string, Language> = {
      'bici-bologna': 'italian',
      'hotel-annecy': 'french',
      'physio-muenchen': 'german',
      restaurante: 'spanish',
      'escola-lisboa': 'portuguese',
      'tandarts-utrecht': 'dutch',
      'camping-sunne': 'swedish',
      'garazh-kazan': 'russian',
      'pansiyon-kas': 'turkish',
    };
    const misread: string[] = [];
    for (const set of readdirSync(evalDir).filter((name) => !name.includes('.')))
      for (const name of readdirSync(`${evalDir}${set}`)) {
        const questions = JSON.parse(readFileSync(`${evalDir}${set}/${name}/questions.json`, 'utf8')) as {
          q: string;
        }[];
        for (const { q } of questions) {
          const told = questionLanguage(q);
          if (told !== null && told !== (site[name] ?? 'english')) misread.push(`${set}/${name}`);
        }
      }
    expect(misread).toEqual([]);
  });
});

describe('lexiconOf', () => {
  it("stems a word in each of the bot's languages and knows their filler words", () => {
    const spanish = lexiconOf(['spanish']);
    expect(spanish.stems('envíos')).toEqual(spanish.stems('envío'));
    expect(spanish.isFiller('quisiera')).toBe(true);
    expect(spanish.isFiller('paella')).toBe(false);
    const both = lexiconOf(['spanish', 'english']);
    expect(both.stems('deliveries').length).toBeGreaterThan(0);
    expect(lexiconOf([])).toBe(lexiconOf(['english']));
  });

  it('reads a date in words as answering when, in each language', () => {
    for (const line of [
      'El 24 de diciembre cerramos a las dos.',
      'Fermeture annuelle du 1er décembre au 15 janvier.',
      'Am 24. Dezember bleibt die Praxis zu.',
      'Riapriamo il 7 gennaio.',
      'As aulas começam a 3 de março.',
      'Op 5 mei zijn wij dicht.',
    ])
      expect(FOREIGN_INTENTS.time.answers.test(line), line).toBe(true);
    expect(FOREIGN_INTENTS.time.answers.test('Tenemos 24 marcas de café.')).toBe(false);
  });

  it("reads a Spanish question's subject and intent, without its chat words", () => {
    const terms = questionTerms('hola, ¿cuánto cuesta el envío a domicilio?', {
      chunks: 10,
      terms: [
        { word: 'envío', df: 2 },
        { word: 'domicilio', df: 2 },
      ],
      languages: ['spanish'],
    });
    expect(terms.map((t) => t.label).sort()).toEqual(['cuesta', 'domicilio', 'envío', 'price']);
    // The same question read as English keeps the Spanish function words as unknown terms.
    const asEnglish = questionTerms('hola, ¿cuánto cuesta el envío a domicilio?', { chunks: 10, terms: [] });
    expect(asEnglish.some((t) => t.label === 'cuánto')).toBe(true);
  });
});

describe('the languages whose words are kept one file each', () => {
  it('reads their questions for a price, a time, a place and a follow-up', () => {
    const asks = (intent: keyof typeof FOREIGN_INTENTS, text: string) =>
      FOREIGN_INTENTS[intent].asks.test(text);
    expect(asks('price', 'Vad kostar en kanot?')).toBe(true);
    expect(asks('price', 'Hvad koster en cykel?')).toBe(true);
    expect(asks('price', 'Paljonko kajakki maksaa?')).toBe(true);
    expect(asks('price', 'сколько стоит шиномонтаж?')).toBe(true);
    expect(asks('price', 'Mennyibe kerül egy masszázs?')).toBe(true);
    expect(asks('price', 'kahvaltı ne kadar?')).toBe(true);
    // A word that asks a price only beside another: "стоит" is also "is worth".
    expect(asks('price', 'Стоит ли бронировать заранее?')).toBe(false);
    expect(asks('time', 'När öppnar receptionen?')).toBe(true);
    expect(asks('place', 'где вы находитесь?')).toBe(true);
    expect(FOREIGN_INTENTS.time.answers.test('Receptionen har öppet kl. 9–18.')).toBe(true);
    expect(FOREIGN_INTENTS.price.answers.test('En dag kostar 425 kr.')).toBe(true);
    expect(FOREIGN_INTENTS.price.answers.test('Шиномонтаж — от 1 500 ₽.')).toBe(true);
    for (const address of ['Storgatan 5', 'Kossuth Lajos utca 12', 'Atatürk Cad. No: 12', 'ул. Кутуя, 110'])
      expect(FOREIGN_INTENTS.place.answers.test(address), address).toBe(true);
  });

  it('tells a short question in each of them by its chat words', () => {
    expect(questionLanguage('Hej! Vad kostar det att hyra en stuga?')).toBe('swedish');
    expect(questionLanguage('Здравствуйте, сколько стоит замена масла?')).toBe('russian');
    expect(questionLanguage('Merhaba, kahvaltı dahil mi?')).toBe('turkish');
    expect(questionLanguage('Jó napot, mennyibe kerül egy szoba?')).toBe('hungarian');
  });

  it('reads a word as typed without its accents', () => {
    expect(withoutAccents('çocuklar')).toBe('cocuklar');
    expect(withoutAccents('spørgsmål')).toBe('sporgsmal');
    expect(withoutAccents('kahvaltı')).toBe('kahvalti');
    expect(withoutAccents('ёлка')).toBe('елка');
    expect(withoutAccents('delivery')).toBe('delivery');
    const turkish = lexiconOf(['turkish']);
    expect(turkish.stems('çocuklar')).toEqual(expect.arrayContaining([...turkish.stems('cocuklar')]));
  });

  it('lowers a Turkish capital İ to the i a visitor types', () => {
    expect(lowerCase('İstanbul İLETİŞİM')).toBe('istanbul iletişim');
  });

  it('ends no sentence at an abbreviation before a time, an amount or a street', () => {
    expect(segment('Incheckning från kl. 14.00 kostar 200 kr. Utcheckning senast kl. 11.00.')).toEqual([
      'Incheckning från kl. 14.00 kostar 200 kr.',
      'Utcheckning senast kl. 11.00.',
    ]);
    expect(segment('Мы находимся по адресу ул. Кутуя, д. 110. Звоните!')).toEqual([
      'Мы находимся по адресу ул. Кутуя, д. 110.',
      'Звоните!',
    ]);
    expect(segment('Es dauert ca. 20 Minuten. Danach z.B. Kaffee.')).toEqual([
      'Es dauert ca. 20 Minuten.',
      'Danach z.B. Kaffee.',
    ]);
  });
});
