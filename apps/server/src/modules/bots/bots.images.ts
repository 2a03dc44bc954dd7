import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BOT_IMAGE_MAX_BYTES } from '@parley/contracts';
import { fileTypeFromBuffer } from 'file-type';
import { AppError, notFound } from '../../core/errors.js';

/** Kinds a profile image may be, judged from its bytes; SVG is refused (it can carry script). */
const EXTENSION_OF: Record<string, 'png' | 'jpg' | 'webp' | 'gif'> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};
const MIME_OF = Object.fromEntries(Object.entries(EXTENSION_OF).map(([mime, ext]) => [ext, mime]));

export const IMAGE_URL_PREFIX = '/api/chat/bots/images/';
const imageDir = (dataDir: string) => path.resolve(dataDir, 'bot-images');

/** A received image: refused unless PNG, JPEG, WebP or GIF by content, and at most 2 MB. */
export async function storeBotImage(dataDir: string, bytes: Buffer): Promise<string> {
  if (bytes.length > BOT_IMAGE_MAX_BYTES) throw imageTooLarge();
  const type = await fileTypeFromBuffer(bytes);
  const extension = type ? EXTENSION_OF[type.mime] : undefined;
  if (!extension) {
    throw new AppError('unsupported_media_type', 'The profile image must be a PNG, JPEG, WebP or GIF image');
  }
  const name = `${randomBytes(16).toString('hex')}.${extension}`;
  await mkdir(imageDir(dataDir), { recursive: true });
  await writeFile(path.join(imageDir(dataDir), name), bytes, { flag: 'wx' });
  return name;
}

export const imageTooLarge = () =>
  new AppError(
    'payload_too_large',
    `The profile image must be at most ${BOT_IMAGE_MAX_BYTES / 1024 / 1024} MB`,
  );

/** The image's bytes and type; names are generated, so a name is checked by pattern, never joined raw. */
export async function readBotImage(dataDir: string, name: string): Promise<{ bytes: Buffer; mime: string }> {
  const extension = name.split('.').pop() ?? '';
  const mime = MIME_OF[extension];
  if (!mime || path.basename(name) !== name) throw notFound('Image not found');
  try {
    return { bytes: await readFile(path.join(imageDir(dataDir), name)), mime };
  } catch {
    throw notFound('Image not found');
  }
}

export async function removeBotImage(dataDir: string, name: string | null): Promise<void> {
  if (name && path.basename(name) === name) await rm(path.join(imageDir(dataDir), name), { force: true });
}
