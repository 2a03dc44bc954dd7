import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { createSerializerCompiler } from 'fastify-type-provider-zod';

const zodSerializer = createSerializerCompiler({});

/**
 * The zod response serializer (unknown fields stripped, a reply that breaks its schema refused),
 * remembering the JSON of frozen values per route. A frozen value cannot change, so its JSON cannot
 * either: the signed-in user of the session cache (deep-frozen in `toContext`) is parsed by zod once
 * per route and cache entry instead of on every request, which was about a third of the CPU of
 * `GET /api/auth/user` (bench/api). Other values are serialized as before.
 */
export const serializerCompiler: FastifySerializerCompiler<unknown> = (route) => {
  const serialize = zodSerializer(route as Parameters<typeof zodSerializer>[0]);
  const remembered = new WeakMap<object, string>();
  return (data: unknown) => {
    if (typeof data !== 'object' || data === null || !Object.isFrozen(data)) return serialize(data);
    let json = remembered.get(data);
    if (json === undefined) {
      json = serialize(data);
      remembered.set(data, json);
    }
    return json;
  };
};

/** Freezes a value and everything it holds, so that `serializerCompiler` may remember its JSON. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
