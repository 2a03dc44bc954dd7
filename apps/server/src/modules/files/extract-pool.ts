import type { FileKind } from '@parley/contracts';
import { Piscina } from 'piscina';
import type { Section } from '../knowledge/chunker.js';
import type { ExtractResult, ExtractTask } from './extract.worker.js';
import { ExtractionError } from './extraction-error.js';
import type { ZipLimits } from './zip-guard.js';

export type ExtractLimits = ZipLimits & {
  /** Time one file may take. */
  timeoutMs: number;
  /** Old-generation heap of each worker thread. */
  workerMemoryMb: number;
  /** Worker threads at most (they start on demand and exit when idle). */
  workers: number;
};

// Built server: the compiled .js worker. Under the test runner the sources are TypeScript, so the
// worker thread loads them through tsx, as the test runner does for the main thread.
const fromSource = import.meta.url.endsWith('.ts');
const WORKER = new URL(fromSource ? './extract.worker.ts' : './extract.worker.js', import.meta.url).href;

/**
 * Files are parsed in worker threads with a heap limit and a time limit, so neither a zip bomb that
 * slips past the archive check nor a parser stuck on crafted input can exhaust the server's memory
 * or block the event loop that answers every tenant. Every way a file can fail here is an
 * ExtractionError: deterministic, so the job marks the file failed at once instead of retrying it.
 */
export class ExtractorPool {
  private pool: Piscina | null = null;

  constructor(private readonly limits: ExtractLimits) {}

  async extract(kind: FileKind, content: Uint8Array): Promise<Section[]> {
    const { maxUnpackedBytes, maxEntries } = this.limits;
    const task: ExtractTask = { kind, content, zipLimits: { maxUnpackedBytes, maxEntries } };
    let result: ExtractResult;
    try {
      result = await this.workers().run(task, { signal: AbortSignal.timeout(this.limits.timeoutMs) });
    } catch (error) {
      throw this.reasonFor(error);
    }
    if ('error' in result) throw new ExtractionError(result.error);
    return result.sections;
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
    this.pool = null;
  }

  private workers(): Piscina {
    this.pool ??= new Piscina({
      filename: WORKER,
      minThreads: 0,
      maxThreads: this.limits.workers,
      idleTimeout: 10_000,
      resourceLimits: { maxOldGenerationSizeMb: this.limits.workerMemoryMb },
      execArgv: fromSource ? ['--import', 'tsx'] : [],
    });
    return this.pool;
  }

  private reasonFor(error: unknown): ExtractionError {
    const code = (error as { code?: string } | null)?.code;
    const name = (error as { name?: string } | null)?.name;
    if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return new ExtractionError('This file needs more memory to read than Parley allows');
    }
    if (name === 'AbortError' || name === 'TimeoutError') {
      return new ExtractionError(
        `Reading this file took longer than ${Math.round(this.limits.timeoutMs / 1000)} s, so it was stopped`,
      );
    }
    return new ExtractionError('The file could not be read');
  }
}
