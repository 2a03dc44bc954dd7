import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, REPO_ROOT, SERVER_ENTRY } from './harness';

/** What `npm run serve` writes until it is ready (pino lines: their `msg`), or the output so far at exit. */
async function startLog(dataDir: string): Promise<string[]> {
  const port = await freePort();
  const server = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'info',
      SMTP_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let rest = '';
  let done = false;
  const ready = new Promise<void>((resolve, reject) => {
    server.stdout.on('data', (chunk: Buffer) => {
      const parts = (rest + chunk.toString()).split('\n');
      rest = parts.pop() ?? '';
      for (const part of parts) {
        const msg = (JSON.parse(part) as { msg?: string }).msg;
        if (!msg || done) continue;
        lines.push(msg);
        done = msg.startsWith('Parley is ready at');
        if (done) resolve();
      }
    });
    server.once('exit', (code) => reject(new Error(`exited with ${code}: ${lines.join(' | ')}`)));
  });
  try {
    await ready;
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
  return lines;
}

/**
 * Issue 31 item 10: the first `npm start` was silent for about 30 s. Start-up says what it does
 * (creating or opening the database, migrating, starting) and where it is ready, in that order.
 */
describe('cold start', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-cold-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('logs each step of a first start and of a restart, ending with the address', async () => {
    const first = await startLog(dataDir);
    // Counts and paths' digits vary: compared as N.
    const norm = (line: string) => line.replace(/\d+/g, 'N');
    const steps = (lines: string[]) =>
      lines.filter((line) => /database|migration|Starting|ready at/i.test(line)).map(norm);
    expect(steps(first).slice(0, 4)).toEqual(
      [
        `Creating the embedded database in ${dataDir}/pgdata (first start: about N seconds)`,
        'Applying N database migrations',
        'Applied N database migrations',
        'Starting the API and the background workers',
      ].map(norm),
    );
    expect(first.at(-1)).toMatch(/^Parley is ready at http:\/\/127\.0\.0\.1:\d+$/);

    const again = await startLog(dataDir);
    expect(steps(again).slice(0, 3)).toEqual(
      [
        `Opening the embedded database in ${dataDir}/pgdata`,
        'Database schema is up to date',
        'Starting the API and the background workers',
      ].map(norm),
    );
    expect(again.at(-1)).toMatch(/^Parley is ready at /);
  }, 120_000);
});
