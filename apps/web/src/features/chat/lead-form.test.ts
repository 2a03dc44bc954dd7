import type { LeadFormField } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { leadValues, validateLead } from './lead-form';

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
