import type { ChatMessage, LeadFormConfig, LeadFormField } from '@parley/contracts';
import { missedAnswer } from '@parley/contracts/constants';

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

/**
 * Whether a chat has reached the moment its bot's lead form asks for (`show_when`): at once
 * ('before_chat'), once the visitor has sent `after_messages` messages, or once an answer of the
 * conversation found nothing ('no_answer'). A disabled form, or one without fields, is never due.
 */
export function leadFormDue(
  config: LeadFormConfig | null | undefined,
  messages: readonly Pick<ChatMessage, 'message_type' | 'answer_mode' | 'actions'>[],
): boolean {
  if (!config?.enabled || config.fields.length === 0) return false;
  // Nobody could come to the chat: the hand-off offered the form, whatever its usual moment.
  if (messages.some((m) => m.actions.some((action) => action.type === 'lead_form'))) return true;
  switch (config.show_when) {
    case 'before_chat':
      return true;
    case 'after_messages':
      return messages.filter((m) => m.message_type === 'user').length >= config.after_messages;
    case 'no_answer':
      // An answer the bot was not sure of offers the form as "I don't know" does.
      return messages.some((m) => m.message_type !== 'user' && missedAnswer(m.answer_mode));
  }
}
