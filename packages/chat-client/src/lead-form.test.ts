import type { LeadFormConfig, LeadFormField } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { leadFormDue, leadValues, validateLead } from './lead-form.js';

const fields: LeadFormField[] = [
  { name: 'name', label: 'Name', type: 'text', required: true },
  { name: 'email', label: 'Email', type: 'email', required: true },
  { name: 'phone', label: 'Phone', type: 'tel', required: false },
];

describe('validateLead', () => {
  it('names missing required fields and bad email addresses', () => {
    expect(validateLead(fields, {})).toEqual({ name: 'Name is required', email: 'Email is required' });
    expect(validateLead(fields, { name: 'Ana', email: 'not-an-email' })).toEqual({
      email: 'Enter a valid email address',
    });
    expect(validateLead(fields, { name: ' Ana ', email: 'ana@example.com' })).toEqual({});
  });

  it('sends trimmed values and leaves empty optional fields out', () => {
    expect(leadValues(fields, { name: ' Ana ', email: 'ana@example.com', phone: ' ' })).toEqual({
      name: 'Ana',
      email: 'ana@example.com',
    });
  });
});

describe('leadFormDue', () => {
  const config = (show_when: LeadFormConfig['show_when'], after_messages = 2): LeadFormConfig => ({
    enabled: true,
    title: 'Leave your details',
    fields,
    show_when,
    after_messages,
  });
  const user = { message_type: 'user', answer_mode: null, actions: [] } as const;
  const answer = (answer_mode: 'qna' | 'not_found') =>
    ({ message_type: 'bot', answer_mode, actions: [] }) as const;
  const nobodyCame = {
    message_type: 'system',
    answer_mode: null,
    actions: [{ type: 'lead_form', title: 'Leave your email' }],
  } as const;

  it('is never due when the form is off, missing or has no fields', () => {
    expect(leadFormDue(null, [])).toBe(false);
    expect(leadFormDue({ ...config('before_chat'), enabled: false }, [])).toBe(false);
    expect(leadFormDue({ ...config('before_chat'), fields: [] }, [])).toBe(false);
  });

  it('before the chat: at once', () => {
    expect(leadFormDue(config('before_chat'), [])).toBe(true);
  });

  it("after N visitor messages: counts only the visitor's", () => {
    expect(leadFormDue(config('after_messages', 2), [user, answer('qna')])).toBe(false);
    expect(leadFormDue(config('after_messages', 2), [user, answer('qna'), user])).toBe(true);
  });

  it('when the bot could not answer: once an answer found nothing, or said it was not sure', () => {
    expect(leadFormDue(config('no_answer'), [user, answer('qna'), user, answer('extractive')])).toBe(false);
    expect(leadFormDue(config('no_answer'), [user, answer('qna'), user, answer('not_found')])).toBe(true);
    expect(leadFormDue(config('no_answer'), [user, answer('unsure')])).toBe(true);
  });

  it('whenever the hand-off offers it (nobody could come), whatever its usual moment', () => {
    expect(leadFormDue(config('after_messages', 5), [user, nobodyCame])).toBe(true);
    expect(leadFormDue(null, [user, nobodyCame])).toBe(false);
  });
});
