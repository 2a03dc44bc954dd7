import { ensureTemplate } from './pglite-template.js';

/** Vitest global setup of the API projects: prepare the migrated PGlite template once per run. */
export default async function setup(): Promise<void> {
  await ensureTemplate();
}
