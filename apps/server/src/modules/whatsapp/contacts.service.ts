import { PassThrough, type Readable } from 'node:stream';
import {
  type ContactInput,
  type ContactList,
  type ContactMapping,
  type ImportPreview,
  type ImportResult,
  WHATSAPP_TEXTS,
  type WhatsAppContact,
} from '@parley/contracts';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify';
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js';
import { type Db, queryPrepared } from '../../core/db/database.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import { jsonReply } from '../../core/http/serializer.js';
import type { ModuleDeps } from '../../core/module.js';
import type { WhatsAppAccountsService } from './accounts.service.js';
import { contactPage } from './contacts.queries.js';
import { whatsappContacts } from './whatsapp.schema.js';

type ContactRow = typeof whatsappContacts.$inferSelect;
/** Rows upserted per statement while a file streams in. */
const IMPORT_BATCH = 1000;
const REJECTED_SHOWN = 1000;
const EXPORT_PAGE = 2000;
const PREVIEW_ROWS = 5;
/** Column names recognised without a mapping, compared without case, spaces or punctuation. */
const GUESSES: Record<keyof ContactMapping, string[]> = {
  phone: [
    'phone',
    'phonenumber',
    'number',
    'mobile',
    'mobilenumber',
    'whatsapp',
    'whatsappnumber',
    'msisdn',
    'tel',
    'telephone',
    'wa_id',
    'waid',
  ],
  name: ['name', 'fullname', 'contactname', 'customername'],
  email: ['email', 'emailaddress', 'mail'],
  tags: ['tags', 'tag', 'labels', 'lists', 'list', 'segments'],
};
type Candidate = {
  phone: string;
  name: string | null;
  email: string | null;
  tags: string[];
  attributes: Record<string, string>;
  /** An opted_out column (as the export writes it): a file can opt a number out, never back in. */
  opted_out: boolean;
};

/**
 * A number in E.164, or null. With + or 00 it is international; bare digits are first read as a
 * national number of `country` (the business's own number's country: "98765 43210" or "07911
 * 123456" as people write them), else as digits that start with their country code. Read
 * international first, a third of ten-digit Indian mobiles would pass as numbers of another country.
 */
export function e164(raw: string, country?: CountryCode): string | null {
  // Spreadsheets keep a leading + with an apostrophe or as the formula ="+44…".
  const cleaned = raw
    .trim()
    .replace(/^['=]+|"/g, '')
    .trim()
    .replace(/^00/, '+');
  if (!cleaned) return null;
  if (country && !cleaned.startsWith('+')) {
    const national = parsePhoneNumberFromString(cleaned, country);
    if (national?.isValid()) return national.number;
  }
  const parsed = parsePhoneNumberFromString(`+${cleaned.replace(/^\+/, '')}`);
  return parsed?.isValid() ? parsed.number : null;
}

/** The country of the business's own number, whose national numbers its contacts are written as. */
export function countryOf(displayPhoneNumber: string | null): CountryCode | undefined {
  if (!displayPhoneNumber) return undefined;
  const digits = displayPhoneNumber.trim();
  return parsePhoneNumberFromString(digits.startsWith('+') ? digits : `+${digits}`)?.country;
}

/**
 * WhatsApp contacts of a number: created one by one or imported from CSV (streamed, a batch per
 * statement, numbers in E.164, duplicates merged, every refused row reported with its line),
 * exported as CSV in pages, opted out for good by STOP or by an agent.
 */
export class ContactsService {
  constructor(
    private readonly deps: ModuleDeps,
    private readonly accounts: WhatsAppAccountsService,
  ) {}

  private get db(): Db {
    return this.deps.db;
  }

  async create(
    auth: AuthContext,
    input: ContactInput,
  ): Promise<{ message: string; contact: WhatsAppContact }> {
    const account = await this.accounts.require(auth, input.account_id);
    const phone = e164(input.phone, countryOf(account.displayPhoneNumber));
    if (!phone) throw badRequest(WHATSAPP_TEXTS.phoneInvalid);
    const [row] = await this.db
      .insert(whatsappContacts)
      .values({
        tenantId: auth.tenantId,
        accountId: account.id,
        phone,
        name: input.name || null,
        email: input.email || null,
        tags: dedupe(input.tags),
        attributes: input.attributes,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw conflict(WHATSAPP_TEXTS.contactExists);
    return { message: WHATSAPP_TEXTS.contactCreated, contact: viewOf(row) };
  }

  /** The reply's JSON as the database builds it, with the number's check: one statement, not four. */
  async list(
    auth: AuthContext,
    query: { account_id: number; search?: string; tag?: string; skip: number; limit: number },
  ): Promise<ContactList> {
    const page = await contactPage(this.db, auth.tenantId, query.account_id, query);
    if (page === null) throw notFound(WHATSAPP_TEXTS.accountNotFound);
    return jsonReply(page);
  }

  async update(
    auth: AuthContext,
    id: number,
    input: { name?: string; email?: string; tags?: string[]; opted_out?: boolean },
  ): Promise<{ message: string; contact: WhatsAppContact }> {
    const row = await this.require(auth, id);
    const [updated] = await this.db
      .update(whatsappContacts)
      .set({
        ...(input.name !== undefined ? { name: input.name || null } : {}),
        ...(input.email !== undefined ? { email: input.email || null } : {}),
        ...(input.tags !== undefined ? { tags: dedupe(input.tags) } : {}),
        ...(input.opted_out !== undefined
          ? { optedOutAt: input.opted_out ? (row.optedOutAt ?? new Date()) : null }
          : {}),
        updatedAt: new Date(),
      })
      .where(eq(whatsappContacts.id, row.id))
      .returning();
    return { message: WHATSAPP_TEXTS.contactUpdated, contact: viewOf(updated!) };
  }

  async remove(auth: AuthContext, id: number): Promise<{ message: string }> {
    const row = await this.require(auth, id);
    await this.db.delete(whatsappContacts).where(eq(whatsappContacts.id, row.id));
    return { message: WHATSAPP_TEXTS.contactDeleted };
  }

  /** The file's columns, the mapping guessed from their names and the first rows, read from the file's start. */
  async preview(auth: AuthContext, accountId: number, file: Readable): Promise<ImportPreview> {
    await this.accounts.require(auth, accountId);
    const parser = file.pipe(
      parse({ bom: true, relax_column_count: true, skip_empty_lines: true, to_line: PREVIEW_ROWS + 1 }),
    );
    const lines: string[][] = [];
    try {
      for await (const record of parser) lines.push(record as string[]);
    } catch (error) {
      throw badRequest(`${WHATSAPP_TEXTS.importNotCsv}: ${(error as Error).message}`);
    } finally {
      file.resume(); // drain the rest of the upload
    }
    const [columns = [], ...rows] = lines;
    return { columns, mapping: guessMapping(columns), rows };
  }

  /**
   * Streams the CSV into contacts: each batch of rows is one upsert (a number already there is
   * merged: new values win, tags are joined), so memory stays flat for any file size.
   */
  async import(
    auth: AuthContext,
    accountId: number,
    file: Readable,
    mapping: ContactMapping | null,
  ): Promise<ImportResult> {
    const account = await this.accounts.require(auth, accountId);
    const parser = file.pipe(
      parse({
        bom: true,
        columns: true,
        relax_column_count: true,
        skip_empty_lines: true,
        trim: true,
        info: true,
      }),
    );
    const result = {
      rows: 0,
      created: 0,
      updated: 0,
      rejectedCount: 0,
      rejected: [] as ImportResult['rejected'],
      /** Rows naming a number an earlier row named (in the same batch; across batches, updates). */
      merged: 0,
    };
    const country = countryOf(account.displayPhoneNumber);
    let chosen: ContactMapping | null = mapping;
    let batch = new Map<string, Candidate>();
    // One batch is written while the next is parsed: the database and the parser overlap.
    let writing: Promise<void> = Promise.resolve();
    const write = async (rows: Map<string, Candidate>) => {
      await writing;
      writing = this.upsert(auth.tenantId, account.id, rows, result);
      writing.catch(() => undefined); // awaited before the next write or at the end
    };
    const reject = (line: number, reason: string) => {
      result.rejectedCount++;
      if (result.rejected.length < REJECTED_SHOWN) result.rejected.push({ line, reason });
    };
    try {
      for await (const { record, info } of parser as AsyncIterable<{
        record: Record<string, string>;
        info: { lines: number };
      }>) {
        chosen ??= guessMapping(Object.keys(record));
        if (!chosen || !(chosen.phone in record)) throw badRequest(WHATSAPP_TEXTS.importNoPhoneColumn);
        result.rows++;
        const candidate = candidateOf(record, chosen, country);
        if (typeof candidate === 'string') {
          reject(info.lines, candidate);
          continue;
        }
        const earlier = batch.get(candidate.phone);
        if (earlier) result.merged++;
        batch.set(candidate.phone, earlier ? merge(earlier, candidate) : candidate);
        if (batch.size >= IMPORT_BATCH) {
          await write(batch);
          batch = new Map();
        }
      }
    } catch (error) {
      file.resume();
      await writing.catch(() => undefined);
      const code = (error as { code?: string }).code ?? '';
      if (code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest(WHATSAPP_TEXTS.importTooLarge);
      if (code.startsWith('CSV_'))
        throw badRequest(`${WHATSAPP_TEXTS.importNotCsv}: ${(error as Error).message}`);
      throw error;
    }
    if ((file as { truncated?: boolean }).truncated) throw badRequest(WHATSAPP_TEXTS.importTooLarge);
    if (batch.size) await write(batch);
    await writing;
    const imported = result.created + result.updated;
    const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
    const notes = [
      result.merged ? `${count(result.merged, 'duplicate row')} merged` : '',
      result.rejectedCount ? `${count(result.rejectedCount, 'row')} rejected` : '',
    ].filter(Boolean);
    return {
      message: [`${count(imported, 'contact')} imported`, ...notes].join(', '),
      imported_contacts: imported,
      created: result.created,
      updated: result.updated,
      rows: result.rows,
      rejected_count: result.rejectedCount,
      rejected: result.rejected,
    };
  }

  /**
   * The account's contacts as CSV, read in pages by id: phone, name, email, tags (joined by ";"),
   * one column per attribute, and opted_out when anyone opted out. A file this wrote imports back
   * to the same contacts.
   */
  async exportCsv(auth: AuthContext, accountId: number): Promise<{ fileName: string; stream: Readable }> {
    const account = await this.accounts.require(auth, accountId);
    const [shape] = await queryPrepared<{ keys: string[] | null; opted: boolean }>(
      this.db,
      sql`SELECT (SELECT array_agg(DISTINCT k ORDER BY k) FROM whatsapp_contacts c, jsonb_object_keys(c.attributes) k
                   WHERE c.account_id = ${account.id}) AS keys,
                 EXISTS (SELECT 1 FROM whatsapp_contacts WHERE account_id = ${account.id} AND opted_out_at IS NOT NULL) AS opted`,
    );
    const keys = (shape?.keys ?? []).filter(
      (k) => !['phone', 'name', 'email', 'tags', 'opted_out'].includes(k),
    );
    const columns = ['phone', 'name', 'email', 'tags', ...keys, ...(shape?.opted ? ['opted_out'] : [])];
    const out = new PassThrough();
    const csv = stringify({ header: true, columns });
    csv.pipe(out);
    void (async () => {
      let after = 0;
      for (;;) {
        const rows = await this.db
          .select()
          .from(whatsappContacts)
          .where(and(eq(whatsappContacts.accountId, account.id), gt(whatsappContacts.id, after)))
          .orderBy(asc(whatsappContacts.id))
          .limit(EXPORT_PAGE);
        for (const row of rows) {
          const line: Record<string, string> = {
            phone: row.phone,
            name: row.name ?? '',
            email: row.email ?? '',
            tags: row.tags.join(';'),
            ...Object.fromEntries(keys.map((k) => [k, row.attributes[k] ?? ''])),
            ...(shape?.opted ? { opted_out: row.optedOutAt ? 'true' : '' } : {}),
          };
          if (!csv.write(line)) await new Promise((resolve) => csv.once('drain', resolve));
        }
        if (rows.length < EXPORT_PAGE) break;
        after = rows.at(-1)!.id;
      }
      csv.end();
    })().catch((error: unknown) => out.destroy(error as Error));
    const day = new Date().toISOString().slice(0, 10);
    return { fileName: `whatsapp-contacts-${account.id}-${day}.csv`, stream: out };
  }

  private async upsert(
    tenantId: number,
    accountId: number,
    batch: Map<string, Candidate>,
    result: { created: number; updated: number },
  ): Promise<void> {
    const rows = [...batch.values()];
    const [counts] = await queryPrepared<{ created: number; updated: number }>(
      this.db,
      sql`WITH input AS (
            SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
                AS x(phone text, name text, email text, tags text[], attributes jsonb, opted_out boolean)),
          upserted AS (
            INSERT INTO whatsapp_contacts (tenant_id, account_id, phone, name, email, tags, attributes, opted_out_at)
            SELECT ${tenantId}, ${accountId}, phone, name, email, coalesce(tags, '{}'), coalesce(attributes, '{}'),
                   CASE WHEN opted_out THEN now() END
              FROM input
            ON CONFLICT (account_id, phone) DO UPDATE SET
                   name = coalesce(excluded.name, whatsapp_contacts.name),
                   email = coalesce(excluded.email, whatsapp_contacts.email),
                   tags = ARRAY(SELECT DISTINCT t FROM unnest(whatsapp_contacts.tags || excluded.tags) t ORDER BY t),
                   attributes = whatsapp_contacts.attributes || excluded.attributes,
                   opted_out_at = coalesce(whatsapp_contacts.opted_out_at, excluded.opted_out_at),
                   updated_at = now()
            RETURNING (xmax = 0) AS created)
          SELECT count(*) FILTER (WHERE created)::int AS created, count(*) FILTER (WHERE NOT created)::int AS updated
            FROM upserted`,
    );
    result.created += counts?.created ?? 0;
    result.updated += counts?.updated ?? 0;
  }

  private async require(auth: AuthContext, id: number): Promise<ContactRow> {
    const [row] = await this.db
      .select()
      .from(whatsappContacts)
      .where(and(eq(whatsappContacts.id, id), eq(whatsappContacts.tenantId, auth.tenantId)));
    if (!row) throw notFound(WHATSAPP_TEXTS.contactNotFound);
    return row;
  }
}

const normalise = (column: string) => column.toLowerCase().replace(/[^a-z_]/g, '');

/** The mapping a file's header suggests; null when no column looks like phone numbers. */
export function guessMapping(columns: string[]): ContactMapping | null {
  const find = (field: keyof ContactMapping) =>
    columns.find(
      (c) => GUESSES[field].includes(normalise(c)) || GUESSES[field].includes(normalise(c).replace(/_/g, '')),
    ) ?? null;
  const phone = find('phone');
  return phone ? { phone, name: find('name'), email: find('email'), tags: find('tags') } : null;
}

/** A row as a contact, or why it is refused. */
function candidateOf(
  record: Record<string, string>,
  mapping: ContactMapping,
  country: CountryCode | undefined,
): Candidate | string {
  const raw = record[mapping.phone] ?? '';
  if (!raw.trim()) return 'No phone number';
  if (/^\s*\d+(\.\d+)?e\+?\d+\s*$/i.test(raw))
    return `A spreadsheet turned this number into ${raw.trim()}, losing its digits; format the column as text and export again`;
  const phone = e164(raw, country);
  if (!phone) return `Not a valid phone number with its country code: ${raw.slice(0, 40)}`;
  const email = mapping.email ? (record[mapping.email] ?? '').slice(0, 320) : '';
  if (email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    return `Not a valid email address: ${email.slice(0, 40)}`;
  const used = new Set([mapping.phone, mapping.name, mapping.email, mapping.tags].filter(Boolean));
  const attributes: Record<string, string> = {};
  for (const [key, value] of Object.entries(record)) {
    if (!used.has(key) && key && value && key !== 'opted_out')
      attributes[key.slice(0, 50)] = value.slice(0, 500);
  }
  return {
    phone,
    name: mapping.name ? (record[mapping.name] || '').slice(0, 200) || null : null,
    email: email || null,
    tags: mapping.tags ? dedupe((record[mapping.tags] ?? '').split(/[;,|]/)) : [],
    attributes,
    opted_out: /^(true|yes|y|1)$/i.test(record.opted_out ?? ''),
  };
}

function merge(earlier: Candidate, later: Candidate): Candidate {
  return {
    phone: later.phone,
    name: later.name ?? earlier.name,
    email: later.email ?? earlier.email,
    tags: dedupe([...earlier.tags, ...later.tags]),
    attributes: { ...earlier.attributes, ...later.attributes },
    opted_out: earlier.opted_out || later.opted_out,
  };
}

function dedupe(tags: string[]): string[] {
  return [...new Set(tags.map((t) => t.trim().slice(0, 50)).filter(Boolean))].sort();
}

/** A stored contact as the API shows it (the list's statement builds the same in SQL). */
export function viewOf(row: ContactRow): WhatsAppContact {
  return {
    id: row.id,
    account_id: row.accountId,
    phone: row.phone,
    name: row.name,
    email: row.email,
    tags: row.tags,
    attributes: row.attributes,
    opted_out: row.optedOutAt !== null,
    opted_out_at: row.optedOutAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}
