import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jobs } from '../../core/db/schema.js';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { signupOwner } from '../../test/factories.js';
import { type SmtpCapture, startSmtpCapture } from '../../test/fakes/smtp.js';
import { startTestServer } from '../../test/server.js';

let smtp: SmtpCapture;
let db: TestDatabase;
beforeAll(async () => {
  smtp = await startSmtpCapture();
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
  await smtp.close();
});

it('delivers mail queued by an API-only process once a worker starts, exactly once', async () => {
  const api = await startTestServer({ database: db, role: 'api', env: { SMTP_URL: smtp.url } });
  const owner = await signupOwner(api);
  await api.post('/api/notification/request-password-reset/', { email: owner.user.email });
  await new Promise((r) => setTimeout(r, 300));
  expect(smtp.mails).toHaveLength(0);
  const [queued] = await db.database.db.select().from(jobs).where(eq(jobs.name, 'auth.password-reset'));
  expect(queued?.status).toBe('queued');
  await api.close();

  // A second process (here: the same database, a new server with workers) picks it up.
  const worker = await startTestServer({ database: db, role: 'all', env: { SMTP_URL: smtp.url } });
  await smtp.waitFor(owner.user.email, /Reset/);
  await new Promise((r) => setTimeout(r, 300));
  expect(smtp.mails.filter((m) => m.to.includes(owner.user.email))).toHaveLength(1);
  const [done] = await db.database.db.select().from(jobs).where(eq(jobs.id, queued!.id));
  expect(done).toMatchObject({ status: 'completed', attempts: 1 });
  await worker.close();
});

it('keeps mail queued and retries with back-off while the SMTP server is down', async () => {
  const down = await startSmtpCapture();
  const url = down.url;
  await down.close();
  const server = await startTestServer({ database: db, env: { SMTP_URL: url } });
  const owner = await signupOwner(server);
  await server.post('/api/notification/request-password-reset/', { email: owner.user.email });
  const deadline = Date.now() + 10_000;
  let job: typeof jobs.$inferSelect | undefined;
  while (Date.now() < deadline) {
    [job] = await db.database.db.select().from(jobs).where(eq(jobs.status, 'queued'));
    if (job && job.attempts >= 1) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(job?.attempts).toBeGreaterThanOrEqual(1);
  expect(job?.error).toBeTruthy();
  expect(job!.runAfter.getTime()).toBeGreaterThan(Date.now() - 100);
  await server.close();
});
