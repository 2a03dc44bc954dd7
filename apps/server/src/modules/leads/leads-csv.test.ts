import type { LeadFormConfig } from '@parley/contracts';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvCell, leadsCsv, leadsFileName } from './leads-csv.js';

describe('csvCell', () => {
  it('leaves plain values alone and quotes commas, quotes, line breaks and edge spaces', () => {
    expect(csvCell('Ada Lovelace')).toBe('Ada Lovelace');
    expect(csvCell(42)).toBe('42');
    expect(csvCell(null)).toBe('');
    expect(csvCell('Lovelace, Ada')).toBe('"Lovelace, Ada"');
    expect(csvCell('The "Analytical" Engine')).toBe('"The ""Analytical"" Engine"');
    expect(csvCell('line one\nline two')).toBe('"line one\nline two"');
    expect(csvCell('a\r\nb')).toBe('"a\r\nb"');
    expect(csvCell(' padded ')).toBe('" padded "');
  });

  it('defuses values a spreadsheet would run as formulas', () => {
    expect(csvCell('=HYPERLINK("http://evil.example","x")')).toBe(
      '"\'=HYPERLINK(""http://evil.example"",""x"")"',
    );
    expect(csvCell('+1 555 0100')).toBe("'+1 555 0100");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1:A2)')).toBe("'@SUM(A1:A2)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('a=b')).toBe('a=b');
  });
});

describe('leadsCsv', () => {
  const form: LeadFormConfig = {
    enabled: true,
    show_when: 'no_answer',
    after_messages: 3,
    title: 'Details',
    fields: [
      { name: 'name', label: 'Name', type: 'text', required: true },
      { name: 'email', label: 'E-mail, work', type: 'email', required: true },
    ],
  };

  it('has a BOM, CRLF lines, a column per form field then older fields, and reads back intact', () => {
    const text = leadsCsv(form, [
      {
        createdAt: new Date('2025-03-01T10:00:00Z'),
        conversationId: 7,
        fields: { name: 'Lovelace, "Ada"', email: 'ada@example.com' },
      },
      {
        createdAt: new Date('2025-02-01T10:00:00Z'),
        conversationId: null,
        fields: { name: '=cmd', email: 'x@y.z', city: 'London\nUK' },
      },
    ]);
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(text.split('\r\n')[0]).toBe('\uFEFFSubmitted at,Name,"E-mail, work",city,Conversation ID');
    expect(text.endsWith('\r\n')).toBe(true);
    const rows = parse(text, { bom: true }) as string[][];
    expect(rows).toEqual([
      ['Submitted at', 'Name', 'E-mail, work', 'city', 'Conversation ID'],
      ['2025-03-01T10:00:00.000Z', 'Lovelace, "Ada"', 'ada@example.com', '', '7'],
      ['2025-02-01T10:00:00.000Z', "'=cmd", 'x@y.z', 'London\nUK', ''],
    ]);
  });

  it('works without a form (columns from the stored fields) and without leads', () => {
    expect(leadsCsv(null, [])).toBe('\uFEFFSubmitted at,Conversation ID\r\n');
    const rows = parse(
      leadsCsv(null, [{ createdAt: new Date(0), conversationId: null, fields: { phone: '+44 1' } }]),
      { bom: true },
    );
    expect(rows).toEqual([
      ['Submitted at', 'phone', 'Conversation ID'],
      ['1970-01-01T00:00:00.000Z', "'+44 1", ''],
    ]);
  });

  it('names the file with the bot id and the date', () => {
    expect(leadsFileName(12, new Date('2025-06-30T23:00:00Z'))).toBe('leads-12-2025-06-30.csv');
  });
});
