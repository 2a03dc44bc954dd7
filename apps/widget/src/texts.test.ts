import { BAD_ANSWER_OFFER, leadErrors, validateLead } from '@parley/chat-client';
import {
  CONTACT_FORM,
  type LeadFormField,
  type PublicBot,
  WIDGET_TEXTS,
  WIDGET_TEXTS_ENGLISH,
} from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { contactFormIn, directionOf, syncedText, textsOf } from './texts';

/** The translations come from the server (`PublicBot.texts`); tests may take them from the contracts. */
const spanish = textsOf({ texts: WIDGET_TEXTS.spanish });

describe('widget texts', () => {
  it('speaks English as the chat client does', () => {
    expect(WIDGET_TEXTS_ENGLISH.badAnswerOffer).toBe(BAD_ANSWER_OFFER);
    expect(contactFormIn(WIDGET_TEXTS_ENGLISH)).toEqual(CONTACT_FORM);
  });

  it("takes the bot's texts from the server, English for any missing", () => {
    expect(spanish).toEqual(WIDGET_TEXTS.spanish);
    expect(textsOf({ texts: WIDGET_TEXTS.german }).person).toBe('Mit einer Person sprechen');
    // A server older than the widget sends no texts, or not all of them.
    expect(textsOf(undefined)).toBe(WIDGET_TEXTS_ENGLISH);
    expect(textsOf({} as Pick<PublicBot, 'texts'>)).toBe(WIDGET_TEXTS_ENGLISH);
    const { placeholder: _, ...some } = WIDGET_TEXTS.french;
    const partial = textsOf({ texts: { ...some, send: '' } as PublicBot['texts'] });
    expect(partial.placeholder).toBe(WIDGET_TEXTS_ENGLISH.placeholder);
    expect(partial.send).toBe(WIDGET_TEXTS_ENGLISH.send);
    expect(partial.person).toBe(WIDGET_TEXTS.french.person);
    expect(textsOf({ texts: { toString: 'x' } as unknown as PublicBot['texts'] })).toEqual(
      WIDGET_TEXTS_ENGLISH,
    );
  });

  it("tells a source's freshness in the widget's language", () => {
    const now = Date.parse('2026-11-27T12:00:00Z');
    const threeDays = new Date(now - 3 * 86_400_000).toISOString();
    expect(syncedText(spanish, threeDays, now)).toBe('actualizado hace 3 días');
    expect(syncedText(textsOf({ texts: WIDGET_TEXTS.german }), threeDays, now)).toBe(
      'aktualisiert vor 3 Tagen',
    );
    expect(syncedText(WIDGET_TEXTS_ENGLISH, null, now)).toBe('');
  });

  it("checks a lead form as the chat client does, in the widget's language", () => {
    const fields: LeadFormField[] = [
      { name: 'name', label: 'Name', type: 'text', required: true },
      { name: 'email', label: 'Email', type: 'email', required: true },
      { name: 'note', label: 'Note', type: 'text', required: false },
    ];
    const cases: Record<string, string>[] = [
      {},
      { name: 'Ada', email: 'ada@' },
      { name: 'Ada', note: 'x'.repeat(501) },
    ];
    for (const values of cases)
      expect(leadErrors(WIDGET_TEXTS_ENGLISH, fields, values)).toEqual(validateLead(fields, values));
    expect(leadErrors(spanish, fields, { email: 'ada@' })).toEqual({
      name: 'Este campo es obligatorio',
      email: 'Introduce un correo electrónico válido',
    });
  });

  it('translates the contact form but keeps its fields', () => {
    const form = contactFormIn(textsOf({ texts: WIDGET_TEXTS.french }));
    expect(form.title).toBe('Laissez-nous vos coordonnées');
    expect(form.fields.map((field) => [field.name, field.label])).toEqual([
      ['name', 'Nom'],
      ['email', 'E-mail'],
      ['question', 'Votre question'],
    ]);
  });
});

describe('directionOf', () => {
  it('writes Arabic, Hebrew, Persian and Urdu right to left, the rest left to right', () => {
    expect(['ar', 'he', 'fa', 'ur', 'ar-EG'].map(directionOf)).toEqual(['rtl', 'rtl', 'rtl', 'rtl', 'rtl']);
    expect(['en', 'es', 'ru', 'tr', 'arn', ''].map(directionOf)).toEqual([
      'ltr',
      'ltr',
      'ltr',
      'ltr',
      'ltr',
      'ltr',
    ]);
  });
});
