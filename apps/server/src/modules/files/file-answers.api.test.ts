import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChatExchange, FileGroup, FileGroupUploadResponse } from '@parley/contracts';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askBot, createBotViaApi } from '../../test/bots.js';
import { signupOwner } from '../../test/factories.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { PDF_LOCKED, PDF_NO_TEXT } from './extract.js';
import {
  enc,
  encryptedOffice,
  lockPdf,
  makeDocx,
  makePdf,
  makeTablePdf,
  PRICE_ROWS,
} from './test-files.fixture.js';

/**
 * What a small business uploads (a price list PDF, a CSV or a spreadsheet of prices, an FAQ sheet),
 * trained, then asked as its customers ask, with no language model: the answer quotes the row.
 */
let server: TestServer;
let dataDir: string;
let owner: Account;

type Upload = { name: string; content: Uint8Array | string };

async function upload(files: Upload[]) {
  const form = new FormData();
  form.append('group_name', `prices_${Math.random().toString(36).slice(2, 8)}`);
  form.append('user_id', String(owner.user.id));
  for (const file of files) {
    const bytes = typeof file.content === 'string' ? enc(file.content) : file.content;
    form.append('files', new Blob([bytes as BlobPart]), file.name);
  }
  const response = await fetch(`${server.url}/api/file/upload-multiple`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${owner.access_token}` },
  });
  return { status: response.status, body: (await response.json()) as FileGroupUploadResponse };
}

async function settled(groupId: number): Promise<FileGroup> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const groups = await server.get<FileGroup[]>(`/api/file/file-groups/user/${owner.user.id}`, {
      token: owner.access_token,
    });
    const group = groups.body.find((g) => g.id === groupId);
    if (group?.files.every((f) => f.status !== 'pending')) return group;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`files of group ${groupId} still pending`);
}

/** A bot answering from the uploaded files alone, once they are trained. */
async function botOf(files: Upload[]): Promise<number> {
  const reply = await upload(files);
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  const group = await settled(reply.body.id);
  expect(group.files.map((f) => [f.filename, f.status, f.error])).toEqual(
    files.map((f) => [f.name, 'trained', null]),
  );
  const bot = await createBotViaApi(server, owner, {
    bot_name: `Shop ${group.id}`,
    file_group_ids: JSON.stringify([group.id]),
  });
  return bot.bot_id;
}

async function answer(botId: number, question: string) {
  const reply = await askBot(server, owner, botId, question);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return (reply.body as ChatExchange).bot_message!;
}

async function salonWorkbook(): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  workbook
    .addWorksheet('Salon prices')
    .addRows([
      ['Salon price list 2026'],
      [],
      ['Service', 'Length', 'Price'],
      ['Cut and blow dry', 'Short', '£35'],
      ['', 'Long', '£45'],
      ['Full colour', 'Short', '£60'],
      ['', 'Long', '£80'],
    ]);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'parley-file-answers-'));
  server = await startTestServer({ env: { DATA_DIR: dataDir } });
  owner = await signupOwner(server);
});
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('answers from uploaded price lists, without a model', () => {
  it("quotes the row of a PDF price list's table, its price beside its service", async () => {
    const menu = await makePdf(['Steak and ale pie ............ 13.00', 'Fish and chips ............ 12.50']);
    const botId = await botOf([
      { name: 'prices.pdf', content: await makeTablePdf(PRICE_ROWS, 'Fade Street Barbers') },
      { name: 'menu.pdf', content: menu },
    ]);
    const trim = await answer(botId, 'How much is a beard trim?');
    expect(trim.answer_mode).toBe('extractive');
    expect(trim.message).toContain('Beard trim: Duration 15 min, Price $12');
    expect(trim.message).not.toContain('$25');
    expect(trim.sources.map((s) => [s.page_title, s.page_number])).toEqual([['prices.pdf', 1]]);
    expect((await answer(botId, 'how much for a kids haircut')).message).toContain('Price $18');
    // A menu's dotted leaders part the dish from its price.
    const pie = await answer(botId, 'How much is the steak and ale pie?');
    expect(pie.message).toContain('Steak and ale pie: 13.00');
    expect(pie.message).not.toContain('12.50');
  });

  it('quotes the row of a CSV price list, an empty cell leaving the price under its header', async () => {
    const prices = 'Product,Size,Price\nOat latte,Regular,£3.40\nOat latte,Large,£3.90\nCroissant,,£2.50\n';
    const faq =
      'Question,Answer\nAre dogs allowed?,Dogs are welcome on the terrace.\nDo you take cards?,We take all cards; no cash over £50.\n';
    const botId = await botOf([
      { name: 'prices.csv', content: prices },
      { name: 'faq.csv', content: faq },
    ]);
    const croissant = await answer(botId, 'How much is a croissant?');
    expect(croissant.message).toContain('Croissant: Price £2.50');
    expect(croissant.message).not.toContain('£3.40');
    expect((await answer(botId, 'How much is a large oat latte?')).message).toContain(
      'Oat latte: Size Large, Price £3.90',
    );
    // An FAQ sheet answers with the answer, not its question nor the other entries.
    const dogs = await answer(botId, 'Can I bring my dog?');
    expect(dogs.message).toContain('Dogs are welcome on the terrace.');
    expect(dogs.message).not.toContain('cards');
  });

  it("quotes a spreadsheet's row, a grouped row under its group's name", async () => {
    const botId = await botOf([{ name: 'salon.xlsx', content: await salonWorkbook() }]);
    const colour = await answer(botId, 'How much is a full colour for long hair?');
    expect(colour.message).toContain('Full colour: Length Long, Price £80');
    expect(colour.sources.map((s) => s.heading_path)).toEqual(['Salon prices']);
  });
});

describe("a bakery's first price list, its only source", () => {
  it('answers "how much is a croissant?" with its line, though a list of names tells no language', async () => {
    // Letter trigrams read "Croissant … Bagel … Sourdough" as French: the English question is still read in English.
    const botId = await botOf([
      { name: 'prices.txt', content: 'Croissant: 2.80\nBagel: 3.10\nSourdough loaf: 6.50\n' },
    ]);
    const croissant = await answer(botId, 'How much is a croissant?');
    expect(croissant.answer_mode).toBe('extractive');
    expect(croissant.message).toBe('Croissant: 2.80.');
    expect((await answer(botId, 'how much is a bagel')).message).toBe('Bagel: 3.10.');
    expect((await answer(botId, 'price of sourdough?')).message).toBe('Sourdough loaf: 6.50.');
  });
});

describe('files the owner must fix', () => {
  it('fails a password-protected PDF and one with no text, saying which and why', async () => {
    const reply = await upload([
      { name: 'locked.pdf', content: await lockPdf(await makePdf()) },
      { name: 'blank-scan.pdf', content: await makePdf(['', '']) },
      { name: 'notes.txt', content: 'We open at nine.' },
    ]);
    expect(reply.status).toBe(201);
    const group = await settled(reply.body.id);
    expect(group.files.map((f) => [f.filename, f.status, f.trained, f.error])).toEqual([
      ['locked.pdf', 'failed', false, PDF_LOCKED],
      ['blank-scan.pdf', 'failed', false, PDF_NO_TEXT],
      ['notes.txt', 'trained', true, null],
    ]);
  });

  it('refuses a password-protected DOCX and an old .doc with what to do, storing nothing', async () => {
    const stored = () => readdirSync(path.join(dataDir, 'uploads', String(owner.user.tenant_id)));
    const before = stored();
    for (const [name, content, detail] of [
      [
        'prices.docx',
        encryptedOffice(),
        'prices.docx is password-protected: save a copy without the password and upload that',
      ],
      [
        'menu.doc',
        encryptedOffice(false),
        'menu.doc is in an old Office format: save it as .docx and upload that',
      ],
    ] as const) {
      const reply = await upload([
        { name: 'fine.docx', content: await makeDocx() },
        { name, content },
      ]);
      expect(reply.status).toBe(415);
      expect((reply.body as unknown as { detail: string }).detail).toBe(detail);
    }
    expect(stored()).toEqual(before);
  });
});
