import { describe, expect, it } from 'vitest';
import { BOT, businessName, defaultWelcome, welcomeIn, welcomeOf } from './constants.js';
import { WIDGET_TEXTS } from './widget-texts-translations.js';

describe('a new bot greeting', () => {
  it('names the business: the workspace chosen at sign-up, else the bot', () => {
    expect(businessName('Blue Fern Bakery', 'Support_bot')).toBe('Blue Fern Bakery');
    // The automatic workspace name ("Ada's workspace") names no business: the bot's name does.
    expect(businessName("Ada's workspace", 'Blue_Fern  helper')).toBe('Blue Fern helper');
    expect(businessName(null, 'Harbour')).toBe('Harbour');
    expect(defaultWelcome('Blue Fern Bakery')).toBe('Welcome to Blue Fern Bakery! How can I help you today?');
  });

  it("greets with the bot's own message, or the default naming it", () => {
    expect(welcomeOf('  Hi!  ', 'Harbour')).toBe('Hi!');
    expect(welcomeOf('', 'Harbour_help')).toBe('Welcome to Harbour help! How can I help you today?');
    expect(welcomeOf(null, 'Harbour')).toBe('Welcome to Harbour! How can I help you today?');
  });

  it("greets in the visitor's language with the default welcome, never rewriting the owner's own", () => {
    const spanish = WIDGET_TEXTS.spanish;
    expect(welcomeIn('Welcome to Panadería Helecho! How can I help you today?', 'Helecho', spanish)).toBe(
      '¡Te damos la bienvenida a Panadería Helecho! ¿En qué puedo ayudarte hoy?',
    );
    expect(welcomeIn(null, 'Helecho_azul', WIDGET_TEXTS.german)).toBe(
      'Willkommen bei Helecho azul! Wie kann ich Ihnen heute helfen?',
    );
    for (const own of ['¡Hola! Pregúntame lo que quieras.', 'Welcome to our shop! Ask me anything.'])
      expect(welcomeIn(own, 'Helecho', spanish)).toBe(own);
    expect(welcomeIn(' Welcome to X! How can I help you today? ', 'X', WIDGET_TEXTS.english)).toBe(
      'Welcome to X! How can I help you today?',
    );
  });

  it('has a brand colour a launcher shows in on a white page', () => {
    expect(BOT.defaultBrandColor.toLowerCase()).not.toBe('#ffffff');
  });
});
