import { describe, expect, it } from 'vitest';
import { PublicBot } from './bots.js';
import { CONTACT_FORM, PERSON_BUTTON, VISITOR_LANGUAGES } from './constants.js';
import { HANDOFF_TEXTS } from './handoff.js';
import { LEAD_TEXTS } from './leads.js';
import { MESSAGES } from './messages.js';
import { fillText, WIDGET_TEXTS_ENGLISH, type WidgetTexts } from './widget-texts.js';
import { WIDGET_TEXTS } from './widget-texts-translations.js';

const KEYS = Object.keys(WIDGET_TEXTS_ENGLISH).sort() as (keyof WidgetTexts)[];
/** The `{placeholders}` of a text, in order. */
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
/** Form errors sit under their field, so a translation may leave out the field's `{label}`. */
const LABEL_OPTIONAL = new Set<keyof WidgetTexts>(['required', 'tooLong']);

describe('widget texts', () => {
  it('has every text in every language, none empty, with the placeholders English has', () => {
    expect(WIDGET_TEXTS.english).toBe(WIDGET_TEXTS_ENGLISH);
    expect(Object.keys(WIDGET_TEXTS).sort()).toEqual([...VISITOR_LANGUAGES].sort());
    for (const language of VISITOR_LANGUAGES) {
      const texts = WIDGET_TEXTS[language];
      expect(Object.keys(texts).sort(), language).toEqual(KEYS);
      for (const key of KEYS) {
        const text = texts[key];
        expect(typeof text === 'string' && text.trim().length > 0, `${language}.${key}`).toBe(true);
        const expected = placeholders(WIDGET_TEXTS_ENGLISH[key]).sort();
        const found = placeholders(text).sort();
        if (LABEL_OPTIONAL.has(key) && found.length === 0)
          expect(expected, `${language}.${key}`).toEqual(['label']);
        else expect(found, `${language}.${key}`).toEqual(expected);
      }
    }
  });

  it('speaks English as the widget did before it spoke other languages', () => {
    expect(WIDGET_TEXTS_ENGLISH).toMatchObject({
      lang: 'en',
      openChat: 'Open chat',
      openChatUnread: 'Open chat, unread messages: {count}',
      closeChat: 'Close chat',
      online: 'Online',
      away: 'Our team is away',
      humanAvailable: 'A human is available',
      placeholder: 'Type your message…',
      connectionLost: 'Connection lost. Reconnecting…',
      goodAnswer: 'Good answer',
      badAnswer: 'Bad answer',
      bookTime: 'Book a time',
      notAllowed: 'This site is not allowed to embed this bot',
      unreachable: 'The chat could not be reached. Please try again later.',
      poweredBy: 'Powered by Parley',
      // The texts the contracts keep too, which the widget's English writes out.
      person: PERSON_BUTTON,
      contactFailed: HANDOFF_TEXTS.contactFailed,
      thanks: LEAD_TEXTS.received,
      unableToEstablish: MESSAGES.realtime.unableToEstablish,
      sendFailed: MESSAGES.realtime.sendFailed,
      contactTitle: CONTACT_FORM.title,
    });
    expect(HANDOFF_TEXTS.button).toBe(WIDGET_TEXTS_ENGLISH.person);
    const e = WIDGET_TEXTS_ENGLISH;
    expect(fillText(e.chatWith, { name: 'Ada' })).toBe('Chat with Ada');
    expect(fillText(e.page, { n: 3 })).toBe('p. 3');
    expect(fillText(e.synced, { when: '3 days ago' })).toBe('synced 3 days ago');
    expect(fillText(e.requestFailed, { status: 502 })).toBe('Request failed (502)');
    expect(fillText(e.required, { label: 'Email' })).toBe('Email is required');
    expect(fillText(e.tooLong, { label: 'Note' })).toBe('Note is at most 500 characters');
  });

  it('says each language in its own words, with its BCP 47 code', () => {
    expect(VISITOR_LANGUAGES.map((language) => WIDGET_TEXTS[language].lang)).toEqual([
      'en',
      'es',
      'fr',
      'de',
      'it',
      'pt',
      'nl',
      'da',
      'sv',
      'nb',
      'fi',
      'ru',
      'hu',
      'tr',
    ]);
    for (const language of VISITOR_LANGUAGES.filter((l) => l !== 'english')) {
      const texts = WIDGET_TEXTS[language];
      for (const key of ['placeholder', 'person', 'badAnswerOffer', 'thanks'] as const)
        expect(texts[key], `${language}.${key}`).not.toBe(WIDGET_TEXTS_ENGLISH[key]);
    }
  });

  it('fills named placeholders once, leaving unknown ones and replacement patterns as written', () => {
    expect(fillText('{a} and {b}, {a}', { a: 1, b: 'two' })).toBe('1 and two, 1');
    expect(fillText('Chat with {name}', { name: '$& {name}' })).toBe('Chat with $& {name}');
    expect(fillText('{missing} {toString}', {})).toBe('{missing} {toString}');
    expect(fillText('no placeholders', { name: 'Ada' })).toBe('no placeholders');
  });

  it("is in the public bot's shape, every key a string", () => {
    const bot = {
      bot_id: 1,
      uuid: 'b0b0b0b0-0000-4000-8000-000000000001',
      bot_name: 'Ada',
      description: null,
      profile_image: null,
      brand_color: '#2563eb',
      welcome_message: 'Hola',
      suggestion_questions: [],
      lead_form_config: null,
      human_button: 'always',
      language: 'spanish',
      booking: null,
      show_branding: true,
    } as const;
    expect(PublicBot.parse({ ...bot, texts: WIDGET_TEXTS.spanish }).texts).toEqual(WIDGET_TEXTS.spanish);
    expect(Object.keys(PublicBot.shape.texts.shape).sort()).toEqual(KEYS);
    const { placeholder: _, ...missing } = WIDGET_TEXTS.french;
    expect(PublicBot.safeParse({ ...bot, texts: missing }).success).toBe(false);
  });
});
