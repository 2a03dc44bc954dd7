import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FileKind } from '@parley/contracts';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../core/db/database.js';
import type { JobContext } from '../../core/jobs/queue.js';
import type { Embedder } from '../knowledge/embeddings.js';
import { replaceDocument } from '../knowledge/ingest.js';
import { ExtractionError, KIND_MIME } from './extract.js';
import type { ExtractorPool } from './extract-pool.js';
import { findFile, findGroup } from './files.queries.js';
import { files } from './files.schema.js';
import type { ExtractJobData } from './files.service.js';
import { uploadDir } from './files.storage.js';

const KIND_OF = Object.fromEntries(Object.entries(KIND_MIME).map(([kind, mime]) => [mime, kind])) as Record<
  string,
  FileKind
>;

/**
 * Extracts and indexes each file of an upload, reporting progress per file. A file whose content
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
) {
  return async (job: JobContext<ExtractJobData>): Promise<void> => {
    const tenantId = job.tenantId;
    if (tenantId === null) return;
    const ids = job.data.fileIds;
    await job.progress(0, ids.length);
    for (const [index, fileId] of ids.entries()) {
      if (job.signal.aborted) throw new Error('lease lost');
      const file = await findFile(db, tenantId, fileId);
      if (file && file.status === 'pending') {
        try {
          const content = await readFile(path.join(uploadDir(dataDir, tenantId), file.storageName));
          const kind = KIND_OF[file.mimeType];
          if (!kind) throw new ExtractionError('This file type is not supported');
          const sections = await extractor.extract(kind, content);
          await db.transaction(async (tx) => {
            // Deleted meanwhile: nothing to index.
            const current = await findFile(tx, tenantId, fileId);
            const group = current && (await findGroup(tx, tenantId, current.fileGroupId));
            if (!current || !group) return;
            const result = await replaceDocument(
              tx,
              {
                tenantId,
                sourceType: 'file',
                sourceId: file.id,
                collectionId: group.id,
                title: file.filename,
                url: null,
                sections,
              },
              embedder,
            );
            await tx
              .update(files)
              .set({ status: 'trained', trained: true, characterCount: result.characterCount, error: null })
              .where(and(eq(files.tenantId, tenantId), eq(files.id, fileId)));
          });
        } catch (error) {
          const final = error instanceof ExtractionError || job.attempt >= maxAttempts;
          if (!final) throw error;
          const message =
            error instanceof ExtractionError ? error.message : 'The file could not be processed';
          await db
            .update(files)
            .set({ status: 'failed', trained: false, error: message })
            .where(and(eq(files.tenantId, tenantId), eq(files.id, fileId)));
        }
      }
      await job.progress(index + 1, ids.length);
    }
  };
}
