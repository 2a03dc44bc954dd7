import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { FileKind } from '@parley/contracts';
import { and, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../core/db/database.js';
import { AppError } from '../../core/errors.js';
import type { JobContext } from '../../core/jobs/queue.js';
import type { Entitlements } from '../billing/entitlements.js';
import type { Embedder } from '../knowledge/embeddings.js';
import { removeDocument, trainDocument } from '../knowledge/ingest.js';
import { notifyTraining } from '../notifications/notifications.service.js';
import { ExtractionError, KIND_MIME } from './extract.js';
import type { ExtractorPool } from './extract-pool.js';
import {
  deleteFiles,
  documentCollection,
  type FileRow,
  filesNamed,
  findFile,
  findGroup,
} from './files.queries.js';
import { files } from './files.schema.js';
import type { ExtractJobData } from './files.service.js';
import { uploadDir } from './files.storage.js';

const KIND_OF = Object.fromEntries(Object.entries(KIND_MIME).map(([kind, mime]) => [mime, kind])) as Record<
  string,
  FileKind
>;

/** How often a file's training extends the job's lease. */
const LEASE_TOUCH_MS = 5_000;

/**
 * Extracts and indexes each file of an upload, reporting progress per file. Text is read and
 * chunked in the extraction workers and written in short transactions (trainDocument), so a large
 * file never stalls other requests. A file whose content
 * cannot be read (refused archive, parser error, out of the worker's memory or time) is marked failed
 * with the reason at its first failure: reading it again would fail again. Other errors (the
 * database) retry the job (files already trained are skipped), and the last attempt marks what is left
 * failed.
 */
export function extractFilesJob(
  db: Db,
  dataDir: string,
  maxAttempts: number,
  extractor: ExtractorPool,
  embedder: Embedder | null = null,
  /** The plan's trained characters per bot, for bots answering from the file's group. */
  limits?: Pick<Entitlements, 'requireRoomFor'>,
) {
  return async (job: JobContext<ExtractJobData>): Promise<void> => {
    const tenantId = job.tenantId;
    if (tenantId === null) return;
    const ids = job.data.fileIds;
    await job.progress(0, ids.length);
    const outcome = { trained: 0, failed: [] as string[] };
    for (const [index, fileId] of ids.entries()) {
      if (job.signal.aborted) throw new Error('lease lost');
      const file = await findFile(db, tenantId, fileId);
      if (file && file.status === 'pending') {
        try {
          const content = await readFile(path.join(uploadDir(dataDir, tenantId), file.storageName));
          const kind = KIND_OF[file.mimeType];
          if (!kind) throw new ExtractionError('This file type is not supported');
          const prepared = await extractor.prepare(kind, content, file.filename);
          const replaced = await olderNamesakes(db, tenantId, file);
          // Its own text counts once: already held by the group's bots when it is retrained in place.
          const held =
            (await documentCollection(db, tenantId, file.id)) === file.fileGroupId ? [file.id] : [];
          await fitsPlan(limits, db, tenantId, file.fileGroupId, prepared.characterCount, [
            ...held,
            ...replaced.map((r) => r.id),
          ]);
          const removed: FileRow[] = [];
          await trainDocument(
            db,
            {
              tenantId,
              sourceType: 'file',
              sourceId: file.id,
              collectionId: file.fileGroupId,
              title: file.filename,
              url: null,
            },
            prepared,
            {
              embedder,
              signal: job.signal,
              // A large file trains for minutes: keep the job's lease while it does.
              onProgress: throttle(() => job.progress(index, ids.length), LEASE_TOUCH_MS),
              // Made live only while the file and its group exist, together with the file's status.
              onLive: async (tx, result) => {
                const current = await findFile(tx, tenantId, fileId);
                if (!current || !(await findGroup(tx, tenantId, current.fileGroupId))) return false;
                // Moved while this run read it: the run of its new group makes it live there.
                if (current.fileGroupId !== file.fileGroupId) return false;
                // The older file of the same name (last month's menu) leaves the bots as this one arrives.
                removed.push(...(await replaceNamesakes(tx, tenantId, current)));
                await tx
                  .update(files)
                  .set({
                    status: 'trained',
                    trained: true,
                    characterCount: result.characterCount,
                    error: null,
                  })
                  .where(and(eq(files.tenantId, tenantId), eq(files.id, fileId)));
                return true;
              },
            },
          );
          await removeOriginals(dataDir, tenantId, removed);
          outcome.trained += 1;
        } catch (error) {
          const final = error instanceof ExtractionError || job.attempt >= maxAttempts;
          if (!final) throw error;
          const message =
            error instanceof ExtractionError ? error.message : 'The file could not be processed';
          // A failed file teaches nothing: text of an earlier reading (before a move or a retry) goes too.
          await db.transaction(async (tx) => {
            await removeDocument(tx, tenantId, 'file', fileId);
            await tx
              .update(files)
              .set({ status: 'failed', trained: false, error: message })
              .where(and(eq(files.tenantId, tenantId), eq(files.id, fileId)));
          });
          outcome.failed.push(`${file.filename}: ${message}`);
        }
      }
      await job.progress(index + 1, ids.length);
    }
    await notifyFiles(db, tenantId, job.id, outcome);
  };
}

/** `fn`, run at most once per `ms`; calls in between resolve at once. */
function throttle(fn: () => Promise<void>, ms: number): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < ms) return;
    last = performance.now();
    await fn();
  };
}

/** Files of the same group and name uploaded before this one: it replaces them once it is live. */
async function olderNamesakes(db: DbOrTx, tenantId: number, file: FileRow): Promise<FileRow[]> {
  return (await filesNamed(db, tenantId, file.fileGroupId, file.filename)).filter(
    (other) => other.id < file.id,
  );
}

/** Deletes the older namesakes' rows and indexed text, in the transaction that makes the new file live. */
async function replaceNamesakes(tx: DbOrTx, tenantId: number, file: FileRow): Promise<FileRow[]> {
  const older = await olderNamesakes(tx, tenantId, file);
  await deleteFiles(tx, tenantId, older);
  return older;
}

/** After the commit: the replaced files' originals leave the disk (a leftover is harmless). */
async function removeOriginals(dataDir: string, tenantId: number, rows: FileRow[]): Promise<void> {
  const dir = uploadDir(dataDir, tenantId);
  await Promise.all(rows.map((row) => rm(path.join(dir, row.storageName), { force: true })));
}

/** A file too large for a bot answering from its group is failed with the plan's reason, unread. */
async function fitsPlan(
  limits: Pick<Entitlements, 'requireRoomFor'> | undefined,
  db: Db,
  tenantId: number,
  groupId: number,
  characters: number,
  replacing: number[],
): Promise<void> {
  try {
    await limits?.requireRoomFor(
      db,
      tenantId,
      { type: 'file', collectionId: groupId },
      replacing,
      characters,
    );
  } catch (error) {
    if (error instanceof AppError) throw new ExtractionError(error.detail);
    throw error;
  }
}

/** The bell once per upload: finished, or failed naming the files that failed. */
async function notifyFiles(
  db: Db,
  tenantId: number,
  jobId: string,
  outcome: { trained: number; failed: string[] },
) {
  if (outcome.trained === 0 && outcome.failed.length === 0) return;
  const count = outcome.trained + outcome.failed.length;
  await notifyTraining(db, tenantId, {
    failed: outcome.failed.length > 0,
    what: count === 1 ? '1 file' : `${count} files`,
    link: '/bot/knowledge/files',
    key: `files:${jobId}`,
    detail: outcome.failed.join('\n'),
  });
}
