import { type AuthResponse, MESSAGES } from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, signupOwner } from '../../test/factories.js';
import { type SmtpCapture, startSmtpCapture } from '../../test/fakes/smtp.js';
import { startTestServer, type TestServer } from '../../test/server.js';

let smtp: SmtpCapture;
let server: TestServer;
beforeAll(async () => {
  smtp = await startSmtpCapture();
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});

const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)![1]!;
/** Asks for a reset and reads the code from the mail that arrives. */
async function resetCode(email: string): Promise<string> {
  await server.post('/api/notification/request-password-reset/', { email });
  return codeIn((await smtp.waitFor(email, /Reset/)).text);
}

const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('password reset', () => {
  it('resets through a mailed code; the old password and old sessions stop working', async () => {
    const owner = await signupOwner(server);
    const asked = await server.post('/api/notification/request-password-reset/', { email: owner.user.email });
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({ message: MESSAGES.otp.sent });
    const mail = await smtp.waitFor(owner.user.email, /Reset your Parley password/);
    const code = codeIn(mail.text);
    expect(mail.text).toContain(`http://parley.test/reset-password?email=`);

    const verified = await server.post('/api/notification/verify-password-reset/', {
      email: owner.user.email,
      otp: code,
    });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ verified: true });

    const done = await server.post('/api/notification/complete-password-reset/', {
      email: owner.user.email,
      otp: code,
      new_password: 'a brand new password',
    });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ message: MESSAGES.otp.passwordReset });

    expect(
      (await server.post('/api/auth/login', { username: owner.user.email, password: PASSWORD })).status,
    ).toBe(401);
    expect(
      (await server.post('/api/auth/login', { username: owner.user.email, password: 'a brand new password' }))
        .status,
    ).toBe(200);
    expect((await server.post('/api/auth/refresh', undefined, { cookie: owner.cookie })).status).toBe(401);

    const again = await server.post('/api/notification/complete-password-reset/', {
      email: owner.user.email,
      otp: code,
      new_password: 'yet another password',
    });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ detail: MESSAGES.otp.invalid });
  });

  it('answers the same for an unknown address and sends nothing', async () => {
    const reply = await server.post('/api/notification/request-password-reset/', {
      email: 'ghost@example.com',
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ message: MESSAGES.otp.sent });
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.mails.some((m) => m.to.includes('ghost@example.com'))).toBe(false);
  });

  it('kills a code after five wrong tries, even the right one afterwards', async () => {
    const owner = await signupOwner(server);
    const code = await resetCode(owner.user.email);
    const statuses: string[] = [];
    for (let i = 0; i < 5; i++) {
      const reply = await server.post<{ detail: string }>('/api/notification/verify-password-reset/', {
        email: owner.user.email,
        otp: wrongCode(code),
      });
      expect(reply.status).toBe(400);
      statuses.push(reply.body.detail);
    }
    expect(statuses.slice(0, 4).every((d) => d === MESSAGES.otp.invalid)).toBe(true);
    expect(statuses[4]).toBe(MESSAGES.otp.tooManyAttempts);
    const right = await server.post('/api/notification/complete-password-reset/', {
      email: owner.user.email,
      otp: code,
      new_password: 'a brand new password',
    });
    expect(right.status).toBe(400);
    expect(right.body).toEqual({ detail: MESSAGES.otp.tooManyAttempts });
    expect(
      (await server.post('/api/auth/login', { username: owner.user.email, password: PASSWORD })).status,
    ).toBe(200);
  });

  it('refuses an expired code and one replaced by a newer code', async () => {
    const owner = await signupOwner(server);
    const first = await resetCode(owner.user.email);
    smtp.mails.length = 0;
    const second = await resetCode(owner.user.email);
    if (first !== second) {
      expect(
        (
          await server.post('/api/notification/verify-password-reset/', {
            email: owner.user.email,
            otp: first,
          })
        ).status,
      ).toBe(400);
    }
    const { sql } = await import('drizzle-orm');
    await server.database.db.execute(
      sql`UPDATE otp_codes SET expires_at = now() - interval '1 second' WHERE email = ${owner.user.email}`,
    );
    const late = await server.post('/api/notification/verify-password-reset/', {
      email: owner.user.email,
      otp: second,
    });
    expect(late.status).toBe(400);
    expect(late.body).toEqual({ detail: MESSAGES.otp.invalid });
  });

  it('validates input with clear details', async () => {
    const bad = await server.post('/api/notification/complete-password-reset/', {
      email: 'a@example.com',
      otp: '12ab56',
      new_password: 'long enough pw',
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ detail: 'The code has six digits' });
    const short = await server.post('/api/notification/complete-password-reset/', {
      email: 'a@example.com',
      otp: '123456',
      new_password: 'short',
    });
    expect(short.body).toEqual({ detail: 'Password must be at least 8 characters' });
  });
});

describe('email verification', () => {
  it('marks the address verified with the mailed code', async () => {
    const owner = await signupOwner(server);
    expect(owner.user.email_verified).toBe(false);
    const sent = await server.post('/api/notification/generate-otp', { email: owner.user.email });
    expect(sent.status).toBe(200);
    const code = codeIn((await smtp.waitFor(owner.user.email, /Your Parley code/)).text);
    const wrong = await server.post('/api/notification/verify-otp', {
      email: owner.user.email,
      otp: wrongCode(code),
    });
    expect(wrong.status).toBe(400);
    const ok = await server.post('/api/notification/verify-otp', { email: owner.user.email, otp: code });
    expect(ok.status).toBe(200);
    const login = await server.post<AuthResponse>('/api/auth/login', {
      username: owner.user.email,
      password: PASSWORD,
    });
    expect(login.body.user.email_verified).toBe(true);
  });
});

it('stores contact messages', async () => {
  const reply = await server.post('/api/contact', {
    name: 'Visitor',
    email: 'v@example.com',
    message: 'Hello there',
  });
  expect(reply.status).toBe(201);
  const missing = await server.post('/api/contact', { name: 'Visitor', email: 'v@example.com', message: '' });
  expect(missing.status).toBe(400);
  expect(missing.body).toEqual({ detail: 'Message is required' });
  const { contactMessages } = await import('../../core/db/schema.js');
  const rows = await server.database.db.select().from(contactMessages);
  expect(rows.map((r) => r.message)).toEqual(['Hello there']);
});
