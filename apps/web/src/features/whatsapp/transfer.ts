import type { ContactMapping, ImportResult } from '@parley/contracts';
import type { Dispatch } from '@reduxjs/toolkit';
import { type FormOutcome, sendForm } from '../../shared/api/form-upload';
import { type DownloadOutcome, downloadWithSession } from '../leads/download';
import { exportFileName } from './model';

/**
 * The contact import, with its upload progress (0..100). The mapping travels as a multipart field
 * before the file, as the server reads it.
 */
export function importContacts(
  input: { accountId: number; tenantId: number; file: File; mapping: ContactMapping },
  onProgress: (percent: number) => void,
  dispatch: Dispatch,
): Promise<FormOutcome<ImportResult>> {
  const form = () => {
    const data = new FormData();
    data.append('mapping', JSON.stringify(input.mapping));
    data.append('file', input.file, input.file.name);
    return data;
  };
  const query = new URLSearchParams({
    whatsapp_account_id: String(input.accountId),
    tenant_id: String(input.tenantId),
  });
  return sendForm<ImportResult>(
    'POST',
    `/social/whatsapp/contacts/import?${query.toString()}`,
    form,
    (loaded, total) => onProgress(total > 0 ? Math.round((loaded / total) * 100) : 0),
    dispatch,
  );
}

/**
 * The account's contacts as CSV, given up after the spec's 10-second blob time-out, named as the
 * server's Content-Disposition says (else with the account id and the date).
 */
export function exportContacts(accountId: number, dispatch: Dispatch): Promise<DownloadOutcome> {
  return downloadWithSession(
    `/api/social/whatsapp/contacts/export?account_id=${accountId}`,
    exportFileName(accountId),
    dispatch,
  );
}
