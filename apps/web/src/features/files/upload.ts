import type { FileGroupUploadResponse } from '@parley/contracts';
import type { Dispatch } from '@reduxjs/toolkit';
import { type FormOutcome, sendForm } from '../../shared/api/form-upload';

/** Bytes sent per file (in the order appended) and in total. */
export type UploadProgress = { perFile: number[]; total: number };

export type UploadOutcome = FormOutcome<FileGroupUploadResponse>;

/**
 * Sends the files with their fields, showing upload progress: the files travel in order, so each
 * file's share of the bytes sent is its progress.
 */
export function sendUpload(
  method: 'POST' | 'PUT',
  url: string,
  fields: Record<string, string>,
  files: File[],
  onProgress: (progress: UploadProgress) => void,
  dispatch: Dispatch,
): Promise<UploadOutcome> {
  const sizes = files.map((f) => f.size);
  const form = () => {
    const data = new FormData();
    for (const [key, value] of Object.entries(fields)) data.append(key, value);
    for (const file of files) data.append('files', file, file.name);
    return data;
  };
  return sendForm<FileGroupUploadResponse>(
    method,
    url,
    form,
    (loaded, total) => onProgress(progressOf(sizes, loaded, total)),
    dispatch,
  );
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
