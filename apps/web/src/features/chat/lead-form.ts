import type { LeadFormField } from '@parley/contracts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Client-side checks of a lead form: required fields and email addresses. Empty result: valid. */
export function validateLead(
  fields: readonly LeadFormField[],
  values: Record<string, string>,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const value = (values[field.name] ?? '').trim();
    if (!value) {
      if (field.required) errors[field.name] = `${field.label} is required`;
      continue;
    }
    if (field.type === 'email' && !EMAIL.test(value)) errors[field.name] = 'Enter a valid email address';
    if (value.length > 500) errors[field.name] = `${field.label} is at most 500 characters`;
  }
  return errors;
}

/** The values to send: trimmed, empty optional fields left out. */
export function leadValues(
  fields: readonly LeadFormField[],
  values: Record<string, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of fields) {
    const value = (values[field.name] ?? '').trim();
    if (value) out[field.name] = value;
  }
  return out;
}
