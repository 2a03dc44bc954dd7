import { isDeepStrictEqual } from 'node:util';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { createSerializerCompiler } from 'fastify-type-provider-zod';

const zodSerializer = createSerializerCompiler({});

/** A reply's JSON as a statement built it in the database (`jsonReply`): sent as it is. */
class JsonText {
  constructor(readonly text: string) {}
}

/**
 * A list the database wrote as JSON text, typed as the route's reply so that a handler may return
 * it. The serializer sends the text unparsed: parsing it back and checking every row with zod cost
 * several times the CPU of the statement itself (bench/api). The statement must build exactly what
 * the schema lets through; outside production the serializer checks that it does.
 */
export const jsonReply = <T>(text: string): T => new JsonText(text) as unknown as T;

/**
 * The zod response serializer (unknown fields stripped, a reply that breaks its schema refused),
 * remembering the JSON of frozen values per route. A frozen value cannot change, so its JSON cannot
 * either: the signed-in user of the session cache (deep-frozen in `toContext`) is parsed by zod once
 * per route and cache entry instead of on every request, which was about a third of the CPU of
 * `GET /api/auth/user` (bench/api). Other values are serialized as before. `checkJsonText`: a
 * `jsonReply` must come out of zod unchanged, or the reply fails (tests and development).
 */
export const serializerCompiler =
  (options: { checkJsonText: boolean }): FastifySerializerCompiler<unknown> =>
  (route) => {
    const serialize = zodSerializer(route as Parameters<typeof zodSerializer>[0]);
    const remembered = new WeakMap<object, string>();
    return (data: unknown) => {
      if (data instanceof JsonText)
        return options.checkJsonText ? checkedText(serialize, data.text) : data.text;
      if (typeof data !== 'object' || data === null || !Object.isFrozen(data)) return serialize(data);
      let json = remembered.get(data);
      if (json === undefined) {
        json = serialize(data);
        remembered.set(data, json);
      }
      return json;
    };
  };

/** The text, once zod has let all of it through: nothing refused, stripped or changed. */
function checkedText(serialize: (data: unknown) => string, text: string): string {
  const written = JSON.parse(text) as unknown;
  if (!isDeepStrictEqual(JSON.parse(serialize(written)), written))
    throw new Error(`a reply built by the database differs from its schema: ${text.slice(0, 500)}`);
  return text;
}

/** Freezes a value and everything it holds, so that `serializerCompiler` may remember its JSON. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
