import type { FileGroupUploadResponse } from '@parley/contracts';
import type { Dispatch } from '@reduxjs/toolkit';
import { readAccessToken } from '../../shared/lib/session-storage';
import { refreshSession } from '../auth/refresh';

/** Bytes sent per file (in the order appended) and in total. */
export type UploadProgress = { perFile: number[]; total: number };

export type UploadOutcome =
  | { ok: true; body: FileGroupUploadResponse }
  | { ok: false; status: number; detail: string | null };

/**
 * Sends a multipart form with XMLHttpRequest so upload progress can be shown. The files travel in
 * order, so each file's share of the bytes sent is its progress. On a 401 the session is renewed
 * once and the upload sent again.
 */
export async function sendUpload(
  method: 'POST' | 'PUT',
  url: string,
  fields: Record<string, string>,
  files: File[],
  onProgress: (progress: UploadProgress) => void,
  dispatch: Dispatch,
): Promise<UploadOutcome> {
  let outcome = await sendOnce(method, url, fields, files, onProgress);
  if (!outcome.ok && outcome.status === 401 && (await refreshSession(dispatch)) === 'renewed') {
    outcome = await sendOnce(method, url, fields, files, onProgress);
  }
  return outcome;
}

export function progressOf(sizes: number[], loaded: number, total: number): UploadProgress {
  const sum = sizes.reduce((n, s) => n + s, 0);
  const fraction = total > 0 ? Math.min(1, loaded / total) : 0;
  let sent = fraction * sum;
  const perFile = sizes.map((size) => {
    const part = size === 0 ? (fraction >= 1 ? 1 : 0) : Math.max(0, Math.min(1, sent / size));
    sent -= size;
    return Math.round(part * 100);
  });
  return { perFile, total: Math.round(fraction * 100) };
}

function sendOnce(
  method: 'POST' | 'PUT',
  url: string,
  fields: Record<string, string>,
  files: File[],
  onProgress: (progress: UploadProgress) => void,
): Promise<UploadOutcome> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const file of files) form.append('files', file, file.name);
  const sizes = files.map((f) => f.size);
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, `/api${url}`);
    const token = readAccessToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(progressOf(sizes, event.loaded, event.total));
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(progressOf(sizes, 1, 1));
        resolve({ ok: true, body: body as FileGroupUploadResponse });
        return;
      }
      const detail =
        body && typeof body === 'object' && 'detail' in body && typeof body.detail === 'string'
          ? body.detail
          : null;
      resolve({ ok: false, status: xhr.status, detail });
    };
    xhr.onerror = () => resolve({ ok: false, status: 0, detail: null });
    xhr.send(form);
  });
}
