import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Attachment, CHAT_ATTACHMENT_MAX_BYTES } from '@parley/contracts';
import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { AppError, badRequest, notFound } from '../../core/errors.js';
import { uploadedFileName } from '../../core/http/multipart.js';

const EXTENSION_OF: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'application/pdf': 'pdf',
};
const MIME_OF = Object.fromEntries(Object.entries(EXTENSION_OF).map(([mime, ext]) => [ext, mime]));
const dir = (dataDir: string) => path.resolve(dataDir, 'chat-attachments');
const tooLarge = () =>
  new AppError(
    'payload_too_large',
    `An attachment must be at most ${CHAT_ATTACHMENT_MAX_BYTES / 1024 / 1024} MB`,
  );

/** One file of a conversation, its type judged from its bytes; stored under a generated name. */
export async function receiveAttachment(
  dataDir: string,
  tenantId: number,
  request: FastifyRequest,
): Promise<Attachment> {
  let file: Awaited<ReturnType<FastifyRequest['file']>>;
  let bytes: Buffer;
  try {
    file = await request.file({ limits: { fileSize: CHAT_ATTACHMENT_MAX_BYTES, files: 1, fields: 5 } });
    if (!file) throw badRequest('Choose a file to attach');
    bytes = await file.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw error;
  }
  if (file.file.truncated) throw tooLarge();
  const type = await fileTypeFromBuffer(bytes);
  const extension = type ? EXTENSION_OF[type.mime] : undefined;
  if (!type || !extension) {
    throw new AppError('unsupported_media_type', 'Attach a PNG, JPEG, WebP or GIF image, or a PDF');
  }
  const name = `${tenantId}_${randomBytes(16).toString('hex')}.${extension}`;
  await mkdir(dir(dataDir), { recursive: true });
  await writeFile(path.join(dir(dataDir), name), bytes, { flag: 'wx' });
  return {
    name: uploadedFileName(file.filename, name, 200),
    url: `/api/chat/attachments/${name}`,
    content_type: type.mime,
    size: bytes.length,
  };
}

export async function readAttachment(
  dataDir: string,
  name: string,
): Promise<{ bytes: Buffer; mime: string }> {
  const mime = MIME_OF[name.split('.').pop() ?? ''];
  if (!mime || path.basename(name) !== name) throw notFound('Attachment not found');
  try {
    return { bytes: await readFile(path.join(dir(dataDir), name)), mime };
  } catch {
    throw notFound('Attachment not found');
  }
}
