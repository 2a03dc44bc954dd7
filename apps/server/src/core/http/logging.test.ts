import { Writable } from 'node:stream';
import pino from 'pino';
import { expect, it } from 'vitest';
import { loggerOptions, maskUrl } from './logging.js';

it('masks secrets in URLs', () => {
  expect(maskUrl('/api/auth/invited-user/abcDEF123?x=1')).toBe('/api/auth/invited-user/***?x=1');
  expect(maskUrl('/reset-password?email=a%40b.c&otp=123456')).toBe('/reset-password?email=a%40b.c&otp=***');
});

it('keeps credentials out of log lines', () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const options = loggerOptions('info').logger as pino.LoggerOptions;
  const log = pino(options, sink);
  log.info({ req: { method: 'GET', url: '/api/auth/invited-user/secret-token', headers: {} } }, 'incoming');
  log.info(
    { req: { headers: { authorization: 'Bearer secret-jwt', cookie: 'parley_refresh=secret' } } },
    'raw',
  );
  log.info({ body: { password: 'hunter22', token: 'secret-invite' } }, 'body');
  const all = lines.join('\n');
  expect(all).not.toMatch(/secret-token|secret-jwt|parley_refresh=secret|hunter22|secret-invite/);
});

it("keeps the prompt of a failed model call, a visitor's words, out of log lines", () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const log = pino(loggerOptions('info').logger as pino.LoggerOptions, sink);
  // As the AI SDK's APICallError, and its RetryError around it, carry the request.
  const call = Object.assign(new Error('Too many requests'), {
    statusCode: 429,
    requestBodyValues: { messages: [{ role: 'user', content: 'my card ends 4242' }] },
  });
  log.warn({ err: call }, 'model failed');
  log.warn(
    { err: Object.assign(new Error('Failed after 3 attempts'), { lastError: call, errors: [call] }) },
    'retries',
  );
  const all = lines.join('\n');
  expect(all).toContain('Too many requests');
  expect(all).toContain('429');
  expect(all).not.toContain('4242');
});
