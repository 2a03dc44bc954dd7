import { type ContactMapping, type ImportResult, UI_TIMING } from '@parley/contracts';
import type { Dispatch } from '@reduxjs/toolkit';
import { readAccessToken } from '../../shared/lib/session-storage';
import { refreshSession } from '../auth/refresh';
import { fileNameFrom } from '../leads/download';
import { exportFileName } from './model';

export type ImportOutcome =
  | { ok: true; result: ImportResult }
  | { ok: false; status: number; detail: string | null };

/**
 * The contact import, sent with XMLHttpRequest so its upload progress (0..100) can be shown. The
 * mapping travels as a multipart field before the file, as the server reads it. A 401 renews the
 * session once and sends again.
 */
export async function importContacts(
  input: { accountId: number; tenantId: number; file: File; mapping: ContactMapping },
  onProgress: (percent: number) => void,
  dispatch: Dispatch,
): Promise<ImportOutcome> {
  let outcome = await importOnce(input, onProgress);
  if (!outcome.ok && outcome.status === 401 && (await refreshSession(dispatch)) === 'renewed') {
    outcome = await importOnce(input, onProgress);
  }
  return outcome;
}

function importOnce(
  {
    accountId,
    tenantId,
    file,
    mapping,
  }: { accountId: number; tenantId: number; file: File; mapping: ContactMapping },
  onProgress: (percent: number) => void,
): Promise<ImportOutcome> {
  const form = new FormData();
  form.append('mapping', JSON.stringify(mapping));
  form.append('file', file, file.name);
  const query = new URLSearchParams({ whatsapp_account_id: String(accountId), tenant_id: String(tenantId) });
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/social/whatsapp/contacts/import?${query.toString()}`);
    const token = readAccessToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0)
        onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(100);
        resolve({ ok: true, result: body as ImportResult });
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

export type ExportOutcome =
  | { ok: true; blob: Blob; fileName: string }
  | { ok: false; reason: 'timeout' | 'network' }
  | { ok: false; reason: 'http'; status: number; detail: string | null };

/**
 * The account's contacts as CSV, given up after the spec's 10-second blob time-out, named as the
 * server's Content-Disposition says (else with the account id and the date).
 */
export async function exportContacts(accountId: number, dispatch: Dispatch): Promise<ExportOutcome> {
  const url = `/api/social/whatsapp/contacts/export?account_id=${accountId}`;
  const send = () => {
    const token = readAccessToken();
    return fetch(url, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      credentials: 'same-origin',
      signal: AbortSignal.timeout(UI_TIMING.blobDownloadTimeoutMs),
    });
  };
  try {
    let response = await send();
    if (response.status === 401 && (await refreshSession(dispatch)) === 'renewed') response = await send();
    if (!response.ok) {
      let detail: string | null = null;
      try {
        const body = (await response.json()) as { detail?: unknown };
        detail = typeof body.detail === 'string' ? body.detail : null;
      } catch {
        // not JSON
      }
      return { ok: false, reason: 'http', status: response.status, detail };
    }
    const blob = await response.blob();
    const fileName = fileNameFrom(response.headers.get('content-disposition'), exportFileName(accountId));
    return { ok: true, blob, fileName };
  } catch (error) {
    const name = (error as { name?: string }).name;
    return { ok: false, reason: name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network' };
  }
}
