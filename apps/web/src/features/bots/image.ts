import { BOT_IMAGE_KINDS, BOT_IMAGE_MAX_BYTES } from '@parley/contracts';

/** Why a picked profile image cannot be used, or null when it can (the server checks again). */
export function imageProblem(file: { type: string; size: number }): string | null {
  if (!(BOT_IMAGE_KINDS as readonly string[]).includes(file.type))
    return 'The profile image must be a PNG, JPEG, WebP or GIF image';
  if (file.size > BOT_IMAGE_MAX_BYTES)
    return `The profile image must be at most ${BOT_IMAGE_MAX_BYTES / (1024 * 1024)} MB`;
  if (file.size === 0) return 'The profile image is empty';
  return null;
}
