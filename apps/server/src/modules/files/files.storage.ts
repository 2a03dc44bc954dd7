import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Multipart } from '@fastify/multipart';
import { FILE_MESSAGES, type FileKind } from '@parley/contracts';
import { AppError, badRequest } from '../../core/errors.js';
import { uploadedFileName } from '../../core/http/multipart.js';
import { detectKind, refusalReason } from './extract.js';

/** A file streamed to disk, its kind judged from its bytes. */
export type StoredUpload = {
  filename: string;
  storageName: string;
  path: string;
  size: number;
  kind: FileKind;
};

export type ReceivedUpload = { fields: Record<string, string>; files: StoredUpload[] };

export type UploadLimits = { maxFileBytes: number; maxFiles: number };

const SUPPORTED = 'PDF, DOCX, XLSX, TXT, Markdown, CSV, HTML or image (PNG, JPEG, WebP)';
/** Bytes read to judge a file's kind: file-type's signatures fit in 4100; UTF-8 is checked on all of it. */
const MAX_TEXT_CHECK = 64 * 1024 * 1024;

export const uploadDir = (dataDir: string, tenantId: number) =>
  path.resolve(dataDir, 'uploads', String(tenantId));

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/**
 * Streams every file part of a multipart request to `dir` under a generated name, and collects the
 * text fields. Any failure (too large, too many, a refused kind) removes every file written, so a
 * refused upload leaves nothing behind.
 */
export async function receiveUpload(
  parts: AsyncIterableIterator<Multipart>,
  dir: string,
  limits: UploadLimits,
): Promise<ReceivedUpload> {
  const fields: Record<string, string> = {};
  const written: StoredUpload[] = [];
  try {
    await mkdir(dir, { recursive: true });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      const storageName = randomUUID();
      const target = path.join(dir, storageName);
      const entry = { filename: uploadedFileName(part.filename, 'file'), storageName, path: target, size: 0 };
      written.push({ ...entry, kind: 'txt' });
      await pipeline(part.file, createWriteStream(target, { flags: 'wx' }));
      if (part.file.truncated) throw tooLarge(entry.filename, limits.maxFileBytes);
      written[written.length - 1]!.size = part.file.bytesRead;
    }
    for (const file of written) file.kind = await judge(file);
    return { fields, files: written };
  } catch (error) {
    await removeStored(written);
    throw mapMultipartError(error, written.at(-1)?.filename ?? 'A file', limits);
  }
}

export async function removeStored(stored: Array<{ path: string }>): Promise<void> {
  await Promise.all(stored.map((file) => rm(file.path, { force: true })));
}

/** The file's kind, or a 415 naming it, with what to do when the owner can fix it (a password). */
async function judge(file: StoredUpload): Promise<FileKind> {
  // Said as it is: an empty file has no type to refuse, only nothing in it.
  if (file.size === 0) throw badRequest(FILE_MESSAGES.empty(file.filename));
  const handle = await open(file.path, 'r');
  try {
    const length = Math.min(file.size, MAX_TEXT_CHECK);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, 0);
    const kind = await detectKind(file.filename, buffer);
    if (kind) return kind;
    throw new AppError(
      'unsupported_media_type',
      refusalReason(file.filename, buffer) ??
        `${file.filename}: this file type is not supported. Upload ${SUPPORTED} files.`,
    );
  } finally {
    await handle.close();
  }
}

const tooLarge = (filename: string, max: number) =>
  new AppError('payload_too_large', `${filename} is larger than the ${megabytes(max)} limit per file`);

function mapMultipartError(error: unknown, filename: string, limits: UploadLimits): unknown {
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge(filename, limits.maxFileBytes);
  if (code === 'FST_FILES_LIMIT') {
    return new AppError('payload_too_large', `At most ${limits.maxFiles} files can be uploaded at once`);
  }
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return new AppError('payload_too_large', 'The upload has too many parts');
  }
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE')
    return badRequest('The upload must be multipart/form-data');
  return error;
}
