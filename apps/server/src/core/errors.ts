import { MESSAGES } from '@parley/contracts';

export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payment_required'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'too_many_requests'
  | 'unavailable'
  | 'internal';

const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payment_required: 402,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  unavailable: 503,
  internal: 500,
};

/** The one error type of the API. `detail` is shown to the user, so it never holds internals. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.status = STATUS[code];
  }
}

export const badRequest = (detail: string) => new AppError('bad_request', detail);
export const unauthorized = (detail: string = MESSAGES.auth.notAuthenticated) =>
  new AppError('unauthorized', detail);
export const forbidden = (detail: string = MESSAGES.auth.forbidden) => new AppError('forbidden', detail);
export const notFound = (what = 'Not found') => new AppError('not_found', what);
export const conflict = (detail: string) => new AppError('conflict', detail);
/** A plan's limit or feature stands in the way: upgrading (or an add-on) is the way on. */
export const paymentRequired = (detail: string) => new AppError('payment_required', detail);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new AppError('too_many_requests', MESSAGES.generic.tooManyRequests(retryAfterSeconds), {
    'retry-after': String(retryAfterSeconds),
  });
