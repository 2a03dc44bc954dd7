import { z } from 'zod';

/** Every error the API returns has this body; the browser shows `detail`. */
export const ErrorResponse = z.object({ detail: z.string() });
export type ErrorResponse = z.infer<typeof ErrorResponse>;

/**
 * The largest id: ids are PostgreSQL `serial` columns (32-bit). A larger one cannot name a row, and
 * the database would refuse the comparison with an error, so the contracts refuse it first (400).
 */
export const MAX_ID = 2_147_483_647;

/**
 * A positive integer id written as text (a path, a query, a multipart field): digits only (no "0x1",
 * "1e0", " 1"), at most MAX_ID. An empty or malformed id is a 400, never "match everything". Without
 * `message`, the messages are fragments the error handler prefixes with the field.
 */
export const IdText = (message?: string) =>
  z
    .string({ error: message ?? 'must be a positive whole number' })
    .regex(/^[1-9]\d*$/, message ?? 'must be a positive whole number')
    .transform(Number)
    .refine((id) => id <= MAX_ID, message ?? `must be at most ${MAX_ID}`);

/**
 * PostgreSQL's text cannot hold U+0000 (NUL), and its jsonb refuses half a surrogate pair (which
 * JSON.stringify writes as a `\ud800` escape). Messages are fragments the error handler prefixes.
 */
export const NUL_REFUSED = 'must not contain NUL characters';
export const BROKEN_UNICODE_REFUSED = 'must be valid Unicode text';
export const hasNoNul = (value: string): boolean => !value.includes('\u0000');
/** A lone surrogate is a code point of category Cs; a proper pair reads as one astral code point. */
const isWellFormed = (value: string): boolean => !/\p{Cs}/u.test(value);

/**
 * `z.string()` for whatever a client sends (bodies, queries, multipart fields, socket frames): the
 * same schema, refusing NUL characters and broken Unicode, so they are a 400, never a database error.
 */
export const inputText = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine(hasNoNul, NUL_REFUSED).refine(isWellFormed, BROKEN_UNICODE_REFUSED);

/** The id in a path. */
export const Id = IdText();

/** A positive integer id in a JSON body: a number, never a string, boolean or list; at most MAX_ID. */
export const BodyId = (label: string) =>
  z
    .number({
      error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be a number`),
    })
    .int(`${label} must be a whole number`)
    .positive(`${label} must be a positive number`)
    .max(MAX_ID, `${label} must be at most ${MAX_ID}`);

/** An id in a socket frame, where 0 means "none yet" (the opening frame, a new conversation). */
export const FrameId = z.number().int().min(0).max(MAX_ID);

export const IdParams = z.object({ id: Id });
export const TenantIdParams = z.object({ tenantId: Id });

export const MessageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponse>;

/** Progress of a background job, as every long task reports it. */
export const JobStatus = z.enum(['queued', 'active', 'completed', 'failed']);
export const JobProgress = z.object({
  id: z.string(),
  name: z.string(),
  status: JobStatus,
  current: z.number().int(),
  total: z.number().int(),
  percentage: z.number(),
  error: z.string().nullable(),
  attempts: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type JobProgress = z.infer<typeof JobProgress>;

export const Health = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ kind: z.enum(['pglite', 'postgres']), ok: z.boolean(), latency_ms: z.number() }),
  version: z.string(),
});
export type Health = z.infer<typeof Health>;
