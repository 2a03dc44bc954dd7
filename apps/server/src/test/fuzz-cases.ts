import { MAX_ID } from '@parley/contracts';

/**
 * The cases of the API fuzzer (core/http/fuzz.api.test.ts), built from the OpenAPI document alone:
 * for each operation, bad values in each path and query parameter, bodies that are wrong as a
 * whole, and a body for each malformed value of each field of a valid-looking body built from the
 * operation's schema. Deterministic, and bounded by the document's size.
 */

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  minItems?: number;
  default?: unknown;
};
type Parameter = { in: 'path' | 'query' | 'header'; name: string; required?: boolean; schema: JsonSchema };
export type Operation = {
  method: string;
  template: string;
  parameters: Parameter[];
  body: JsonSchema | null;
};
/** One request: what it tries (for the failure message), and how it is sent. */
export type Case = { label: string; path: string; contentType?: string; body?: string; token?: string };

/** The ids a caller's valid requests name: its tenant, itself, and the one row of each kind it owns. */
export type Caller = { tenantId: number; userId: number; rowId: number };

const HUGE = 'x'.repeat(100_000);
const LONG_SEGMENT = '9'.repeat(3000);
export const NUL = '\u0000';
/** Values for an id or any other path or query parameter. */
const BAD_PARAMETERS = [
  '0',
  '-1',
  String(MAX_ID + 1),
  '99999999999',
  'abc',
  '1.5',
  '1e3',
  '%00',
  'a%00b',
  '%ZZ',
  '%F0%9F%92%A9',
  LONG_SEGMENT,
];
export type OpenApiOperation = {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};

/** Every operation of an OpenAPI document's paths, with its parameters and its JSON body's schema. */
export function operationsOf(paths: Record<string, Record<string, OpenApiOperation>>): Operation[] {
  return Object.entries(paths).flatMap(([template, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      template,
      parameters: operation.parameters ?? [],
      body: operation.requestBody?.content?.['application/json']?.schema ?? null,
    })),
  );
}

/**
 * Every case of an operation: each path and query parameter set to each bad value, then (with
 * valid parameters) each malformed body. Signed out, the first case is a probe of the route's rule.
 */
export function casesFor(operation: Operation, caller: Caller): Case[] {
  const validBody = operation.body ? JSON.stringify(sample(operation.body, '')) : undefined;
  const json = validBody === undefined ? {} : { contentType: 'application/json', body: validBody };
  const cases: Case[] = [];
  for (const parameter of operation.parameters) {
    if (parameter.in === 'header') continue;
    for (const bad of [...BAD_PARAMETERS, '']) {
      const encoded = parameter.in === 'path' ? bad : encodeURIComponent(bad).replaceAll('%25', '%');
      cases.push({
        label: `${parameter.in} ${parameter.name}=${bad.slice(0, 20)}`,
        path: urlOf(operation, caller, { [parameter.name]: encoded }),
        ...json,
      });
    }
    if (parameter.in === 'query') {
      const valid = sampleParameter(operation, parameter, caller);
      cases.push({
        label: `query ${parameter.name} twice`,
        path: `${urlOf(operation, caller, {})}&${parameter.name}=${valid}&${parameter.name}=${valid}`,
        ...json,
      });
    }
  }
  const path = urlOf(operation, caller, {});
  if (operation.method !== 'GET') cases.push(...wholeBodyCases(operation, path));
  if (operation.body) {
    for (const variant of bodyVariants(operation.body, sample(operation.body, ''), '')) {
      cases.push({ label: variant.label, path, contentType: 'application/json', body: variant.json });
    }
  }
  if (cases.length === 0) cases.push({ label: 'plain request', path });
  return cases;
}

/** Bodies that are wrong as a whole; JSON values only where the route declares a JSON body. */
function wholeBodyCases(operation: Operation, path: string): Case[] {
  const cases: Case[] = [
    { label: 'malformed JSON', path, contentType: 'application/json', body: '{"a":' },
    { label: 'JSON with an empty body', path, contentType: 'application/json', body: '' },
  ];
  if (operation.body) {
    cases.push({ label: 'text/plain', path, contentType: 'text/plain', body: 'x' });
    for (const body of [
      'null',
      '[]',
      '"x"',
      '0',
      '{}',
      '{"__proto__":{"x":1}}',
      `${'['.repeat(5000)}${']'.repeat(5000)}`,
    ]) {
      cases.push({ label: `JSON ${body.slice(0, 20)}`, path, contentType: 'application/json', body });
    }
  }
  if (operation.method !== 'DELETE') {
    cases.push(
      { label: 'multipart without boundary', path, contentType: 'multipart/form-data', body: 'x' },
      {
        label: 'multipart cut short',
        path,
        contentType: 'multipart/form-data; boundary=fuzz',
        body: '--fuzz\r\nContent-Disposition: form-data; name="a"\r\n\r\nb',
      },
      multipartCase(path, 'multipart with a __proto__ field', 'name="__proto__"', 'x'),
      multipartCase(
        path,
        'multipart with a JSON field that is not JSON',
        'name="a"\r\nContent-Type: application/json',
        '{',
      ),
      multipartCase(path, 'multipart with a malformed part header', 'garbage', 'x'),
      {
        label: 'multipart with a NUL in a field name and a file name',
        path,
        contentType: 'multipart/form-data; boundary=fuzz',
        body: `--fuzz\r\nContent-Disposition: form-data; name="a${NUL}b"; filename="a${NUL}b.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--fuzz--\r\n`,
      },
    );
  }
  return cases;
}

/** A multipart body of one part with this Content-Disposition (and more headers) and value. */
function multipartCase(path: string, label: string, disposition: string, value: string): Case {
  const header = disposition.startsWith('name=')
    ? `Content-Disposition: form-data; ${disposition}`
    : disposition;
  const body = `--fuzz\r\n${header}\r\n\r\n${value}\r\n--fuzz--\r\n`;
  return { label, path, contentType: 'multipart/form-data; boundary=fuzz', body };
}

/** The operation's URL with valid parameters, but for those given. */
function urlOf(operation: Operation, caller: Caller, overrides: Record<string, string>): string {
  let path = operation.template;
  const query: string[] = [];
  for (const parameter of operation.parameters) {
    const value = overrides[parameter.name] ?? sampleParameter(operation, parameter, caller);
    if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, value);
    else if (parameter.in === 'query' && (parameter.required || parameter.name in overrides)) {
      query.push(`${parameter.name}=${value}`);
    }
  }
  return `${path}?${query.join('&')}`;
}

/**
 * A valid-looking parameter. The owner's own tenant and user ids where the route names them (so the
 * request gets past the tenant check); any other id names the caller's own row, but for deletions,
 * whose id is the largest one, which names no row, so that no fuzzed request removes what the others use.
 */
function sampleParameter(operation: Operation, parameter: Parameter, caller: Caller): string {
  const before = operation.template.split(`{${parameter.name}}`)[0] ?? '';
  if (/tenant/i.test(parameter.name) || before.endsWith('/tenant/')) return String(caller.tenantId);
  if (parameter.name === 'userId' || /\/user\/(profile\/|password\/)?$/.test(before))
    return String(caller.userId);
  const value = String(sample(parameter.schema, parameter.name));
  if (value !== String(MAX_ID)) return encodeURIComponent(value);
  return operation.method === 'DELETE' ? String(MAX_ID) : String(caller.rowId);
}

/** Strings tried, in order, against a pattern the schema demands. */
const PATTERN_CANDIDATES = [
  String(MAX_ID),
  'fuzz_1',
  'fuzz',
  'fuzzfuzzfuzzfuzz.png',
  '123456',
  '#1a2b3c',
  'https://example.com',
  'true',
];

/** A valid-looking value of a schema: required properties only, the smallest allowed numbers. */
function sample(schema: JsonSchema, name: string): unknown {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return sample(alternatives.find((s) => s.type !== 'null') ?? alternatives[0]!, name);
  if (schema.allOf?.[0]) return sample(schema.allOf[0], name);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = sample(schema.properties?.[key] ?? {}, key);
      return out;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sample(schema.items ?? {}, name));
    case 'integer':
    case 'number': {
      const minimum = schema.minimum ?? 0;
      return schema.exclusiveMinimum === true ? minimum + 1 : minimum;
    }
    case 'boolean':
      return true;
    default:
      return sampleString(schema, name);
  }
}

function sampleString(schema: JsonSchema, name: string): string {
  if (schema.format === 'uuid' || /uuid|task/i.test(name)) return '00000000-0000-4000-8000-000000000000';
  if (schema.format === 'email' || /email/.test(name)) return 'fuzz@example.com';
  if (/url/.test(name)) return 'https://example.com/';
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern);
    const match = PATTERN_CANDIDATES.find((candidate) => pattern.test(candidate));
    if (match) return match;
  }
  return 'fuzz'.padEnd(schema.minLength ?? 0, 'z');
}

/**
 * A body for each malformed value of each field, nested fields included (a list gets one item, a
 * map one key), the rest of the body left valid so the bad field is the only fault.
 */
function bodyVariants(schema: JsonSchema, valid: unknown, path: string): { label: string; json: string }[] {
  const out: { label: string; json: string }[] = [];
  const walk = (node: JsonSchema, at: string, rebuild: (value: unknown) => unknown, depth: number) => {
    for (const bad of badValuesFor(node)) {
      out.push({ label: `${at || 'body'} = ${shown(bad)}`, json: JSON.stringify(rebuild(bad)) });
    }
    if (depth > 3) return;
    const type = Array.isArray(node.type) ? node.type.find((t) => t !== 'null') : node.type;
    const current = sample(node, at);
    if (type === 'object' && node.properties) {
      for (const [key, child] of Object.entries(node.properties)) {
        walk(
          child,
          at ? `${at}.${key}` : key,
          (v) => rebuild({ ...(current as object), [key]: v }),
          depth + 1,
        );
      }
    } else if (type === 'object' && typeof node.additionalProperties === 'object') {
      const child = node.additionalProperties;
      walk(child, `${at}.key`, (v) => rebuild({ key: v }), depth + 1);
      out.push({
        label: `${at} key with NUL`,
        json: JSON.stringify(rebuild({ [`a${NUL}b`]: sample(child, '') })),
      });
    } else if (type === 'array' && node.items) {
      walk(node.items, `${at}[0]`, (v) => rebuild([v]), depth + 1);
    }
  };
  walk(schema, path, (v) => v, 0);
  return out.filter((variant) => variant.json !== JSON.stringify(valid));
}

/** The malformed values tried for one field, by its type. */
function badValuesFor(node: JsonSchema): unknown[] {
  const type = Array.isArray(node.type) ? node.type.find((t) => t !== 'null') : node.type;
  if (node.enum) return ['fuzz-not-listed', null];
  switch (type) {
    case 'string':
      return [`fu${NUL}zz`, HUGE, '\ud800', 12345, null];
    case 'integer':
    case 'number':
      return [-1, 0, MAX_ID + 1, 99_999_999_999, 1.5, 1e308, '1', null];
    case 'boolean':
      return ['true', null];
    case 'array':
      return ['x', Array.from({ length: 10_001 }, () => 1), null];
    case 'object':
      return ['x', [], null];
    default:
      return [];
  }
}

const shown = (value: unknown): string => {
  if (typeof value === 'string') return value.length > 20 ? `string(${value.length})` : JSON.stringify(value);
  if (Array.isArray(value)) return `list(${value.length})`;
  return String(JSON.stringify(value));
};
