import { UI_TIMING } from '@parley/contracts';
import type { Dispatch } from '@reduxjs/toolkit';
import { readAccessToken } from '../../shared/lib/session-storage';
import { refreshSession } from '../auth/refresh';

export type DownloadOutcome =
  | { ok: true; blob: Blob; fileName: string }
  | { ok: false; reason: 'timeout' | 'network' }
  | { ok: false; reason: 'http'; status: number; detail: string | null };

type Fetch = (input: string, init: RequestInit) => Promise<Response>;

export type DownloadOptions = {
  token: string | null;
  fallbackName: string;
  timeoutMs?: number;
  fetchImpl?: Fetch;
};

/** The file name a Content-Disposition header gives (filename* first), without any path. */
export function fileNameFrom(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition)?.[1];
  let name: string | undefined;
  if (extended) {
    try {
      name = decodeURIComponent(extended.trim());
    } catch {
      name = undefined;
    }
  }
  name ??=
    /filename\s*=\s*"([^"]*)"/.exec(disposition)?.[1] ?? /filename\s*=\s*([^;\s]+)/.exec(disposition)?.[1];
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base ? base : fallback;
}

async function detailOf(response: Response): Promise<string | null> {
  try {
    const body = (await response.json()) as { detail?: unknown };
    return typeof body.detail === 'string' && body.detail ? body.detail : null;
  } catch {
    return null;
  }
}

/**
 * Fetches a file with the bearer token as a blob, giving up after the spec's blob download
 * time-out (10 s, console.md section 9), body included.
 */
export async function fetchBlob(url: string, options: DownloadOptions): Promise<DownloadOutcome> {
  const { token, fallbackName, timeoutMs = UI_TIMING.blobDownloadTimeoutMs, fetchImpl = fetch } = options;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const headers: Record<string, string> = {};
    if (token) headers.Authorization = `Bearer ${token}`;
    const response = await fetchImpl(url, { headers, credentials: 'same-origin', signal: controller.signal });
    if (!response.ok)
      return { ok: false, reason: 'http', status: response.status, detail: await detailOf(response) };
    const blob = await response.blob();
    return {
      ok: true,
      blob,
      fileName: fileNameFrom(response.headers.get('content-disposition'), fallbackName),
    };
  } catch {
    return { ok: false, reason: controller.signal.aborted ? 'timeout' : 'network' };
  } finally {
    clearTimeout(timer);
  }
}

/** fetchBlob with the session's token; an expired one is renewed once through the refresh cookie. */
export async function downloadWithSession(
  url: string,
  fallbackName: string,
  dispatch: Dispatch,
): Promise<DownloadOutcome> {
  const outcome = await fetchBlob(url, { token: readAccessToken(), fallbackName });
  if (outcome.ok || outcome.reason !== 'http' || outcome.status !== 401) return outcome;
  if ((await refreshSession(dispatch)) !== 'renewed') return outcome;
  return fetchBlob(url, { token: readAccessToken(), fallbackName });
}

/** Hands a blob to the browser as a download. */
export function saveBlob(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before the URL goes.
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}
