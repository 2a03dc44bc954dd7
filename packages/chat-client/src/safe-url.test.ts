import { describe, expect, it } from 'vitest';
import { safeLink, safeUrl } from './safe-url.js';

describe('safeUrl', () => {
  it('keeps http, https and mailto addresses', () => {
    expect(safeUrl('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(safeUrl('http://example.com')).toBe('http://example.com');
    expect(safeUrl('mailto:help@example.com')).toBe('mailto:help@example.com');
  });

  it('drops script, data and relative addresses', () => {
    expect(safeUrl('javascript:alert(1)')).toBe('');
    expect(safeUrl(' JavaScript:alert(1)')).toBe('');
    expect(safeUrl('data:text/html,<b>x</b>')).toBe('');
    expect(safeUrl('/settings')).toBe('');
    expect(safeUrl('vbscript:x')).toBe('');
  });

  it('keeps tel: only in links written in an answer', () => {
    expect(safeUrl('tel:+15551234567')).toBe('');
    expect(safeLink('tel:+15551234567')).toBe('tel:+15551234567');
    expect(safeLink('https://example.com')).toBe('https://example.com');
    expect(safeLink('javascript:alert(1)')).toBe('');
    expect(safeLink('sms:+15551234567')).toBe('');
  });
});
