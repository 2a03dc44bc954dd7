import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startServer } from './harness';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A data directory the built server has started on once: migrated, empty of tenants. */
    e2eDataTemplate: string;
  }
}

/**
 * Vitest global setup of the browser project: the server's first start (its migrations on a new
 * embedded database, about 15 s) happens once per run; every test file's server starts on a copy
 * (about 4 s). The cold-start test still starts on an empty directory of its own.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const template = mkdtempSync(path.join(tmpdir(), 'parley-e2e-template-'));
  const server = await startServer({ DATA_DIR: template });
  await server.stop();
  project.provide('e2eDataTemplate', template);
  return () => rmSync(template, { recursive: true, force: true });
}
