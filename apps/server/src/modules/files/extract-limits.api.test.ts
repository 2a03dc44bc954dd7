import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FileGroup, FileGroupUploadResponse } from '@parley/contracts';
import JSZip from 'jszip';
import { afterAll, describe, expect, it } from 'vitest';
import { signupOwner } from '../../test/factories.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { DOCX_TEXT, makeDocx, makePdf } from './test-files.fixture.js';

// Issue 13, item 1: no upload can take the server down. Each server here runs with small extraction
// limits, so the refusals are quick to provoke; the defaults are documented in the README.
const MB = 1024 * 1024;
const dirs: string[] = [];
const servers: TestServer[] = [];

async function serverWith(env: Record<string, string>): Promise<{ server: TestServer; owner: Account }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-extract-'));
  dirs.push(dataDir);
  const server = await startTestServer({
    env: { DATA_DIR: dataDir, FILE_MAX_BYTES: String(5 * MB), ...env },
  });
  servers.push(server);
  return { server, owner: await signupOwner(server) };
}

afterAll(async () => {
  for (const server of servers) await server.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A real DOCX, deflated, with extra parts: small on the wire, large (or many-parted) when unpacked. */
async function compressedDocx(
  paragraphs: string[],
  extraParts: Record<string, string> = {},
): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(await makeDocx(paragraphs));
  for (const [name, text] of Object.entries(extraParts)) zip.file(name, text);
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE', compressionOptions: { level: 9 } });
}

async function uploadOne(server: TestServer, owner: Account, name: string, content: Uint8Array) {
  const form = new FormData();
  form.append('group_name', `group_${Math.random().toString(36).slice(2, 8)}`);
  form.append('user_id', String(owner.user.id));
  form.append('files', new Blob([content as BlobPart]), name);
  const response = await fetch(`${server.url}/api/file/upload-multiple`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${owner.access_token}` },
  });
  const body = (await response.json()) as FileGroupUploadResponse;
  expect(response.status, JSON.stringify(body)).toBe(201);
  return body;
}

/** The uploaded file once it is no longer pending, and its job (a busy CI machine may take a while). */
async function settledFile(server: TestServer, owner: Account, upload: FileGroupUploadResponse) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const groups = await server.get<FileGroup[]>(`/api/file/file-groups/user/${owner.user.id}`, {
      token: owner.access_token,
    });
    const file = groups.body.find((g) => g.id === upload.id)?.files[0];
    if (file && file.status !== 'pending') {
      const job = await server.get<{ status: string }>(`/api/jobs/${upload.job_id}`, {
        token: owner.access_token,
      });
      // The file's row is written inside the job, which settles just after: wait for both.
      if (job.body.status !== 'active') return { file, job: job.body };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('file still pending');
}

describe('archives are measured before a parser opens them', () => {
  it('refuses a DOCX that unpacks past the limit, at its first attempt, and keeps serving', async () => {
    const { server, owner } = await serverWith({ EXTRACT_MAX_UNPACKED_BYTES: String(2 * MB) });
    // 3 MB of text in document.xml: a few KB on the wire.
    const bomb = await compressedDocx(['lorem ipsum '.repeat(260_000)]);
    expect(bomb.byteLength).toBeLessThan(64 * 1024);
    const upload = await uploadOne(server, owner, 'bomb.docx', bomb);
    const { file, job } = await settledFile(server, owner, upload);
    expect(file).toMatchObject({ status: 'failed', trained: false });
    expect(file.error).toBe('This DOCX file unpacks to more than 2 MB, more than Parley reads');
    // Failed for good at the first failure: the job completed instead of being retried.
    expect(job.status).toBe('completed');
    expect((await server.get('/api/health')).status).toBe(200);

    // An ordinary DOCX, compressed the same way, still trains.
    const ordinary = await uploadOne(server, owner, 'ok.docx', await compressedDocx(DOCX_TEXT));
    expect((await settledFile(server, owner, ordinary)).file).toMatchObject({
      status: 'trained',
      error: null,
    });
  });

  it('refuses an archive of too many parts', async () => {
    const { server, owner } = await serverWith({ EXTRACT_MAX_ARCHIVE_ENTRIES: '20' });
    const parts = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`word/media/part${i}.xml`, '<x/>']),
    );
    const upload = await uploadOne(server, owner, 'parts.docx', await compressedDocx(DOCX_TEXT, parts));
    const { file } = await settledFile(server, owner, upload);
    expect(file).toMatchObject({ status: 'failed', error: 'This DOCX file holds more than 20 parts' });
  });
});

describe('parsing runs in worker processes with memory and time limits', () => {
  it('a file that needs more memory than a worker has fails with a reason; the server carries on', async () => {
    const { server, owner } = await serverWith({ EXTRACT_WORKER_MEMORY_MB: '48' });
    // 600,000 paragraphs (about 27 MB of XML, inside the unpacked limit): mammoth's document tree
    // outgrows 48 MB. In a worker thread with that heap limit this aborted the whole server (V8's
    // fatal out-of-memory error, exit 134); in its own process only that process dies.
    const heavy = await compressedDocx(Array.from({ length: 600_000 }, (_, i) => `p${i}`));
    const upload = await uploadOne(server, owner, 'heavy.docx', heavy);
    const { file, job } = await settledFile(server, owner, upload);
    expect(file).toMatchObject({ status: 'failed' });
    expect(file.error).toBe('This file needs more memory to read than Parley allows');
    expect(job.status).toBe('completed');
    // The pool replaced the dead worker: the next file is read.
    const ordinary = await uploadOne(
      server,
      owner,
      'notes.txt',
      new TextEncoder().encode('Opening hours are nine to five.'),
    );
    expect((await settledFile(server, owner, ordinary)).file).toMatchObject({ status: 'trained' });
    // Building the 27 MB document, then a worker filling 48 MB and a new one starting, takes over
    // 30 s on a loaded 2-CPU machine.
  }, 120_000);

  it('a file that takes longer than the time limit is stopped and fails with a reason', async () => {
    const { server, owner } = await serverWith({ EXTRACT_TIMEOUT_MS: '1' });
    const upload = await uploadOne(server, owner, 'guide.pdf', await makePdf());
    const { file, job } = await settledFile(server, owner, upload);
    expect(file).toMatchObject({
      status: 'failed',
      error: 'Reading this file took longer than 0 s, so it was stopped',
    });
    expect(job.status).toBe('completed');
  });
});
