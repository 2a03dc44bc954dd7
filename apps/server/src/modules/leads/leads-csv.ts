import type { LeadFormConfig } from '@parley/contracts';

export type CsvLead = {
  createdAt: Date;
  conversationId: number | null;
  fields: Record<string, string>;
};

/** Spreadsheets run a cell starting with these as a formula (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/**
 * One CSV cell (RFC 4180): a value that a spreadsheet would run as a formula gets a leading
 * apostrophe, and a value with a quote, comma, line break or edge space is quoted, quotes doubled.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvRow = (cells: Array<string | number | null | undefined>): string =>
  cells.map(csvCell).join(',');

/**
 * The leads of a bot as a CSV document: the submission time, one column per field of the bot's
 * form (by label, in form order), then fields that older submissions carry but the form no longer
 * has (by name), then the conversation. CRLF line ends; a UTF-8 BOM so spreadsheets read accents.
 */
export function leadsCsv(form: LeadFormConfig | null, leads: CsvLead[]): string {
  const columns = (form?.fields ?? []).map((f) => ({ name: f.name, header: f.label }));
  const seen = new Set(columns.map((c) => c.name));
  for (const lead of leads) {
    for (const name of Object.keys(lead.fields)) {
      if (seen.has(name)) continue;
      seen.add(name);
      columns.push({ name, header: name });
    }
  }
  const lines = [
    csvRow(['Submitted at', ...columns.map((c) => c.header), 'Conversation ID']),
    ...leads.map((lead) =>
      csvRow([
        lead.createdAt.toISOString(),
        ...columns.map((c) => lead.fields[c.name] ?? ''),
        lead.conversationId,
      ]),
    ),
  ];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** leads-<bot id>-<YYYY-MM-DD>.csv */
export const leadsFileName = (botId: number, now = new Date()) =>
  `leads-${botId}-${now.toISOString().slice(0, 10)}.csv`;
