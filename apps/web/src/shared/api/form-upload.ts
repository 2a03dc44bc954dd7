import type { Dispatch } from '@reduxjs/toolkit';
import { refreshSession } from '../../features/auth/refresh';
import { readAccessToken } from '../lib/session-storage';

export type FormOutcome<T> = { ok: true; body: T } | { ok: false; status: number; detail: string | null };

/**
 * Sends a multipart form with XMLHttpRequest, so upload progress (bytes loaded of total) can be
 * shown; fetch reports none. On a 401 the session is renewed once and the form sent again.
 */
export async function sendForm<T>(
  method: 'POST' | 'PUT',
  url: string,
  form: () => FormData,
  onProgress: (loaded: number, total: number) => void,
  dispatch: Dispatch,
): Promise<FormOutcome<T>> {
  let outcome = await sendOnce<T>(method, url, form(), onProgress);
  if (!outcome.ok && outcome.status === 401 && (await refreshSession(dispatch)) === 'renewed') {
    outcome = await sendOnce<T>(method, url, form(), onProgress);
  }
  return outcome;
}

function sendOnce<T>(
  method: 'POST' | 'PUT',
  url: string,
  form: FormData,
  onProgress: (loaded: number, total: number) => void,
): Promise<FormOutcome<T>> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, `/api${url}`);
    const token = readAccessToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1, 1);
        resolve({ ok: true, body: body as T });
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
