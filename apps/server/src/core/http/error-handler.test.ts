import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { registerErrorHandling } from './error-handler.js';

const app = Fastify({ logger: false });
beforeAll(async () => {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  app.get('/boom', async () => {
    throw new Error('connection to db-internal-host:5432 refused, password=hunter2');
  });
  app.get('/conflict', async () => {
    throw new AppError('conflict', 'Already there');
  });
  app.post(
    '/typed',
    { schema: { body: z.object({ name: z.string().min(1, 'Name is required'), age: z.number() }) } },
    async () => ({}),
  );
  app.get('/client-fault', async () => {
    throw Object.assign(new Error('the range is not satisfiable'), { statusCode: 416 });
  });
  app.get(
    '/leaky',
    { schema: { response: { 200: z.object({ id: z.number() }) } } },
    async () => ({ id: 'oops' }) as never,
  );
  await app.ready();
});
afterAll(() => app.close());

it('answers unexpected errors with 500 and a generic detail, never the internals', async () => {
  const reply = await app.inject({ method: 'GET', url: '/boom' });
  expect(reply.statusCode).toBe(500);
  expect(reply.json()).toEqual({ detail: 'Something went wrong on our side. Please try again.' });
  expect(reply.body).not.toMatch(/db-internal-host|hunter2/);
});

it('maps AppError codes to their status with the detail', async () => {
  const reply = await app.inject({ method: 'GET', url: '/conflict' });
  expect(reply.statusCode).toBe(409);
  expect(reply.json()).toEqual({ detail: 'Already there' });
});

it('turns validation failures into 400 with the schema text, or the field named for generic ones', async () => {
  const custom = await app.inject({ method: 'POST', url: '/typed', payload: { name: '', age: 3 } });
  expect(custom.statusCode).toBe(400);
  expect(custom.json()).toEqual({ detail: 'Name is required' });
  const generic = await app.inject({ method: 'POST', url: '/typed', payload: { name: 'x', age: 'three' } });
  expect(generic.statusCode).toBe(400);
  expect(generic.json().detail).toMatch(/^age: Invalid input/);
});

it("answers a plugin's client errors with their 4xx status and text, never a 500", async () => {
  const reply = await app.inject({ method: 'GET', url: '/client-fault' });
  expect(reply.statusCode).toBe(416);
  expect(reply.json()).toEqual({ detail: 'The range is not satisfiable' });
});

it('refuses to send a response that does not match its schema', async () => {
  const reply = await app.inject({ method: 'GET', url: '/leaky' });
  expect(reply.statusCode).toBe(500);
  expect(reply.body).not.toContain('oops');
});
