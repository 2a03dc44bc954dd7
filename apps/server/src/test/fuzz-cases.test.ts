import { MAX_ID } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { casesFor, NUL, type Operation, operationsOf } from './fuzz-cases.js';

const caller = { tenantId: 7, userId: 8, rowId: 1 };
const idParameter = {
  in: 'path' as const,
  name: 'id',
  required: true,
  schema: { type: 'string', pattern: '^[1-9]\\d*$' },
};

describe('the fuzzer cases', () => {
  it('reads every operation of the document, with its JSON body schema', () => {
    const operations = operationsOf({
      '/api/things/{id}': {
        get: { parameters: [idParameter] },
        put: {
          parameters: [idParameter],
          requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
        },
      },
    });
    expect(operations.map((o) => [o.method, o.template, o.body])).toEqual([
      ['GET', '/api/things/{id}', null],
      ['PUT', '/api/things/{id}', { type: 'object' }],
    ]);
  });

  it('puts a bad value in each field, nested ones included, the rest of the body left valid', () => {
    const operation: Operation = {
      method: 'POST',
      template: '/api/things',
      parameters: [],
      body: {
        type: 'object',
        required: ['name', 'tags'],
        properties: {
          name: { type: 'string', minLength: 1 },
          tags: {
            type: 'array',
            items: { type: 'object', required: ['label'], properties: { label: { type: 'string' } } },
          },
        },
      },
    };
    const bodies = casesFor(operation, caller).filter((c) => c.contentType === 'application/json');
    const byLabel = new Map(bodies.map((c) => [c.label, c.body]));
    expect(byLabel.get(`name = "fu\\u0000zz"`)).toBe(JSON.stringify({ name: `fu${NUL}zz`, tags: [] }));
    expect(byLabel.get(`tags[0].label = "fu\\u0000zz"`)).toBe(
      JSON.stringify({ name: 'fuzz', tags: [{ label: `fu${NUL}zz` }] }),
    );
    expect(byLabel.get('malformed JSON')).toBe('{"a":');
  });

  it("names the caller's own row in valid paths, but no row at all in deletions", () => {
    const operation = (method: string): Operation => ({
      method,
      template: '/api/things/{id}',
      parameters: [idParameter],
      body: null,
    });
    const malformedJson = (method: string) =>
      casesFor(operation(method), caller).find((c) => c.label === 'malformed JSON')?.path;
    expect(malformedJson('POST')).toBe('/api/things/1?');
    expect(malformedJson('DELETE')).toBe(`/api/things/${MAX_ID}?`);
    const paths = casesFor(operation('GET'), caller).map((c) => c.path);
    expect(paths).toContain(`/api/things/${MAX_ID + 1}?`);
    expect(paths).toContain('/api/things/a%00b?');
  });
});
