/**
 * Test fixture, run as its own OS process by training-recovery.api.test.ts: a job worker with the
 * real Q&A training handler on a PostgreSQL database. Each of its transactions waits before it
 * commits, so a training takes a while and is almost always holding written, uncommitted chunks:
 * the test SIGKILLs it there. Nothing in the production code knows about this delay.
 * Usage: node --import tsx training-worker.fixture.ts <database-url> <lease-ms> <commit-delay-ms>
 */
import { type Db, openDatabase } from '../../core/db/database.js';
import { JobQueue } from '../../core/jobs/queue.js';
import { QnaService } from '../qna/qna.service.js';

const [url, leaseArg, delayArg] = process.argv.slice(2);
if (!url || !leaseArg || !delayArg) {
  console.error('usage: training-worker.fixture.ts <database-url> <lease-ms> <commit-delay-ms>');
  process.exit(2);
}
const commitDelayMs = Number(delayArg);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const database = await openDatabase({ kind: 'postgres', url, poolSize: 3 });

/** The database with every transaction held open for commitDelayMs after its work. */
const slowCommits = (db: Db): Db =>
  new Proxy(db, {
    get(target, property) {
      if (property === 'transaction') {
        const transaction: Db['transaction'] = (work, config) =>
          target.transaction(async (tx) => {
            const result = await work(tx);
            await sleep(commitDelayMs);
            return result;
          }, config);
        return transaction;
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });

const toStderr = (obj: object, msg?: string) => console.error(msg ?? '', JSON.stringify(obj));
const queue = new JobQueue(database, {
  leaseMs: Number(leaseArg),
  pollMs: 20,
  concurrency: 1,
  logger: { info: () => {}, warn: toStderr, error: toStderr },
});
new QnaService(slowCommits(database.db), queue).registerWorker();
await queue.start();
console.log('ready');
// Works until the test kills it.
