import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type DeleteGroupConflict,
  FILE_MESSAGES,
  type FileGroup,
  type FileGroupUploadResponse,
  MESSAGES,
  type Role,
} from '@parley/contracts';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askBot, createBotViaApi } from '../../test/bots.js';
import { addTeammate, createRole, signupOwner, tokenFromText } from '../../test/factories.js';
import { outboxText } from '../../test/outbox.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { botFileGroups, bots } from '../bots/bots.schema.js';
import { chunks, documents } from '../knowledge/knowledge.schema.js';
import { PDF_NO_TEXT } from './extract.js';
import { files } from './files.schema.js';
import {
  CARTA_LINES,
  CSV_TEXT,
  DOCX_HANDBOOK,
  enc,
  HTML_TEXT,
  MENU_LINES,
  makeDocx,
  makePdf,
  makeScannedPdf,
  makeTablePdf,
  PDF_PAGES,
  textImage,
} from './test-files.fixture.js';

/** What a scanned price list says. */
const SCANNED_LINES = ['Cut and finish 35 pounds', 'Fringe trim 8 pounds'];

const MAX_BYTES = 200_000;
const MAX_FILES = 5;

let server: TestServer;
let dataDir: string;
let owner: Account;
let other: Account;
const as = (account: Account) => ({ token: account.access_token });

type Upload = { name: string; content: Uint8Array | string };
type Reply<T> = { status: number; body: T };

async function multipart<T>(
  method: 'POST' | 'PUT',
  urlPath: string,
  account: Account,
  fields: Record<string, string | number>,
  files: Upload[],
): Promise<Reply<T>> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, String(value));
  for (const file of files) {
    const bytes = typeof file.content === 'string' ? enc(file.content) : file.content;
    form.append('files', new Blob([bytes as BlobPart]), file.name);
  }
  const response = await fetch(`${server.url}/api${urlPath}`, {
    method,
    body: form,
    headers: { authorization: `Bearer ${account.access_token}` },
  });
  return { status: response.status, body: (await response.json()) as T };
}

const upload = <T = FileGroupUploadResponse>(
  account: Account,
  fields: Record<string, string | number>,
  files: Upload[],
) => multipart<T>('POST', '/file/upload-multiple', account, fields, files);

const uniqueName = () => `group_${Math.random().toString(36).slice(2, 8)}`;
const storedFiles = (account: Account) => {
  try {
    return readdirSync(path.join(dataDir, 'uploads', String(account.user.tenant_id))).sort();
  } catch {
    return [];
  }
};

async function groupsOf(account: Account): Promise<FileGroup[]> {
  const reply = await server.get<FileGroup[]>(`/api/file/file-groups/user/${account.user.id}`, as(account));
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
}

/** Waits until no file of the group is pending. */
async function settled(account: Account, groupId: number): Promise<FileGroup> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const group = (await groupsOf(account)).find((g) => g.id === groupId);
    if (group?.files.every((f) => f.status !== 'pending')) return group;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`files of group ${groupId} still pending`);
}

/** The chunks of a group's files: their text and page number. */
const chunksOfGroup = (group: FileGroup) =>
  server.database.db
    .select({ content: chunks.content, page: chunks.pageNumber })
    .from(chunks)
    .innerJoin(documents, eq(documents.id, chunks.documentId))
    .where(
      and(
        eq(documents.sourceType, 'file'),
        inArray(
          documents.sourceId,
          group.files.map((f) => f.id),
        ),
      ),
    );

const textFile = (name = 'notes.txt', text = 'Opening hours are nine to five.') => ({ name, content: text });

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'parley-files-'));
  server = await startTestServer({
    env: { DATA_DIR: dataDir, FILE_MAX_BYTES: String(MAX_BYTES), UPLOAD_MAX_FILES: String(MAX_FILES) },
  });
  owner = await signupOwner(server);
  other = await signupOwner(server);
});
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('upload and extraction', () => {
  it('extracts a multi-page PDF, a DOCX, a CSV and HTML, and indexes their text', async () => {
    const name = uniqueName();
    const reply = await upload(
      owner,
      { group_name: name, description: 'Travel docs', user_id: owner.user.id },
      [
        { name: 'guide.pdf', content: await makePdf() },
        { name: 'handbook.docx', content: await makeDocx(DOCX_HANDBOOK) },
        { name: 'prices.csv', content: CSV_TEXT },
        { name: 'harbour.html', content: HTML_TEXT },
      ],
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body).toMatchObject({
      group_name: name,
      description: 'Travel docs',
      user_id: owner.user.id,
      tenant_id: owner.user.tenant_id,
      message: '4 files uploaded successfully',
    });
    expect(reply.body.files.map((f) => [f.filename, f.mime_type, f.status])).toEqual([
      ['guide.pdf', 'application/pdf', 'pending'],
      ['handbook.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'pending'],
      ['prices.csv', 'text/csv', 'pending'],
      ['harbour.html', 'text/html', 'pending'],
    ]);

    const group = await settled(owner, reply.body.id);
    for (const file of group.files) {
      expect(file, file.filename).toMatchObject({ status: 'trained', trained: true, error: null });
      expect(file.character_count).toBeGreaterThan(0);
      expect(file.size).toBeGreaterThan(0);
    }
    // The files are trained before the job's own end is written: wait for it.
    await expect
      .poll(
        async () =>
          (
            await server.get<{ status: string; percentage: number }>(
              `/api/jobs/${reply.body.job_id}`,
              as(owner),
            )
          ).body,
      )
      .toMatchObject({ status: 'completed', percentage: 100 });

    const chunkRows = (fileId: number) =>
      server.database.db
        .select({
          content: chunks.content,
          page: chunks.pageNumber,
          heading: chunks.headingPath,
          collection: chunks.collectionId,
        })
        .from(chunks)
        .innerJoin(documents, eq(documents.id, chunks.documentId))
        .where(and(eq(documents.sourceType, 'file'), eq(documents.sourceId, fileId)))
        .orderBy(asc(chunks.chunkIndex));
    const [pdf, docx, csv, html] = group.files;
    const pdfChunks = await chunkRows(pdf!.id);
    expect(pdfChunks.map((c) => [c.page, c.content])).toEqual(PDF_PAGES.map((text, i) => [i + 1, text]));
    expect(pdfChunks.every((c) => c.collection === group.id)).toBe(true);
    // A DOCX is chunked under its headings: no chunk crosses one, each carries its path.
    const docxChunks = await chunkRows(docx!.id);
    expect(docxChunks.map((c) => c.heading)).toEqual([
      'Staff handbook',
      'Staff handbook > Holidays',
      'Staff handbook > Expenses',
    ]);
    expect(docxChunks[1]!.content).toContain('twenty-five days of paid leave');
    expect(docxChunks[2]!.content).toBe('Claim travel within thirty days.');
    expect((await chunkRows(csv!.id))[0]!.content).toContain('Tent, two person | 240 | green');
    const htmlText = (await chunkRows(html!.id)).map((c) => c.content).join('\n');
    expect(htmlText).toContain('lighthouse keeper');
    expect(htmlText).not.toContain('Navigation menu link');
    expect(htmlText).not.toContain('Copyright footer');
    expect(storedFiles(owner).length).toBeGreaterThanOrEqual(4);
  });

  it('judges the type from the content: a .pdf holding text is refused, a PDF named .txt is a PDF', async () => {
    const before = storedFiles(owner);
    const refused = await upload<{ detail: string }>(
      owner,
      { group_name: uniqueName(), user_id: owner.user.id },
      [textFile(), { name: 'fake.pdf', content: 'this is not a PDF at all' }],
    );
    expect(refused.status).toBe(415);
    expect(refused.body.detail).toContain('fake.pdf');
    expect(storedFiles(owner)).toEqual(before);

    const renamed = await upload(owner, { group_name: uniqueName(), user_id: owner.user.id }, [
      { name: 'really-a-pdf.txt', content: await makePdf(['Hidden portable document text']) },
    ]);
    expect(renamed.status).toBe(201);
    expect(renamed.body.files[0]!.mime_type).toBe('application/pdf');
    const group = await settled(owner, renamed.body.id);
    expect(group.files[0]!.trained).toBe(true);
  });

  it("reads a CSV saved by Excel on Windows (windows-1252) and Excel's Unicode text (UTF-16) with their £, € and é", async () => {
    // What Excel writes: one byte per character in its code page (£ 0xA3, € 0x80, é 0xE9).
    const windows1252 = Uint8Array.from(
      'service,price\nCut and finish,\xa335\nCaf\xe9 cr\xe8me,\x803\n',
      (c) => c.charCodeAt(0),
    );
    const utf16 = new Uint8Array([
      0xff,
      0xfe,
      ...new Uint8Array(Uint16Array.from('Gift vouchers from £25', (c) => c.charCodeAt(0)).buffer),
    ]);
    const reply = await upload(owner, { group_name: uniqueName(), user_id: owner.user.id }, [
      { name: 'prices.csv', content: windows1252 },
      { name: 'vouchers.txt', content: utf16 },
    ]);
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const group = await settled(owner, reply.body.id);
    expect(group.files.map((f) => f.status)).toEqual(['trained', 'trained']);
    const all = (await chunksOfGroup(group)).map((t) => t.content).join('\n');
    expect(all).toContain('Cut and finish | £35');
    expect(all).toContain('Café crème | €3');
    expect(all).toContain('Gift vouchers from £25');
    expect(all).not.toContain('\uFFFD');
  });

  it('reads a photo of a menu and a scanned PDF by OCR, page numbers kept, each in its language', async () => {
    // A Spanish bakery's price list is read with the Spanish model, accents kept.
    const reply = await upload(owner, { group_name: uniqueName(), user_id: owner.user.id }, [
      { name: 'menu-photo.jpg', content: await textImage(MENU_LINES, 'jpeg') },
      { name: 'scanned-menu.pdf', content: await makeScannedPdf([await textImage(SCANNED_LINES)]) },
      { name: 'carta.png', content: await textImage(CARTA_LINES) },
    ]);
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body.files.map((f) => f.mime_type)).toEqual(['image/jpeg', 'application/pdf', 'image/png']);
    const group = await settled(owner, reply.body.id);
    expect(group.files.map((f) => [f.status, f.error])).toEqual([
      ['trained', null],
      ['trained', null],
      ['trained', null],
    ]);
    const rows = await chunksOfGroup(group);
    expect(rows).toEqual(
      expect.arrayContaining([
        { content: MENU_LINES.join('\n'), page: null },
        { content: SCANNED_LINES.join('\n'), page: 1 },
        { content: CARTA_LINES.join('\n'), page: null },
      ]),
    );
  });

  it('marks a file with no text failed, with the reason, and trains the others', async () => {
    const reply = await upload(owner, { group_name: uniqueName(), user_id: owner.user.id }, [
      { name: 'blank.pdf', content: await makePdf(['']) },
      textFile(),
    ]);
    expect(reply.status).toBe(201);
    const group = await settled(owner, reply.body.id);
    expect(group.files.map((f) => [f.status, f.trained, f.error])).toEqual([
      ['failed', false, PDF_NO_TEXT],
      ['trained', true, null],
    ]);
  });

  it('refuses a file over the size limit and more files than allowed, writing nothing', async () => {
    const before = storedFiles(owner);
    const big = await upload<{ detail: string }>(
      owner,
      { group_name: uniqueName(), user_id: owner.user.id },
      [textFile(), { name: 'big.txt', content: 'a'.repeat(MAX_BYTES + 1) }],
    );
    expect(big.status).toBe(413);
    expect(big.body.detail).toBe('big.txt is larger than the 0.2 MB limit per file');
    const many = await upload<{ detail: string }>(
      owner,
      { group_name: uniqueName(), user_id: owner.user.id },
      Array.from({ length: MAX_FILES + 1 }, (_, i) => textFile(`n${i}.txt`)),
    );
    expect(many.status).toBe(413);
    expect(many.body.detail).toBe(`At most ${MAX_FILES} files can be uploaded at once`);
    expect(storedFiles(owner)).toEqual(before);
    const names = (await groupsOf(owner)).map((g) => g.group_name);
    expect(names).toHaveLength(new Set(names).size);
  });

  it('answers the spec texts for invalid forms, and no group or file is left behind', async () => {
    const before = { files: storedFiles(owner), groups: (await groupsOf(owner)).length };
    const cases: Array<[Record<string, string | number>, Upload[], number, string]> = [
      [{ user_id: owner.user.id }, [textFile()], 400, MESSAGES.files.groupNameRequired],
      [{ group_name: '  ', user_id: owner.user.id }, [textFile()], 400, MESSAGES.files.groupNameRequired],
      [{ group_name: 'bad name!', user_id: owner.user.id }, [textFile()], 400, MESSAGES.files.groupNameChars],
      [{ group_name: uniqueName(), user_id: owner.user.id }, [], 400, MESSAGES.files.atLeastOneFile],
      [{ group_name: uniqueName(), user_id: 0 }, [textFile()], 400, MESSAGES.files.userMissing],
      [{ group_name: uniqueName() }, [textFile()], 400, MESSAGES.files.userMissing],
      [{ group_name: uniqueName(), user_id: 99_999_999 }, [textFile()], 404, MESSAGES.files.userMissing],
    ];
    for (const [fields, files, status, detail] of cases) {
      const reply = await upload<{ detail: string }>(owner, fields, files);
      expect([reply.status, reply.body.detail], JSON.stringify(fields)).toEqual([status, detail]);
    }
    const json = await server.post<{ detail: string }>(
      '/api/file/upload-multiple',
      { group_name: uniqueName(), user_id: owner.user.id },
      as(owner),
    );
    expect([json.status, json.body.detail]).toEqual([400, 'The upload must be sent as multipart/form-data']);
    expect(storedFiles(owner)).toEqual(before.files);
    expect(await groupsOf(owner)).toHaveLength(before.groups);
  });
});

describe('group names', () => {
  it('checks a name per tenant, case-insensitively, and refuses a taken one on upload', async () => {
    const name = uniqueName();
    const check = (account: Account, group_name: string, tenant_id = account.user.tenant_id) =>
      server.post<{ isUnique?: boolean; detail?: string }>(
        '/api/file/check-group-name',
        { group_name, tenant_id },
        as(account),
      );
    expect((await check(owner, name)).body).toEqual({ isUnique: true });
    expect((await upload(owner, { group_name: name, user_id: owner.user.id }, [textFile()])).status).toBe(
      201,
    );
    expect((await check(owner, name.toUpperCase())).body).toEqual({ isUnique: false });
    expect((await check(other, name)).body).toEqual({ isUnique: true });
    expect((await check(other, name, owner.user.tenant_id)).status).toBe(404);
    const bad = await check(owner, 'no spaces');
    expect([bad.status, bad.body.detail]).toEqual([400, MESSAGES.files.groupNameChars]);

    const before = storedFiles(owner);
    const taken = await upload<{ detail: string }>(owner, { group_name: name, user_id: owner.user.id }, [
      textFile(),
    ]);
    expect([taken.status, taken.body.detail]).toEqual([409, MESSAGES.files.groupNameTaken]);
    expect(storedFiles(owner)).toEqual(before);
  });
});

describe('editing and deleting', () => {
  it('adds files, edits the description, removes files from disk and from the index', async () => {
    const created = await upload(owner, { group_name: uniqueName(), user_id: owner.user.id }, [
      textFile('a.txt', 'Alpha text about kayaks.'),
      textFile('b.md', '# Bravo\nNotes about canoes.'),
    ]);
    const groupId = created.body.id;
    await settled(owner, groupId);
    const added = await multipart<FileGroupUploadResponse>(
      'PUT',
      '/file/update-file-group',
      owner,
      { group_id: groupId, description: 'Paddling' },
      [textFile('c.txt', 'Charlie text about paddles.')],
    );
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.description).toBe('Paddling');
    expect(added.body.files.map((f) => f.filename)).toEqual(['a.txt', 'b.md', 'c.txt']);
    const group = await settled(owner, groupId);
    expect(group.files.every((f) => f.trained)).toBe(true);

    const [a, b, c] = group.files;
    const filesBefore = storedFiles(owner).length;
    const edited = await server.put<FileGroup>(
      `/api/file/file-groups/${groupId}/user/${owner.user.id}`,
      { description: 'Boats', deleted_files: [a!.id] },
      as(owner),
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.description).toBe('Boats');
    expect(edited.body.files.map((f) => f.id)).toEqual([b!.id, c!.id]);
    const removed = await server.delete(`/api/file/file/${b!.id}`, as(owner));
    expect(removed.body).toEqual({ message: 'File deleted successfully' });
    expect(storedFiles(owner).length).toBe(filesBefore - 2);
    const docs = await server.database.db
      .select({ sourceId: documents.sourceId })
      .from(documents)
      .where(and(eq(documents.sourceType, 'file'), eq(documents.collectionId, groupId)));
    expect(docs.map((d) => d.sourceId)).toEqual([c!.id]);

    const notInGroup = await server.put(
      `/api/file/file-groups/${groupId}/user/${owner.user.id}`,
      { deleted_files: [c!.id, 99_999_999] },
      as(owner),
    );
    expect(notInGroup.status).toBe(404);
    expect((await settled(owner, groupId)).files).toHaveLength(1);
  });

  it('refuses to delete a group that bots use, naming them; deletes it once unlinked', async () => {
    const created = await upload(owner, { group_name: uniqueName(), user_id: owner.user.id }, [textFile()]);
    const groupId = created.body.id;
    await settled(owner, groupId);
    const tenantId = owner.user.tenant_id;
    const db = server.database.db;
    const made = await db
      .insert(bots)
      .values([
        { tenantId, botName: `Zeta ${groupId}` },
        { tenantId, botName: `Alpha ${groupId}` },
      ])
      .returning({ id: bots.id });
    await db
      .insert(botFileGroups)
      .values(made.map((bot) => ({ tenantId, botId: bot.id, fileGroupId: groupId })));

    for (const route of ['file-groups', 'group']) {
      const refused = await server.delete<DeleteGroupConflict>(
        `/api/file/${route}/${groupId}/user/${owner.user.id}`,
        as(owner),
      );
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({
        detail: `${MESSAGES.files.deleteGroupFailed}${MESSAGES.files.associatedBots}Alpha ${groupId}, Zeta ${groupId}`,
        associated_bots: [`Alpha ${groupId}`, `Zeta ${groupId}`],
      });
    }
    expect((await groupsOf(owner)).some((g) => g.id === groupId)).toBe(true);

    await db.delete(botFileGroups).where(eq(botFileGroups.fileGroupId, groupId));
    const filesBefore = storedFiles(owner).length;
    const deleted = await server.delete(`/api/file/group/${groupId}/user/${owner.user.id}`, as(owner));
    expect(deleted.body).toEqual({ message: 'File group deleted successfully' });
    expect((await groupsOf(owner)).some((g) => g.id === groupId)).toBe(false);
    expect(storedFiles(owner).length).toBe(filesBefore - 1);
    const docs = await db.select().from(documents).where(eq(documents.collectionId, groupId));
    expect(docs).toEqual([]);
  });
});

describe('what a small business uploads', () => {
  /** A bot answering from these groups, as the bot page attaches them. */
  const botOn = (...groupIds: number[]) =>
    createBotViaApi(server, owner, {
      bot_name: `Cafe_${Math.random().toString(36).slice(2, 8)}`,
      file_group_ids: JSON.stringify(groupIds),
    });
  const answer = async (botId: number, question: string) =>
    (await askBot(server, owner, botId, question)).body.bot_message!.message;
  const storageName = async (fileId: number) =>
    (await server.database.db.select().from(files).where(eq(files.id, fileId)))[0]!.storageName;

  it('says an empty file is empty, and refuses two files of one name in one upload, storing nothing', async () => {
    const before = { files: storedFiles(owner), groups: (await groupsOf(owner)).length };
    const empty = await upload<{ detail: string }>(
      owner,
      { group_name: uniqueName(), user_id: owner.user.id },
      [textFile(), { name: 'menu.pdf', content: '' }],
    );
    expect([empty.status, empty.body.detail]).toEqual([400, FILE_MESSAGES.empty('menu.pdf')]);
    const twice = await upload<{ detail: string }>(
      owner,
      { group_name: uniqueName(), user_id: owner.user.id },
      [textFile('prices.csv', 'item,price\nBagel,3'), textFile('Prices.CSV', 'item,price\nBagel,4')],
    );
    expect([twice.status, twice.body.detail]).toEqual([400, FILE_MESSAGES.sameNameTwice('Prices.CSV')]);
    expect(storedFiles(owner)).toEqual(before.files);
    expect(await groupsOf(owner)).toHaveLength(before.groups);
  });

  it("replaces last month's menu with the new one of the same name: the bot quotes only the new price", async () => {
    const created = await upload(owner, { group_name: uniqueName(), user_id: owner.user.id }, [
      { name: 'menu.pdf', content: await makeTablePdf([['Latte', '$4.50']], 'Drinks') },
      textFile('hours.txt', 'We open at eight every morning.'),
    ]);
    const group = await settled(owner, created.body.id);
    const old = group.files[0]!;
    const oldOriginal = await storageName(old.id);
    const bot = await botOn(group.id);
    expect(await answer(bot.bot_id, 'How much is a latte?')).toContain('$4.50');

    const added = await multipart<FileGroupUploadResponse>(
      'PUT',
      '/file/update-file-group',
      owner,
      { group_id: group.id },
      [{ name: 'Menu.pdf', content: await makeTablePdf([['Latte', '$4.90']], 'Drinks') }],
    );
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const after = await settled(owner, group.id);
    expect(after.files.map((f) => [f.filename, f.status])).toEqual([
      ['hours.txt', 'trained'],
      ['Menu.pdf', 'trained'],
    ]);
    const latte = await answer(bot.bot_id, 'How much is a latte?');
    expect(latte).toContain('$4.90');
    expect(latte).not.toContain('$4.50');
    expect(storedFiles(owner)).not.toContain(oldOriginal);
    const docs = await server.database.db
      .select({ sourceId: documents.sourceId })
      .from(documents)
      .where(and(eq(documents.sourceType, 'file'), eq(documents.collectionId, group.id)));
    expect(docs.map((d) => d.sourceId).sort()).toEqual(after.files.map((f) => f.id).sort());
  });

  it('retries a file that failed, and the bot answers from it once it is read', async () => {
    const created = await upload(owner, { group_name: uniqueName(), user_id: owner.user.id }, [
      textFile('prices.csv', 'item,price\nCroissant,2.80\nBagel,3.10\n'),
      textFile('hours.txt', 'We open at eight every morning.'),
    ]);
    const group = await settled(owner, created.body.id);
    const file = group.files[0]!;
    const bot = await botOn(group.id);
    expect(await answer(bot.bot_id, 'How much is a croissant?')).toContain('2.80');

    // The original goes missing (a disk fault): reading it again fails, saying so, and teaches nothing.
    const original = path.join(dataDir, 'uploads', String(owner.user.tenant_id), await storageName(file.id));
    const bytes = readFileSync(original);
    rmSync(original);
    const retried = await server.post<FileGroupUploadResponse>(
      `/api/file/file/${file.id}/retrain`,
      undefined,
      as(owner),
    );
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body.message).toBe(FILE_MESSAGES.retraining('prices.csv'));
    expect(retried.body.files[0]).toMatchObject({ id: file.id, status: 'pending' });
    expect(retried.body.files[1]).toMatchObject({ status: 'trained' });
    // Being read: asked again, it is refused rather than read twice at once.
    const busy = await server.post<{ detail: string }>(
      `/api/file/file/${file.id}/retrain`,
      undefined,
      as(owner),
    );
    expect([busy.status, busy.body.detail]).toEqual([409, FILE_MESSAGES.stillTraining('prices.csv')]);
    const failed = await settled(owner, group.id);
    expect(failed.files[0]).toMatchObject({
      status: 'failed',
      trained: false,
      error: 'The file could not be processed',
    });
    expect(await answer(bot.bot_id, 'How much is a croissant?')).not.toContain('2.80');

    writeFileSync(original, bytes);
    expect((await server.post(`/api/file/file/${file.id}/retrain`, undefined, as(owner))).status).toBe(200);
    expect((await settled(owner, group.id)).files[0]).toMatchObject({
      status: 'trained',
      trained: true,
      error: null,
    });
    expect(await answer(bot.bot_id, 'How much is a croissant?')).toContain('2.80');
  }, 30_000);

  it('moves a file to another group: its knowledge leaves the bots of the one and reaches those of the other', async () => {
    const bakery = await upload(owner, { group_name: uniqueName(), user_id: owner.user.id }, [
      textFile('prices.csv', 'item,price\nSourdough loaf,6.20\n'),
      textFile('notes.txt', 'The oven is lit at five.'),
    ]);
    const shop = await upload(owner, { group_name: uniqueName(), user_id: owner.user.id }, [
      textFile('notes.txt', 'Gift cards are sold at the till.'),
    ]);
    const [from, to] = [await settled(owner, bakery.body.id), await settled(owner, shop.body.id)];
    const [baker, seller] = [await botOn(from.id), await botOn(to.id)];
    const [prices, notes] = from.files;
    expect(await answer(baker.bot_id, 'How much is a sourdough loaf?')).toContain('6.20');
    expect(await answer(seller.bot_id, 'How much is a sourdough loaf?')).not.toContain('6.20');

    const move = (fileId: number, groupId: number) =>
      server.put<FileGroupUploadResponse & { detail: string }>(
        `/api/file/file/${fileId}/group`,
        { group_id: groupId },
        as(owner),
      );
    // What cannot move says why, and nothing changes.
    const named = await move(notes!.id, to.id);
    expect([named.status, named.body.detail]).toEqual([
      409,
      FILE_MESSAGES.nameInGroup('notes.txt', to.group_name),
    ]);
    const same = await move(prices!.id, from.id);
    expect([same.status, same.body.detail]).toEqual([
      400,
      FILE_MESSAGES.alreadyInGroup('prices.csv', from.group_name),
    ]);
    expect((await move(prices!.id, 99_999_999)).status).toBe(404);
    expect((await groupsOf(owner)).find((g) => g.id === from.id)).toEqual(from);

    const moved = await move(prices!.id, to.id);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({
      id: to.id,
      message: FILE_MESSAGES.moved('prices.csv', to.group_name),
    });
    expect((await settled(owner, to.id)).files.map((f) => [f.filename, f.status])).toEqual([
      ['prices.csv', 'trained'],
      ['notes.txt', 'trained'],
    ]);
    expect((await groupsOf(owner)).find((g) => g.id === from.id)!.files.map((f) => f.filename)).toEqual([
      'notes.txt',
    ]);
    expect(await answer(seller.bot_id, 'How much is a sourdough loaf?')).toContain('6.20');
    expect(await answer(baker.bot_id, 'How much is a sourdough loaf?')).not.toContain('6.20');
  });
});

describe('tenancy and permissions', () => {
  it("answers 404 for another tenant's groups, files and users, changing nothing", async () => {
    const created = await upload(owner, { group_name: uniqueName(), user_id: owner.user.id }, [textFile()]);
    const group = await settled(owner, created.body.id);
    const fileId = group.files[0]!.id;
    const g = group.id;
    const theirs = owner.user.id;
    const mine = other.user.id;
    const attempts: Array<Promise<{ status: number }>> = [
      server.get(`/api/file/file-groups/user/${theirs}`, as(other)),
      server.delete(`/api/file/file-groups/${g}/user/${mine}`, as(other)),
      server.delete(`/api/file/file-groups/${g}/user/${theirs}`, as(other)),
      server.delete(`/api/file/group/${g}/user/${mine}`, as(other)),
      server.delete(`/api/file/file/${fileId}`, as(other)),
      server.post(`/api/file/file/${fileId}/retrain`, undefined, as(other)),
      server.put(`/api/file/file/${fileId}/group`, { group_id: g }, as(other)),
      server.put(
        `/api/file/file-groups/${g}/user/${mine}`,
        { description: 'x', deleted_files: [fileId] },
        as(other),
      ),
      server.put(`/api/file/file-groups/${g}/user/${theirs}`, { description: 'x' }, as(other)),
      multipart('PUT', '/file/update-file-group', other, { group_id: g, description: 'x' }, [textFile()]),
      upload(other, { group_name: uniqueName(), user_id: theirs }, [textFile()]),
      server.post(
        '/api/file/check-group-name',
        { group_name: 'x', tenant_id: owner.user.tenant_id },
        as(other),
      ),
    ];
    for (const [i, reply] of (await Promise.all(attempts)).entries())
      expect(reply.status, `attempt ${i}`).toBe(404);
    expect(storedFiles(other)).toEqual([]);
    const after = (await groupsOf(owner)).find((x) => x.id === g);
    expect(after).toEqual(group);

    const roles = await server.get<Role[]>(`/api/role/roles/${owner.user.tenant_id}`, as(owner));
    const ownerRole = roles.body.find((r) => r.name === 'Owner')!;
    const byRole = await server.post<FileGroup[]>(
      '/api/file/file-groups/role',
      { role_id: ownerRole.id },
      as(owner),
    );
    expect(byRole.body.some((x) => x.id === g)).toBe(true);
    const foreign = await server.post<FileGroup[]>(
      '/api/file/file-groups/role',
      { role_id: ownerRole.id },
      as(other),
    );
    expect(foreign.body).toEqual([]);
  });

  it("shows a teammate the workspace's groups, and one restricted to some bots only theirs and their bots'", async () => {
    const role = await createRole(server, owner, { 'Create Bot': { create: true, read: true, write: true } });
    const mate = await addTeammate(server, owner, role, (email) =>
      outboxText(server.database, email).then(tokenFromText),
    );
    const ownersOwn = (
      await upload(owner, { group_name: uniqueName(), user_id: owner.user.id }, [textFile()])
    ).body;
    const botsGroup = (
      await upload(owner, { group_name: uniqueName(), user_id: owner.user.id }, [textFile()])
    ).body;
    const matesOwn = (await upload(mate, { group_name: uniqueName(), user_id: mate.user.id }, [textFile()]))
      .body;
    const seen = async () =>
      (await server.get<FileGroup[]>(`/api/file/file-groups/user/${mate.user.id}`, as(mate))).body.map(
        (g) => g.id,
      );
    // As the bots list: a teammate works with the workspace's files, the owner's menu included.
    expect(await seen()).toEqual(expect.arrayContaining([ownersOwn.id, botsGroup.id, matesOwn.id]));
    expect(await seen()).toEqual((await groupsOf(owner)).map((g) => g.id));

    const bot = await createBotViaApi(server, owner, {
      bot_name: `Assigned_${botsGroup.id}`,
      file_group_ids: JSON.stringify([botsGroup.id]),
    });
    const restricted = await server.put(
      `/api/auth/bots-assigned/${mate.user.id}`,
      { bot_ids: [bot.bot_id] },
      as(owner),
    );
    expect(restricted.status, JSON.stringify(restricted.body)).toBe(200);
    expect((await seen()).sort()).toEqual([botsGroup.id, matesOwn.id].sort());
  });

  it("refuses a member without 'Create Bot' (403)", async () => {
    const role = await createRole(server, owner, { Home: { read: true } });
    const member = await addTeammate(server, owner, role, (email) =>
      outboxText(server.database, email).then(tokenFromText),
    );
    const before = storedFiles(owner);
    expect((await server.get(`/api/file/file-groups/user/${member.user.id}`, as(member))).status).toBe(403);
    const refused = await upload(member, { group_name: uniqueName(), user_id: member.user.id }, [textFile()]);
    expect(refused.status).toBe(403);
    const [group] = await groupsOf(owner);
    const fileId = group!.files[0]!.id;
    expect((await server.post(`/api/file/file/${fileId}/retrain`, undefined, as(member))).status).toBe(403);
    expect(
      (await server.put(`/api/file/file/${fileId}/group`, { group_id: group!.id }, as(member))).status,
    ).toBe(403);
    expect(storedFiles(owner)).toEqual(before);
  });
});
