import { fileURLToPath } from 'node:url';
import type { FileKind } from '@parley/contracts';
import workerpool from 'workerpool';
import type { Config } from '../../config.js';
import type { ChunkDraft } from '../knowledge/chunker.js';
import type { PreparedText } from '../knowledge/prepare.js';
import type { DraftBatch, ExtractResult, ExtractTask } from './extract.worker.js';
import { ExtractionError } from './extraction-error.js';
import type { ZipLimits } from './zip-guard.js';

export type ExtractLimits = ZipLimits & {
  /** Time one file may take. */
  timeoutMs: number;
  /** Old-generation heap of each worker process. */
  workerMemoryMb: number;
  /** Worker processes at most (they start on demand and exit when idle). */
  workers: number;
};

// Built server: the compiled .js worker. Under the test runner the sources are TypeScript, so the
// worker process loads them through tsx, as the test runner does for the main process.
const fromSource = import.meta.url.endsWith('.ts');
const WORKER = new URL(fromSource ? './extract.worker.ts' : './extract.worker.js', import.meta.url);
/** An idle pool's processes exit after this long; the next file starts one again. */
const IDLE_MS = 10_000;

/**
 * Files are parsed in child processes with a heap limit and a time limit, so neither a zip bomb that
 * slips past the archive check nor a parser stuck on crafted input can exhaust the server's memory
 * or block the event loop that answers every tenant. Processes, not worker threads: a worker
 * thread's heap limit does not always hold (a 27 MB DOCX made V8 abort the whole server from a
 * 48 MB worker thread, exit 134), while a process that runs out of heap dies alone. Every way a file
 * can fail here is an ExtractionError: deterministic, so the job marks the file failed at once
 * instead of retrying it.
 */
/** A pool with the configured limits (EXTRACT_*): uploads have one, crawls (linked documents) another. */
export function extractorFromConfig(config: Config): ExtractorPool {
  return new ExtractorPool({
    maxUnpackedBytes: config.EXTRACT_MAX_UNPACKED_BYTES,
    maxEntries: config.EXTRACT_MAX_ARCHIVE_ENTRIES,
    timeoutMs: config.EXTRACT_TIMEOUT_MS,
    workerMemoryMb: config.EXTRACT_WORKER_MEMORY_MB,
    workers: config.EXTRACT_WORKERS,
  });
}

export class ExtractorPool {
  private pool: workerpool.Pool | null = null;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(private readonly limits: ExtractLimits) {}

  /** A file's text, chunked and fingerprinted with its `title`, ready for `trainDocument`. */
  async prepare(kind: FileKind, content: Uint8Array, title: string): Promise<PreparedText> {
    const { maxUnpackedBytes, maxEntries } = this.limits;
    // Scanned pages get half the file's time: the rest is for reading, chunking and the text layer.
    const ocrBudgetMs = Math.floor(this.limits.timeoutMs / 2);
    const task: ExtractTask = {
      kind,
      content,
      title,
      zipLimits: { maxUnpackedBytes, maxEntries },
      ocrBudgetMs,
    };
    let result: ExtractResult;
    const drafts: ChunkDraft[] = [];
    const pool = this.workers();
    try {
      result = await pool
        .exec('extract', [task], { on: (batch: DraftBatch) => drafts.push(...batch.drafts) })
        .timeout(this.limits.timeoutMs);
    } catch (error) {
      throw this.reasonFor(error);
    } finally {
      this.closeWhenIdle(pool);
    }
    if ('error' in result) throw new ExtractionError(result.error);
    if (drafts.length !== result.chunkCount) throw new ExtractionError('The file could not be read');
    const { chunkCount: _, ...measured } = result;
    return { drafts, ...measured };
  }

  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const pool = this.pool;
    this.pool = null;
    await pool?.terminate(true);
  }

  private workers(): workerpool.Pool {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.pool ??= workerpool.pool(fileURLToPath(WORKER), {
      workerType: 'process',
      maxWorkers: this.limits.workers,
      forkOpts: {
        execArgv: [
          ...(fromSource ? ['--import', 'tsx'] : []),
          `--max-old-space-size=${this.limits.workerMemoryMb}`,
        ],
        // Structured clone over the IPC channel: a file's bytes go as bytes, not as JSON.
        serialization: 'advanced',
      },
    });
    return this.pool;
  }

  /** workerpool keeps its processes until terminated: an idle pool lets them go after IDLE_MS. */
  private closeWhenIdle(pool: workerpool.Pool): void {
    const { activeTasks, pendingTasks } = pool.stats();
    if (activeTasks > 0 || pendingTasks > 0 || pool !== this.pool) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      const { activeTasks: active, pendingTasks: pending } = pool.stats();
      if (active > 0 || pending > 0 || pool !== this.pool) return;
      this.pool = null;
      void pool.terminate();
    }, IDLE_MS);
    this.idleTimer.unref();
  }

  private reasonFor(error: unknown): ExtractionError {
    if (error instanceof workerpool.Promise.TimeoutError) {
      return new ExtractionError(
        `Reading this file took longer than ${Math.round(this.limits.timeoutMs / 1000)} s, so it was stopped`,
      );
    }
    // A process that ran out of heap aborts (V8's fatal out-of-memory error): SIGABRT, exit 134.
    const message = (error as Error | null)?.message ?? '';
    if (/exitCode: `134`|signalCode: `SIGABRT`/.test(message)) {
      return new ExtractionError('This file needs more memory to read than Parley allows');
    }
    return new ExtractionError('The file could not be read');
  }
}
