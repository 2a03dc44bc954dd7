import type { ModuleDeps } from '../../core/module.js';
import { type Embedder, embedderFromConfig } from './embeddings.js';

const embedders = new WeakMap<ModuleDeps, Embedder | null>();

/**
 * The embedding model that ingest and retrieval use, or null for full-text only: when none is
 * configured, or when the database has no pgvector (`enableVectors` at start decided that).
 */
export function embedderOf(deps: ModuleDeps): Embedder | null {
  if (!embedders.has(deps)) {
    embedders.set(deps, deps.database.vectors.enabled ? embedderFromConfig(deps.config) : null);
  }
  return embedders.get(deps) ?? null;
}
