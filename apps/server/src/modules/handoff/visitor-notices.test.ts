import { HANDOFF_TEXTS, VISITOR_LANGUAGES } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { visitorLanguageOf } from '../bots/visitor-language.js';
import { VISITOR_NOTICES } from './visitor-notices.js';

describe('visitor notices', () => {
  it('say every notice in every language a bot speaks, English as the hand-off always has', () => {
    expect(VISITOR_NOTICES.english.nobodyOnline).toBe(HANDOFF_TEXTS.nobodyOnline);
    expect(VISITOR_NOTICES.english.requested(3)).toBe(HANDOFF_TEXTS.requested(3));
    for (const language of VISITOR_LANGUAGES) {
      const notices = VISITOR_NOTICES[language];
      for (const [key, notice] of Object.entries(notices)) {
        const text =
          typeof notice === 'function'
            ? (notice as (...args: string[]) => string)('Ana', 'ana@example.com')
            : notice;
        expect(text.trim().length, `${language}.${key}`).toBeGreaterThan(5);
        if (language !== 'english')
          expect(text, `${language}.${key}`).not.toBe(
            (VISITOR_NOTICES.english as Record<string, unknown>)[key],
          );
      }
      // The place in line and the visitor's details are in the text.
      expect(notices.requested(4)).toContain('4');
      expect(notices.contactLeft('Ana', 'ana@example.com')).toContain('ana@example.com');
    }
  });
});

describe('visitorLanguageOf', () => {
  it("follows the owner's choice, else the language most of the sources are in, else English", () => {
    expect(visitorLanguageOf('german', ['spanish'])).toBe('german');
    expect(visitorLanguageOf('auto', ['spanish'])).toBe('spanish');
    // Most documents first: a Spanish site with an English price list speaks Spanish, and the reverse English.
    expect(visitorLanguageOf('auto', ['spanish', 'english'])).toBe('spanish');
    expect(visitorLanguageOf('auto', ['english', 'spanish'])).toBe('english');
    // Swedish sources speak Swedish; a language Parley does not speak to visitors, or no sources yet: English.
    expect(visitorLanguageOf('auto', ['swedish'])).toBe('swedish');
    expect(visitorLanguageOf('auto', ['simple'])).toBe('english');
    expect(visitorLanguageOf('auto', [])).toBe('english');
  });
});
