import type { SerializedError } from '@reduxjs/toolkit';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';

/** The server's `detail` text when the response carries one (spec section 8: preferred wherever it exists). */
export function serverDetail(error: unknown): string | null {
  if (!error || typeof error !== 'object' || !('data' in error)) return null;
  const data = (error as { data: unknown }).data;
  if (data && typeof data === 'object' && 'detail' in data) {
    const detail = (data as { detail: unknown }).detail;
    if (typeof detail === 'string' && detail) return detail;
  }
  return null;
}

/** The text to show for a failed request: the server's detail, else the given fallback or error text. */
export function errorText(
  error: FetchBaseQueryError | SerializedError | undefined,
  fallback: string,
): string {
  if (!error) return fallback;
  return serverDetail(error) ?? fallback;
}

export function httpStatus(error: unknown): number | null {
  if (error && typeof error === 'object' && 'status' in error) {
    const status = (error as { status: unknown }).status;
    if (typeof status === 'number') return status;
    if ('originalStatus' in error && typeof error.originalStatus === 'number') return error.originalStatus;
  }
  return null;
}

/** What went wrong when the server gave no detail: the request and its outcome. */
export function requestText(method: string, url: string, error: FetchBaseQueryError): string {
  if (error.status === 'FETCH_ERROR') return `${method} ${url}: ${error.error}`;
  if (error.status === 'TIMEOUT_ERROR') return `${method} ${url}: the request timed out`;
  const status =
    typeof error.status === 'number'
      ? error.status
      : error.status === 'PARSING_ERROR'
        ? error.originalStatus
        : error.status;
  return `${method} ${url} failed (${status})`;
}
