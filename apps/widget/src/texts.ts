import {
  fillText,
  type LeadFormConfig,
  type PublicBot,
  WIDGET_TEXTS_ENGLISH,
  type WidgetTexts,
} from '@parley/contracts';
import { CONTACT_FORM } from '@parley/contracts/constants';
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

/** The widget's texts, given once by the App. */
export const TextsContext = createContext<WidgetTexts>(WIDGET_TEXTS_ENGLISH);
export const useTexts = () => useContext(TextsContext);

/** The contact form (CONTACT_FORM) with its title and labels in the widget's language. */
export function contactFormIn(t: WidgetTexts): LeadFormConfig {
  const labels: Record<string, string> = {
    name: t.contactName,
    email: t.contactEmail,
    question: t.contactQuestion,
  };
  return {
    ...CONTACT_FORM,
    title: t.contactTitle,
    fields: CONTACT_FORM.fields.map((field) => ({ ...field, label: labels[field.name] ?? field.label })),
  };
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "synced 3 days ago" in the widget's language (the chat client's syncedLabel speaks English only). */
export function syncedText(t: WidgetTexts, iso: string | null | undefined, now = Date.now()): string {
  const at = iso ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(at)) return '';
  const elapsed = Math.max(0, now - at);
  const format = new Intl.RelativeTimeFormat(t.lang, { numeric: 'auto' });
  for (const [unit, ms] of UNITS)
    if (elapsed >= ms) return fillText(t.synced, { when: format.format(-Math.floor(elapsed / ms), unit) });
  return t.syncedJustNow;
}
