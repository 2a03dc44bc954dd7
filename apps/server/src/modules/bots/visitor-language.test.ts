import { describe, expect, it } from 'vitest';
import { widgetLanguageOf } from './visitor-language.js';

describe('widgetLanguageOf', () => {
  const belgian = [
    { language: 'dutch', documents: 12 },
    { language: 'french', documents: 9 },
    { language: 'english', documents: 1 },
  ];

  it("speaks the language the visitor's browser prefers, of those the sources are written in", () => {
    expect(widgetLanguageOf('auto', belgian, 'fr-BE,fr;q=0.9,en;q=0.8')).toBe('french');
    expect(widgetLanguageOf('auto', belgian, 'nl-BE,nl;q=0.9')).toBe('dutch');
    // A browser's region tag counts as its language's; weights decide among several.
    expect(widgetLanguageOf('auto', belgian, 'de-DE,fr-FR;q=0.5,nl;q=0.3')).toBe('french');
  });

  it("keeps the sources' majority for a language they hold little of, or none, or without a header", () => {
    // One English page in 22 documents: a visitor preferring English is still greeted in Dutch.
    expect(widgetLanguageOf('auto', belgian, 'en-GB,en;q=0.9')).toBe('dutch');
    expect(widgetLanguageOf('auto', belgian, 'es')).toBe('dutch');
    expect(widgetLanguageOf('auto', belgian, undefined)).toBe('dutch');
    expect(widgetLanguageOf('auto', [{ language: 'spanish', documents: 5 }], 'fr')).toBe('spanish');
  });

  it("never overrides the owner's choice", () => {
    expect(widgetLanguageOf('german', belgian, 'fr')).toBe('german');
  });
});
