import { LEAD_LIMITS, type LeadFormConfig } from '@parley/contracts';
import { z } from 'zod';

export type LeadFieldsResult = { ok: true; values: Record<string, string> } | { ok: false; detail: string };

const EMAIL = z.email();
/** Loose on purpose: digits with the usual separators and an optional leading +, 5 to 20 digits. */
const TEL_CHARS = /^\+?[0-9 ()./-]+$/;
const FIELD_NAME = /^[a-z][a-z0-9_]{0,39}$/;

/** Control characters other than tab and line breaks (PostgreSQL's jsonb refuses NUL outright). */
const hasControl = (value: string) => {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f) return true;
  }
  return false;
};

const isTel = (value: string) => {
  if (!TEL_CHARS.test(value)) return false;
  const digits = value.replace(/\D/g, '').length;
  return digits >= 5 && digits <= 20;
};

/**
 * Checks a visitor's answers against the bot's lead form: no field the form lacks, every required
 * field filled, each value at most 500 characters, emails and phone numbers well formed. Values are
 * trimmed (emails lower-cased) and empty optional ones dropped. Details name the field by its label, as the form shows it.
 */
export function checkLeadFields(form: LeadFormConfig, fields: Record<string, string>): LeadFieldsResult {
  const known = new Set(form.fields.map((f) => f.name));
  const unknown = Object.keys(fields).find((key) => !known.has(key));
  if (unknown !== undefined) {
    return {
      ok: false,
      detail: FIELD_NAME.test(unknown) ? `Unknown field: ${unknown}` : 'The form has no such field',
    };
  }
  const values: Record<string, string> = {};
  for (const field of form.fields) {
    const raw = fields[field.name];
    const value = typeof raw === 'string' ? raw.trim() : '';
    if (value === '') {
      if (field.required) return { ok: false, detail: `${field.label} is required` };
      continue;
    }
    if (value.length > LEAD_LIMITS.valueMax) {
      return { ok: false, detail: `${field.label} must be at most ${LEAD_LIMITS.valueMax} characters` };
    }
    if (hasControl(value)) {
      return { ok: false, detail: `${field.label} contains characters that are not allowed` };
    }
    if (field.type === 'email' && !EMAIL.safeParse(value).success) {
      return { ok: false, detail: `${field.label} must be a valid email address` };
    }
    if (field.type === 'tel' && !isTel(value)) {
      return { ok: false, detail: `${field.label} must be a valid phone number` };
    }
    // An address is one address in any case: "Ana@Mail.com" and "ana@mail.com" are one lead, one mail.
    values[field.name] = field.type === 'email' ? value.toLowerCase() : value;
  }
  if (Object.keys(values).length === 0) return { ok: false, detail: 'Please fill in at least one field' };
  return { ok: true, values };
}
