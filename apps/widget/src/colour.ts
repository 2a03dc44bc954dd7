import { readableOn } from '@parley/chat-client';
import { BOT } from '@parley/contracts';

/** The page's colours from the bot's brand colour: the brand, text on it, and an accent for text on white. */
export function palette(brand: string): { brand: string; onBrand: string; accent: string } {
  // Not a colour: the default a new bot gets, which shows on white and on dark pages.
  const valid = /^#[0-9a-f]{6}$/i.test(brand) ? brand : BOT.defaultBrandColor;
  const onBrand = readableOn(valid);
  // A light brand colour would vanish as text on white: links and chips then use dark grey.
  return { brand: valid, onBrand, accent: onBrand === '#ffffff' ? valid : '#1f2937' };
}
