import createCache, { type EmotionCache } from '@emotion/cache';
import { prefixer } from 'stylis';

let cache: Promise<EmotionCache> | undefined;

/**
 * An Emotion cache that mirrors MUI's styles for right-to-left (MUI's documented RTL set-up). The
 * RTL plugin is loaded on demand: most people never choose RTL. (Emotion and stylis are in the
 * main bundle already, through MUI.)
 */
export function loadRtlCache(): Promise<EmotionCache> {
  cache ??= import('stylis-plugin-rtl').then(({ default: rtlPlugin }) =>
    createCache({ key: 'muirtl', stylisPlugins: [prefixer, rtlPlugin] }),
  );
  return cache;
}
