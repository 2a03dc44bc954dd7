import type { EmotionCache } from '@emotion/cache';

let cache: Promise<EmotionCache> | undefined;

/**
 * An Emotion cache that mirrors MUI's styles for right-to-left (MUI's documented RTL set-up). Loaded
 * on demand: most people never choose RTL, so it stays out of the first bundle.
 */
export function loadRtlCache(): Promise<EmotionCache> {
  cache ??= Promise.all([import('@emotion/cache'), import('stylis'), import('stylis-plugin-rtl')]).then(
    ([{ default: createCache }, { prefixer }, { default: rtlPlugin }]) =>
      createCache({ key: 'muirtl', stylisPlugins: [prefixer, rtlPlugin] }),
  );
  return cache;
}
