import {
  fillText,
  type LeadFormConfig,
  type LeadFormField,
  type ServerFrameCode,
  type WidgetTexts,
} from '@parley/contracts';
import { CONTACT_FORM } from '@parley/contracts/constants';
import { validateLead } from './lead-form.js';

/*
 * What a visitor reads that depends on the language the bot speaks to them in (WidgetTexts, the
 * bot's `PublicBot.texts`): the website widget and the console's public chat page say them alike.
 */

/** A warning or error frame's words: those of the refusal its code names, else the server's own. */
export function frameText(t: WidgetTexts, code: ServerFrameCode | undefined, sent: string): string {
  if (code === 'too_fast') return t.tooFast;
  if (code === 'send_failed') return t.sendFailed;
  return sent;
}

/** The contact form (CONTACT_FORM) with its title and labels in the visitor's language. */
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

/** "synced 3 days ago" in the visitor's language (syncedLabel, citations.ts, speaks English only). */
export function syncedText(t: WidgetTexts, iso: string | null | undefined, now = Date.now()): string {
  const at = iso ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(at)) return '';
  const elapsed = Math.max(0, now - at);
  const format = new Intl.RelativeTimeFormat(t.lang, { numeric: 'auto' });
  for (const [unit, ms] of UNITS)
    if (elapsed >= ms) return fillText(t.synced, { when: format.format(-Math.floor(elapsed / ms), unit) });
  return t.syncedJustNow;
}

/** validateLead's findings (required, email, length) told in the visitor's language. */
export function leadErrors(
  t: WidgetTexts,
  fields: readonly LeadFormField[],
  values: Record<string, string>,
): Record<string, string> {
  const found = validateLead(fields, values);
  const errors: Record<string, string> = {};
  for (const field of fields) {
    if (!found[field.name]) continue;
    const value = (values[field.name] ?? '').trim();
    errors[field.name] = !value
      ? fillText(t.required, { label: field.label })
      : value.length > 500
        ? fillText(t.tooLong, { label: field.label })
        : t.invalidEmail;
  }
  return errors;
}
