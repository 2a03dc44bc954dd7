import type { EmailLog, LeadFormConfig, Role, SendEmailResponse } from '@parley/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, mailOutbox } from '../../core/db/schema.js';
import { insertBot } from '../../test/bots.js';
import { addTeammate, createRole, signupOwner } from '../../test/factories.js';
import { type SmtpCapture, startSmtpCapture } from '../../test/fakes/smtp.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { bots } from '../bots/bots.schema.js';
import { DROPPED_TEAMMATE_REMOVED, MAIL_JOB } from './mail.service.js';

let smtp: SmtpCapture;
let port: number;
let server: TestServer;
let owner: Account;
let member: Role;
const as = (account: Account) => ({ token: account.access_token });

/** Teammates join through invitations delivered while the mail server is still up. */
const readToken = async (email: string) => {
  const mail = await smtp.waitFor(email, /invited you/);
  return /token=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
};

beforeAll(async () => {
  smtp = await startSmtpCapture();
  port = Number(new URL(smtp.url).port);
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
  owner = await signupOwner(server);
  member = await createRole(server, owner, { Inbox: { read: true } });
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});

/** The mail server goes down: what is queued now fails and waits for its retry. */
async function smtpDown(): Promise<void> {
  await smtp.close();
}

/** The mail server is back (same address); waiting retries run now rather than after their back-off. */
async function smtpUp(): Promise<void> {
  smtp = await startSmtpCapture(port);
  await server.database.db
    .update(jobs)
    .set({ runAfter: sql`now()` })
    .where(and(eq(jobs.name, MAIL_JOB), eq(jobs.status, 'queued')));
}

/** Waits until each delivery job of these mails has failed at least once (the outage was felt). */
async function deliveryFailed(outboxIds: number[]): Promise<void> {
  const ids = outboxIds.map(String);
  await expect
    .poll(
      async () => {
        const rows = await server.database.db
          .select({ attempts: jobs.attempts })
          .from(jobs)
          .where(and(eq(jobs.name, MAIL_JOB), inArray(sql<string>`${jobs.data}->>'outboxId'`, ids)));
        return rows.length === ids.length && rows.every((r) => r.attempts >= 1);
      },
      { timeout: 10_000, interval: 50 },
    )
    .toBe(true);
}

/** The outbox rows once none of them waits any more. */
async function settled(outboxIds: number[]) {
  const read = () => server.database.db.select().from(mailOutbox).where(inArray(mailOutbox.id, outboxIds));
  await expect
    .poll(async () => (await read()).every((row) => row.status !== 'queued'), {
      timeout: 15_000,
      interval: 50,
    })
    .toBe(true);
  return new Map((await read()).map((row) => [row.toAddress, row]));
}

async function outboxIdsTo(addresses: string[]): Promise<number[]> {
  const rows = await server.database.db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(inArray(mailOutbox.toAddress, addresses), eq(mailOutbox.status, 'queued')));
  return rows.map((row) => row.id);
}

const removeTeammate = async (teammate: Account) => {
  const removed = await server.delete(`/api/auth/user/${teammate.user.id}`, as(owner));
  expect(removed.status, JSON.stringify(removed.body)).toBe(200);
};

describe('mail waiting for delivery when a teammate is removed', () => {
  it('is not sent to the removed teammate, and the mail log says so; members, a new invitee and a password reset still get theirs', async () => {
    const leaving = await addTeammate(server, owner, member, readToken);
    const staying = await addTeammate(server, owner, member, readToken);
    await smtpDown();

    const sent = await server.post<SendEmailResponse>(
      '/api/notification/send-email',
      { user_ids: [leaving.user.id, staying.user.id], subject: 'Lead from Acme', message: 'Call them today' },
      as(owner),
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const newcomer = `newcomer-${Date.now()}@example.com`;
    const invited = await server.post(
      '/api/auth/invite-user',
      { email: newcomer, role_id: member.id },
      as(owner),
    );
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    const reset = await server.post('/api/notification/request-password-reset/', {
      email: staying.user.email,
    });
    expect(reset.status).toBeLessThan(300);
    await expect
      .poll(() => outboxIdsTo([staying.user.email]).then((ids) => ids.length), { timeout: 10_000 })
      .toBe(2);
    const waiting = await outboxIdsTo([leaving.user.email, staying.user.email, newcomer]);
    expect(waiting).toHaveLength(4);
    await deliveryFailed(waiting);

    await removeTeammate(leaving);
    await smtpUp();

    await smtp.waitFor(staying.user.email, /^Lead from Acme$/);
    await smtp.waitFor(staying.user.email, /Reset your Parley password/);
    await smtp.waitFor(newcomer, /invited you/);
    const rows = await settled(waiting);
    expect(smtp.mails.filter((m) => m.to.includes(leaving.user.email))).toEqual([]);
    expect(rows.get(leaving.user.email)).toMatchObject({
      status: 'dropped',
      error: DROPPED_TEAMMATE_REMOVED,
      textBody: null,
      sentAt: null,
    });

    // The workspace's mail log shows it as not sent, beside the one delivered.
    const log = await server.get<EmailLog>('/api/notification/emails/', as(owner));
    expect(log.status).toBe(200);
    const statusTo = new Map(log.body.emails.map((e) => [e.to, e.status]));
    expect(statusTo.get(leaving.user.email)).toBe('dropped');
    expect(statusTo.get(staying.user.email)).toBe('sent');
  });

  it("drops a lead's details for an owner removed meanwhile; the other owner still gets them", async () => {
    const roles = await server.get<Role[]>(`/api/role/roles/${owner.user.tenant_id}`, as(owner));
    const ownerRole = roles.body.find((role) => role.is_owner)!;
    const coOwner = await addTeammate(server, owner, ownerRole, readToken);
    const bot = await insertBot(server, owner.user.tenant_id, 'Front desk');
    const form: LeadFormConfig = {
      enabled: true,
      show_when: 'no_answer',
      after_messages: 3,
      title: 'Leave your details',
      fields: [
        { name: 'name', label: 'Name', type: 'text', required: true },
        { name: 'email', label: 'Email', type: 'email', required: true },
      ],
    };
    await server.database.db.update(bots).set({ leadFormConfig: form }).where(eq(bots.id, bot.id));
    await smtpDown();

    const lead = await server.post(`/api/auth/bot/uuid/${bot.uuid}/lead`, {
      fields: { name: 'Bea Visitor', email: 'bea@example.com' },
    });
    expect(lead.status, JSON.stringify(lead.body)).toBe(201);
    const waiting = await outboxIdsTo([owner.user.email, coOwner.user.email]);
    expect(waiting).toHaveLength(2);
    await deliveryFailed(waiting);

    await removeTeammate(coOwner);
    await smtpUp();

    const delivered = await smtp.waitFor(owner.user.email, /lead/i);
    expect(delivered.text).toContain('bea@example.com');
    const rows = await settled(waiting);
    expect(rows.get(coOwner.user.email)).toMatchObject({ status: 'dropped', replyTo: null, textBody: null });
    expect(smtp.mails.filter((m) => m.to.includes(coOwner.user.email))).toEqual([]);
  });
});
