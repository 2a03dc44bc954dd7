import { describe, expect, it } from 'vitest';
import {
  exportFileName,
  fillVariables,
  funnelOf,
  headerFieldOf,
  isLive,
  selectedAccount,
  variablesOf,
} from './model';
import { codeOf, signupIdsOf } from './signup';

const account = (id: number) => ({ id }) as never;

describe('whatsapp model', () => {
  it("reads a campaign's counts as a funnel: a delivered message was sent, a read one delivered", () => {
    expect(funnelOf({ sent: 0, delivered: 2, read: 0 })).toEqual({ sent: 2, delivered: 2, read: 0 });
    expect(funnelOf({ sent: 1, delivered: 2, read: 3 })).toEqual({ sent: 6, delivered: 5, read: 3 });
  });

  it('finds numbered variables once, in order, and fills them', () => {
    expect(variablesOf('Hi {{2}}, {{1}} and {{ 2 }}')).toEqual([1, 2]);
    expect(fillVariables('Hi {{1}}, ends {{2}}', ['Ana'])).toBe('Hi Ana, ends {{2}}');
  });

  it('selects the chosen account, else the first, else none', () => {
    const list = [account(4), account(7)];
    expect(selectedAccount(list, 7)).toBe(list[1]);
    expect(selectedAccount(list, 9)).toBe(list[0]);
    expect(selectedAccount([], null)).toBeNull();
  });

  it("reads Meta's session info as a string or an object, FINISH only", () => {
    const info = {
      type: 'WA_EMBEDDED_SIGNUP',
      event: 'FINISH',
      data: { phone_number_id: '1', waba_id: '2' },
    };
    expect(signupIdsOf(info)).toEqual({ phone_number_id: '1', waba_id: '2' });
    expect(signupIdsOf(JSON.stringify(info))).toEqual({ phone_number_id: '1', waba_id: '2' });
    expect(signupIdsOf({ ...info, event: 'CANCEL' })).toBeNull();
    expect(signupIdsOf('not json')).toBeNull();
  });

  it("reads the callback's code or its failure", () => {
    expect(codeOf({ type: 'PARLEY_WA_CODE', code: 'abc' })).toEqual({ code: 'abc' });
    expect(codeOf({ type: 'PARLEY_WA_CODE', code: null, error: 'denied' })).toEqual({ error: 'denied' });
    expect(codeOf({ type: 'other' })).toBeNull();
  });

  it('names the export with the account and the day', () => {
    expect(exportFileName(12, new Date(2026, 0, 5))).toBe('whatsapp-contacts-12-2026-01-05.csv');
  });

  it('keeps a campaign live while sending and shortly after', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    expect(isLive({ status: 'sending', completed_at: null }, now)).toBe(true);
    expect(isLive({ status: 'completed', completed_at: '2026-01-01T11:59:30Z' }, now)).toBe(true);
    expect(isLive({ status: 'completed', completed_at: '2026-01-01T11:00:00Z' }, now)).toBe(false);
  });
});

describe('headerFieldOf', () => {
  it('asks for the link of a media header and the text of a header variable, else nothing', () => {
    expect(headerFieldOf({ header: { format: 'IMAGE' } })).toEqual({ kind: 'link', media: 'image' });
    expect(headerFieldOf({ header: { format: 'TEXT', text: 'Hi {{1}}' } })).toEqual({
      kind: 'text',
      media: '',
    });
    expect(headerFieldOf({ header: { format: 'TEXT', text: 'Hello' } })).toBeNull();
    expect(headerFieldOf({ header: null })).toBeNull();
  });
});
