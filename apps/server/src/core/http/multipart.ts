import path from 'node:path';
import { MIMEType } from 'node:util';
import { hasNoNul } from '@parley/contracts';
import type { FastifyRequest } from 'fastify';
import { badRequest } from '../errors.js';

/**
 * Refuses, as a 400 with `notMultipart` as its detail, a request that is not multipart/form-data or
 * whose Content-Type names no boundary. Without a boundary the parser throws a plain error only when
 * the parts are read, which would be a 500.
 */
export function requireMultipart(request: FastifyRequest, notMultipart: string): void {
  if (!request.isMultipart() || !boundaryOf(request.headers['content-type'])) throw badRequest(notMultipart);
}

function boundaryOf(contentType: string | undefined): string | null {
  try {
    return new MIMEType(contentType ?? '').params.get('boundary');
  } catch {
    return null;
  }
}

/**
 * The name of an uploaded file as its owner knows it: no directory part, at most `max` characters,
 * `fallback` when empty. A NUL character, which PostgreSQL's text cannot store, is refused (400).
 */
export function uploadedFileName(raw: string, fallback: string, max = 255): string {
  if (!hasNoNul(raw)) throw badRequest('A file name must not contain NUL characters');
  return path.basename(raw.replaceAll('\\', '/')).trim().slice(0, max) || fallback;
}
