import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { notFound } from '../../core/errors.js';

/**
 * Files WhatsApp customers send (photos, voice notes, videos, documents, stickers), downloaded
 * with the number's token while Meta's link lasts (five minutes) and kept under an unguessable
 * name: the name is the capability, as for the chat's attachments, so the inbox can link to them.
 */
export const MEDIA_PATH = '/api/social/whatsapp/media/';
/** WhatsApp's own cap for video and audio; larger documents are described, not kept. */
export const MEDIA_MAX_BYTES = 16 * 1024 * 1024;
export const MEDIA_NAME = /^\d+_[0-9a-f]{32}\.[a-z0-9]{1,5}$/;

/** The types WhatsApp delivers, by extension; anything else is kept as an opaque download. */
const EXTENSION_OF: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/aac': 'aac',
  'audio/amr': 'amr',
  'video/mp4': 'mp4',
  'video/3gpp': '3gp',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.ms-powerpoint': 'ppt',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
};
const MIME_OF = Object.fromEntries(Object.entries(EXTENSION_OF).map(([mime, ext]) => [ext, mime]));
/** Opened in the browser; everything else (PDFs, office files, unknown bytes) is downloaded. */
const INLINE = /^(image\/(jpeg|png|webp)|audio\/|video\/)/;
const dir = (dataDir: string) => path.resolve(dataDir, 'whatsapp-media');

/** Meta says `audio/ogg; codecs=opus`: the type without its parameters. */
export const baseMime = (mime: string | undefined) => (mime ?? '').split(';')[0]!.trim().toLowerCase();

export async function storeMedia(
  dataDir: string,
  tenantId: number,
  bytes: Buffer,
  mime: string,
): Promise<string> {
  const name = `${tenantId}_${randomBytes(16).toString('hex')}.${EXTENSION_OF[mime] ?? 'bin'}`;
  await mkdir(dir(dataDir), { recursive: true });
  await writeFile(path.join(dir(dataDir), name), bytes, { flag: 'wx' });
  return `${MEDIA_PATH}${name}`;
}

export async function readMedia(
  dataDir: string,
  name: string,
): Promise<{ bytes: Buffer; mime: string; inline: boolean }> {
  if (!MEDIA_NAME.test(name) || path.basename(name) !== name) throw notFound('File not found');
  const mime = MIME_OF[name.split('.').pop()!] ?? 'application/octet-stream';
  try {
    return { bytes: await readFile(path.join(dir(dataDir), name)), mime, inline: INLINE.test(mime) };
  } catch {
    throw notFound('File not found');
  }
}
