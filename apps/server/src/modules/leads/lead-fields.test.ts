import type { LeadFormConfig } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { checkLeadFields } from './lead-fields.js';

const FORM: LeadFormConfig = {
  enabled: true,
  show_when: 'no_answer',
  after_messages: 3,
  title: 'Leave your details',
  fields: [
    { name: 'name', label: 'Your name', type: 'text', required: true },
    { name: 'email', label: 'Email address', type: 'email', required: true },
    { name: 'phone', label: 'Phone', type: 'tel', required: false },
    { name: 'company', label: 'Company', type: 'text', required: false },
  ],
};

const fail = (fields: Record<string, string>) => {
  const result = checkLeadFields(FORM, fields);
  if (result.ok) throw new Error('expected a refusal');
  return result.detail;
};

describe('checkLeadFields', () => {
  it('keeps trimmed values in form order and drops empty optional ones', () => {
    expect(
      checkLeadFields(FORM, { email: ' ada@example.com ', name: ' Ada ', phone: '', company: '  ' }),
    ).toEqual({ ok: true, values: { name: 'Ada', email: 'ada@example.com' } });
  });

  it('keeps an email in lower case, so one address typed twice in other cases is one lead', () => {
    expect(checkLeadFields(FORM, { name: 'Ada', email: ' Ada@Example.COM ' })).toEqual({
      ok: true,
      values: { name: 'Ada', email: 'ada@example.com' },
    });
  });

  it('names the field by its label when a required one is missing or blank', () => {
    expect(fail({ email: 'ada@example.com' })).toBe('Your name is required');
    expect(fail({ name: '   ', email: 'ada@example.com' })).toBe('Your name is required');
    expect(fail({ name: 'Ada' })).toBe('Email address is required');
  });

  it('refuses fields the form does not have, without echoing odd names', () => {
    expect(fail({ name: 'Ada', email: 'ada@example.com', age: '36' })).toBe('Unknown field: age');
    expect(fail({ name: 'Ada', email: 'ada@example.com', '<script>': 'x' })).toBe(
      'The form has no such field',
    );
  });

  it('checks emails and phone numbers', () => {
    for (const email of ['ada', 'ada@', '@example.com', 'ada example@x.com']) {
      expect(fail({ name: 'Ada', email })).toBe('Email address must be a valid email address');
    }
    for (const phone of ['+44 20 7946 0958', '(555) 123-4567', '555.123.4567', '12345']) {
      expect(checkLeadFields(FORM, { name: 'Ada', email: 'a@b.co', phone }).ok, phone).toBe(true);
    }
    for (const phone of ['call me', '1234', '+1 555 CALL', '=1+2', `${'1'.repeat(21)}`]) {
      expect(fail({ name: 'Ada', email: 'a@b.co', phone }), phone).toBe('Phone must be a valid phone number');
    }
  });

  it('refuses values over 500 characters and control characters', () => {
    expect(fail({ name: 'x'.repeat(501), email: 'a@b.co' })).toBe('Your name must be at most 500 characters');
    expect(checkLeadFields(FORM, { name: 'x'.repeat(500), email: 'a@b.co' }).ok).toBe(true);
    expect(fail({ name: 'Ada\u0000', email: 'a@b.co' })).toBe(
      'Your name contains characters that are not allowed',
    );
  });

  it('refuses an empty submission to a form without required fields', () => {
    const optional: LeadFormConfig = { ...FORM, fields: [{ ...FORM.fields[3]! }] };
    expect(checkLeadFields(optional, {})).toEqual({ ok: false, detail: 'Please fill in at least one field' });
  });
});
