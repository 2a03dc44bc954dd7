import { z } from 'zod';

/** Every error the API returns has this body; the browser shows `detail`. */
export const ErrorResponse = z.object({ detail: z.string() });
export type ErrorResponse = z.infer<typeof ErrorResponse>;

/**
 * A positive integer id in a path: digits only (no "0x1", "1e0", " 1"). An empty or malformed id is
 * a 400, never "match everything". Messages are fragments; the error handler names the field.
 */
export const Id = z
  .string()
  .regex(/^[1-9]\d{0,14}$/, 'must be a positive whole number')
  .transform(Number);

/** A positive integer id in a JSON body: a number, never a string, boolean or list. */
export const BodyId = (label: string) =>
  z
    .number({
      error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be a number`),
    })
    .int(`${label} must be a whole number`)
    .positive(`${label} must be a positive number`);

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
