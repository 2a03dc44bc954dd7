import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServerDatabase, dropServerDatabase } from '../../test/database.js';
import { type Database, openDatabase } from '../db/database.js';
import { EVENTS_CHANNEL, EventBus, type Logger, MAX_EVENT_BYTES } from './bus.js';

const PG_URL = process.env.TEST_DATABASE_URL;
const KINDS = ['pglite', 'postgres'] as const;
type Kind = (typeof KINDS)[number];
const REPO_ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./test-publisher.fixture.ts', import.meta.url));
const WAIT = { timeout: 4000, interval: 10 };

/** A fresh database on the PostgreSQL server of TEST_DATABASE_URL, dropped by `drop`. */
async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const url = await createServerDatabase();
  return { url, drop: () => dropServerDatabase(url) };
}

function recordingLogger(): Logger & { errors: unknown[]; warnings: unknown[] } {
  const errors: unknown[] = [];
  const warnings: unknown[] = [];
  return {
    errors,
    warnings,
    warn: (obj, msg) => void warnings.push({ obj, msg }),
    error: (obj, msg) => void errors.push({ obj, msg }),
  };
}

/** A JSON message of exactly `bytes` bytes once wrapped by `bus` for `topic`. */
function payloadOfSize(bus: EventBus, topic: string, bytes: number): string {
  const overhead = Buffer.byteLength(JSON.stringify({ topic, payload: '', origin: bus.origin }));
  return 'x'.repeat(bytes - overhead);
}

describe.each(KINDS)('EventBus on %s', (kind: Kind) => {
  const where = kind === 'postgres' ? 'TEST_DATABASE_URL' : 'in memory';
  describe.skipIf(kind === 'postgres' && !PG_URL)(where, () => {
    let database: Database;
    let url = '';
    let drop: (() => Promise<void>) | undefined;
    const buses: EventBus[] = [];

    beforeAll(async () => {
      if (kind === 'postgres') {
        const created = await createPgDatabase();
        url = created.url;
        drop = created.drop;
        database = await openDatabase({ kind: 'postgres', url });
      } else {
        database = await openDatabase({ kind: 'pglite' });
      }
    }, 60_000);

    afterEach(async () => {
      await Promise.all(buses.splice(0).map((bus) => bus.stop()));
    });

    afterAll(async () => {
      await database?.close();
      await drop?.();
    }, 30_000);

    async function makeBus(logger: Logger = recordingLogger(), start = true): Promise<EventBus> {
      const bus = new EventBus(database, { logger });
      buses.push(bus);
      if (start) await bus.start();
      return bus;
    }

    it('delivers to local subscribers synchronously, by topic, until they unsubscribe', async () => {
      const bus = await makeBus(recordingLogger(), false);
      const seen: unknown[] = [];
      const other: unknown[] = [];
      const unsubscribe = bus.subscribe<{ n: number }>('t.local', (payload) => void seen.push(payload));
      bus.subscribe('t.other', (payload) => void other.push(payload));

      const sending = bus.publish('t.local', { n: 1 });
      expect(seen).toEqual([{ n: 1 }]); // before NOTIFY was even awaited
      await sending;
      unsubscribe();
      await bus.publish('t.local', { n: 2 });
      expect(seen).toEqual([{ n: 1 }]);
      expect(other).toEqual([]);
    });

    it('reaches another bus on the same database, and never delivers an own event twice', async () => {
      const sender = await makeBus();
      const receiver = await makeBus();
      const atSender: unknown[] = [];
      const atReceiver: unknown[] = [];
      sender.subscribe('t.fanout', (payload) => void atSender.push(payload));
      receiver.subscribe('t.fanout', (payload) => void atReceiver.push(payload));

      await sender.publish('t.fanout', { hello: 'world' });
      // The one listener hands each notification to every bus in turn, so once the receiver has it the
      // sender has seen its own echo too.
      await vi.waitFor(() => expect(atReceiver).toEqual([{ hello: 'world' }]), WAIT);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(atSender).toEqual([{ hello: 'world' }]);
      expect(atReceiver).toHaveLength(1);
    });

    it('keeps delivering to the other subscribers when one throws or rejects', async () => {
      const logger = recordingLogger();
      const sender = await makeBus();
      const bus = await makeBus(logger);
      const seen: unknown[] = [];
      bus.subscribe('t.faulty', () => {
        throw new Error('subscriber bug');
      });
      bus.subscribe('t.faulty', async () => {
        throw new Error('async subscriber bug');
      });
      bus.subscribe('t.faulty', (payload) => void seen.push(payload));

      await bus.publish('t.faulty', 1);
      await sender.publish('t.faulty', 2);
      await vi.waitFor(() => expect(seen).toEqual([1, 2]), WAIT);
      await vi.waitFor(() => expect(logger.errors).toHaveLength(4), WAIT);
      expect(logger.errors[0]).toMatchObject({
        obj: { topic: 't.faulty' },
        msg: 'events: subscriber failed',
      });
    });

    it('refuses a payload over the NOTIFY limit, counting bytes, before delivering it anywhere', async () => {
      const bus = await makeBus();
      const seen: unknown[] = [];
      bus.subscribe('t.big', (payload) => void seen.push(payload));

      await expect(bus.publish('t.big', payloadOfSize(bus, 't.big', MAX_EVENT_BYTES + 1))).rejects.toThrow(
        /t\.big.*7901 bytes.*7900-byte NOTIFY limit/,
      );
      // 4000 characters but 8000 bytes.
      await expect(bus.publish('t.big', 'é'.repeat(4000))).rejects.toThrow(/NOTIFY limit/);
      expect(seen).toEqual([]);

      const largest = payloadOfSize(bus, 't.big', MAX_EVENT_BYTES);
      await bus.publish('t.big', largest);
      expect(seen).toEqual([largest]);
    });

    it('ignores malformed notifications and stops receiving after stop()', async () => {
      const logger = recordingLogger();
      const sender = await makeBus();
      const bus = await makeBus(logger);
      const seen: unknown[] = [];
      bus.subscribe('t.stop', (payload) => void seen.push(payload));

      await database.notify(EVENTS_CHANNEL, 'not json');
      await database.notify(EVENTS_CHANNEL, JSON.stringify({ payload: 1, origin: 'x' }));
      await sender.publish('t.stop', 'before');
      await vi.waitFor(() => expect(seen).toEqual(['before']), WAIT);
      expect(logger.warnings).toHaveLength(2);

      await bus.stop();
      await sender.publish('t.stop', 'after');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(seen).toEqual(['before']);
    });

    it.skipIf(kind !== 'postgres')(
      'receives an event published by another OS process',
      { timeout: 20_000 },
      async () => {
        const bus = await makeBus();
        const nonce = randomUUID();
        const received: unknown[] = [];
        bus.subscribe('t.cross-process', (payload) => void received.push(payload));

        const child = spawnPublisher(url, 't.cross-process', { nonce });
        try {
          await vi.waitFor(() => expect(received).toEqual([{ nonce }]), { timeout: 10_000, interval: 20 });
          expect(await child.exited).toMatchObject({ code: 0 });
          expect(child.stdout()).toContain('published');
        } finally {
          child.kill();
        }
      },
    );
  });
});

type Spawned = {
  exited: Promise<{ code: number | null; stderr: string }>;
  stdout: () => string;
  kill: () => void;
};

/** Runs the publisher fixture in a separate Node process (tsx compiles the TypeScript). */
function spawnPublisher(url: string, topic: string, payload: unknown): Spawned {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', FIXTURE, url, topic, JSON.stringify(payload)],
    {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) => {
    child.on('exit', (code) => resolve({ code, stderr }));
    child.on('error', (err) => resolve({ code: null, stderr: String(err) }));
  });
  return {
    exited,
    stdout: () => stdout,
    kill: () => {
      if (child.exitCode === null) child.kill();
    },
  };
}
