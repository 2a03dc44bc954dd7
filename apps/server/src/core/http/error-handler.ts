import { MESSAGES } from '@parley/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from '../errors.js';

type ValidationIssue = { instancePath?: string; message?: string };

/**
 * Zod's own wording ("Invalid input: expected string…") and our lower-case fragments ("must be a
 * positive whole number") need the field named; our full sentences ("Role is required") do not.
 */
const GENERIC_MESSAGE = /^(Invalid|Too (small|big)|Unrecognized|Expected|[a-z])/;

function validationDetail(issues: ValidationIssue[], part: string): string {
  const first = issues[0];
  if (!first?.message) return MESSAGES.generic.badRequest;
  const field = (first.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
  if (!GENERIC_MESSAGE.test(first.message)) return first.message;
  return field ? `${field}: ${first.message}` : `${part}: ${first.message}`;
}

/** Fastify's own errors that are the client's fault, with a clear text each. */
const FASTIFY_ERRORS: Record<string, { status: number; detail: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, detail: 'The request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, detail: 'Unsupported content type' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, detail: 'The request body is empty' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, detail: 'The request body is not valid JSON' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, detail: 'Invalid Content-Length' },
  // @fastify/multipart's, raised while a route reads the parts.
  FST_PROTO_VIOLATION: { status: 400, detail: 'A multipart field may not be named __proto__ or constructor' },
  FST_INVALID_JSON_FIELD_ERROR: { status: 400, detail: 'A multipart field sent as JSON is not valid JSON' },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { status: 400, detail: 'The request is not multipart/form-data' },
};

/** Any other error a plugin marks as the client's (a 4xx status): that status, with its own text. */
const clientError = (error: FastifyError): { status: number; detail: string } | undefined => {
  const status = error.statusCode;
  if (!status || status < 400 || status >= 500 || !error.message) return undefined;
  return { status, detail: error.message.charAt(0).toUpperCase() + error.message.slice(1) };
};

/**
 * The one mapping from errors to HTTP: AppError carries its status and user-facing detail;
 * validation errors become 400 with the first message; everything else is a 500 whose internals
 * are logged, never sent.
 */
export function registerErrorHandling(app: FastifyInstance, options: { webFallback?: boolean } = {}): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.status).headers(error.headers).send({ detail: error.detail });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const detail = validationDetail(error.validation, error.validationContext ?? 'request');
      return reply.status(400).send({ detail });
    }
    if (error.validation) {
      return reply
        .status(400)
        .send({ detail: validationDetail(error.validation, error.validationContext ?? 'request') });
    }
    const known = error.code ? FASTIFY_ERRORS[error.code] : undefined;
    if (known) return reply.status(known.status).send({ detail: known.detail });
    if (error.statusCode === 429) {
      return reply.status(429).send({ detail: MESSAGES.generic.tooManyRequests(60) });
    }
    const client = clientError(error);
    if (client) return reply.status(client.status).send({ detail: client.detail });
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, url: request.url }, 'response did not match its schema');
    } else {
      request.log.error({ err: error }, 'unhandled error');
    }
    return reply.status(500).send({ detail: MESSAGES.generic.internal });
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    // Client-side routes of the web app (no file extension, not the API) get its index.html.
    if (
      options.webFallback &&
      request.method === 'GET' &&
      !path.startsWith('/api/') &&
      !/\.[a-z0-9]+$/i.test(path)
    ) {
      return reply.type('text/html').sendFile('index.html');
    }
    return reply.status(404).send({ detail: `Route ${request.method} ${path} not found` });
  });
}
