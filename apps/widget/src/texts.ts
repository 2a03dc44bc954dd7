import { type PublicBot, WIDGET_TEXTS_ENGLISH, type WidgetTexts } from '@parley/contracts';
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

export type { WidgetTexts };

/**
 * The widget's words: English built in (WIDGET_TEXTS_ENGLISH), the bot's language as the server sends
 * it (`PublicBot.texts`). The translations stay on the server, out of this bundle. A key missing or
 * not text (a server older than the widget) is said in English.
 */
export function textsOf(bot: Pick<PublicBot, 'texts'> | null | undefined): WidgetTexts {
  const sent: unknown = bot?.texts;
  if (!sent || typeof sent !== 'object') return WIDGET_TEXTS_ENGLISH;
  const texts = { ...WIDGET_TEXTS_ENGLISH };
  for (const key of Object.keys(texts) as (keyof WidgetTexts)[]) {
    const text = (sent as Partial<Record<keyof WidgetTexts, unknown>>)[key];
    if (typeof text === 'string' && text) texts[key] = text;
  }
  return texts;
}

/** Languages written right to left, by their BCP 47 code (`WidgetTexts.lang`). */
const RIGHT_TO_LEFT = /^(ar|arc|ckb|dv|fa|he|ps|sd|ug|ur|yi)(-|$)/i;

export const directionOf = (lang: string): 'rtl' | 'ltr' => (RIGHT_TO_LEFT.test(lang) ? 'rtl' : 'ltr');

/** The widget's texts, given once by the App. */
export const TextsContext = createContext<WidgetTexts>(WIDGET_TEXTS_ENGLISH);
export const useTexts = () => useContext(TextsContext);

// The contact form and a source's freshness in a language are the chat client's: the console's public chat page says them too.
export { contactFormIn, syncedText } from '@parley/chat-client';
