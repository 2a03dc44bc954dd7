import { describe, expect, it } from 'vitest';
import { BOT, businessName, defaultWelcome, welcomeOf } from './constants.js';

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

  it('has a brand colour a launcher shows in on a white page', () => {
    expect(BOT.defaultBrandColor.toLowerCase()).not.toBe('#ffffff');
  });
});
