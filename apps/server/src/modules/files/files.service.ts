import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Multipart } from '@fastify/multipart';
import {
  type CheckGroupNameBody,
  type EditFileGroupBody,
  FILE_MESSAGES,
  type FileGroup,
  type FileGroupUploadResponse,
  MESSAGES,
  type MoveFileBody,
  UpdateGroupFields,
  UploadFields,
} from '@parley/contracts';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../core/db/database.js';
import { isUniqueViolation } from '../../core/db/errors.js';
import { AppError, badRequest, conflict, notFound } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import type { JobQueue } from '../../core/jobs/queue.js';
import type { Entitlements } from '../billing/entitlements.js';
import { KIND_MIME } from './extract.js';
import {
  botsUsingGroup,
  deleteFiles,
  type FileRow,
  filesNamed,
  findFile,
  findGroup,
  groupFiles,
  groupIdsOfUser,
  groupNameTaken,
  loadGroups,
  userInTenant,
  usersWithRole,
} from './files.queries.js';
import { fileGroups, files } from './files.schema.js';
import {
  receiveUpload,
  removeStored,
  type StoredUpload,
  type UploadLimits,
  uploadDir,
} from './files.storage.js';

export const EXTRACT_JOB = 'files.extract';
export type ExtractJobData = { fileIds: number[] };

/** Refused because bots answer from the group: the route answers 409 with their names. */
export class GroupInUseError extends Error {
  constructor(readonly bots: string[]) {
    super(MESSAGES.files.deleteGroupFailed + MESSAGES.files.associatedBots + bots.join(', '));
  }
}

type Options = UploadLimits & {
  dataDir: string;
  /** The plan's trained characters per bot, for a file moved into a group bots answer from. */
  limits?: Pick<Entitlements, 'requireRoomFor'>;
};

/**
 * File groups of a tenant: uploads streamed to disk, one extraction job per upload, edits and
 * deletes that remove originals and their indexed text together.
 */
export class FilesService {
  constructor(
    private readonly db: Db,
    private readonly jobs: JobQueue,
    private readonly options: Options,
  ) {}

  async checkGroupName(auth: AuthContext, body: CheckGroupNameBody): Promise<{ isUnique: boolean }> {
    if (body.tenant_id !== auth.tenantId) throw notFound();
    return { isUnique: !(await groupNameTaken(this.db, auth.tenantId, body.group_name)) };
  }

  /** A new group with the uploaded files; a name the tenant already uses is refused (409). */
  async upload(auth: AuthContext, parts: AsyncIterableIterator<Multipart>): Promise<FileGroupUploadResponse> {
    const received = await this.receive(auth, parts);
    try {
      const fields = parseFields(UploadFields, received.fields);
      if (received.files.length === 0) throw badRequest(MESSAGES.files.atLeastOneFile);
      requireDistinctNames(received.files);
      if (!(await userInTenant(this.db, auth.tenantId, fields.user_id))) {
        throw notFound(MESSAGES.files.userMissing);
      }
      const { groupId, jobId } = await this.db.transaction(async (tx) => {
        const [group] = await tx
          .insert(fileGroups)
          .values({
            tenantId: auth.tenantId,
            userId: fields.user_id,
            groupName: fields.group_name,
            description: fields.description || null,
          })
          .returning({ id: fileGroups.id });
        const jobId = await this.addFiles(tx, auth.tenantId, group!.id, received.files);
        return { groupId: group!.id, jobId };
      });
      return this.uploaded(auth, groupId, FILE_MESSAGES.uploaded(received.files.length), jobId);
    } catch (error) {
      await removeStored(received.files);
      if (isUniqueViolation(error)) throw conflict(MESSAGES.files.groupNameTaken);
      throw error;
    }
  }

  /** Adds files to an existing group of the tenant and, when given, sets its description. */
  async addToGroup(
    auth: AuthContext,
    parts: AsyncIterableIterator<Multipart>,
  ): Promise<FileGroupUploadResponse> {
    const received = await this.receive(auth, parts);
    try {
      const fields = parseFields(UpdateGroupFields, received.fields);
      if (received.files.length === 0 && fields.description === undefined) {
        throw badRequest(MESSAGES.files.atLeastOneFile);
      }
      requireDistinctNames(received.files);
      const jobId = await this.db.transaction(async (tx) => {
        const group = await findGroup(tx, auth.tenantId, fields.group_id);
        if (!group) throw notFound('File group not found');
        if (fields.description !== undefined) {
          await tx
            .update(fileGroups)
            .set({ description: fields.description || null })
            .where(and(eq(fileGroups.tenantId, auth.tenantId), eq(fileGroups.id, group.id)));
        }
        return received.files.length > 0 ? this.addFiles(tx, auth.tenantId, group.id, received.files) : '';
      });
      const message =
        received.files.length > 0
          ? FILE_MESSAGES.uploaded(received.files.length)
          : FILE_MESSAGES.groupUpdated;
      return this.uploaded(auth, fields.group_id, message, jobId);
    } catch (error) {
      await removeStored(received.files);
      throw error;
    }
  }

  /** The groups a user of the tenant works with (see groupIdsOfUser). */
  async groupsOfUser(auth: AuthContext, userId: number): Promise<FileGroup[]> {
    const groupIds = await groupIdsOfUser(this.db, auth.tenantId, userId);
    if (groupIds === null) throw notFound(MESSAGES.files.userMissing);
    return loadGroups(this.db, auth.tenantId, { groupIds });
  }

  /** The groups created by the tenant's users who hold the role. */
  async groupsOfRole(auth: AuthContext, roleId: number): Promise<FileGroup[]> {
    const userIds = await usersWithRole(this.db, auth.tenantId, roleId);
    return loadGroups(this.db, auth.tenantId, { userIds });
  }

  /** New description, and files of the group removed (any id not in the group: 404, nothing changed). */
  async editGroup(
    auth: AuthContext,
    groupId: number,
    userId: number,
    body: EditFileGroupBody,
  ): Promise<FileGroup> {
    await this.requireUser(auth, userId);
    const removed = await this.db.transaction(async (tx) => {
      const group = await findGroup(tx, auth.tenantId, groupId);
      if (!group) throw notFound('File group not found');
      if (body.description !== undefined) {
        await tx
          .update(fileGroups)
          .set({ description: body.description || null })
          .where(and(eq(fileGroups.tenantId, auth.tenantId), eq(fileGroups.id, group.id)));
      }
      const ids = [...new Set(body.deleted_files ?? [])];
      if (ids.length === 0) return [];
      const rows = (await groupFiles(tx, auth.tenantId, group.id)).filter((f) => ids.includes(f.id));
      if (rows.length !== ids.length) throw notFound('File not found');
      await deleteFiles(tx, auth.tenantId, rows);
      return rows;
    });
    await this.removeOriginals(auth.tenantId, removed);
    const [group] = await loadGroups(this.db, auth.tenantId, { groupIds: [groupId] });
    return group!;
  }

  async deleteFile(auth: AuthContext, fileId: number): Promise<void> {
    const removed = await this.db.transaction(async (tx) => {
      const file = await findFile(tx, auth.tenantId, fileId);
      if (!file) throw notFound('File not found');
      await deleteFiles(tx, auth.tenantId, [file]);
      return [file];
    });
    await this.removeOriginals(auth.tenantId, removed);
  }

  /**
   * Reads and indexes a file again (one that failed: a plan since upgraded, a fault since passed).
   * Its current text stays with its bots until the new one is live.
   */
  async retrainFile(auth: AuthContext, fileId: number): Promise<FileGroupUploadResponse> {
    const { file, jobId } = await this.db.transaction(async (tx) => {
      const file = await this.settledFile(tx, auth.tenantId, fileId);
      return { file, jobId: await this.trainAgain(tx, auth.tenantId, file, file.fileGroupId) };
    });
    return this.uploaded(auth, file.fileGroupId, FILE_MESSAGES.retraining(file.filename), jobId);
  }

  /**
   * Moves a file to another group of the tenant: its text is indexed again under that group, so the
   * bots of the group it leaves answer from it until those of the new one do. A name the new group
   * already holds, or more characters than its bots' plan allows, is refused, nothing changed.
   */
  async moveFile(auth: AuthContext, fileId: number, body: MoveFileBody): Promise<FileGroupUploadResponse> {
    const { file, target, jobId } = await this.db.transaction(async (tx) => {
      const file = await this.settledFile(tx, auth.tenantId, fileId);
      const target = await findGroup(tx, auth.tenantId, body.group_id);
      if (!target) throw notFound('File group not found');
      if (target.id === file.fileGroupId)
        throw badRequest(FILE_MESSAGES.alreadyInGroup(file.filename, target.groupName));
      if ((await filesNamed(tx, auth.tenantId, target.id, file.filename)).length > 0)
        throw conflict(FILE_MESSAGES.nameInGroup(file.filename, target.groupName));
      await this.options.limits?.requireRoomFor(
        tx,
        auth.tenantId,
        { type: 'file', collectionId: target.id },
        [],
        file.characterCount ?? 0,
      );
      return { file, target, jobId: await this.trainAgain(tx, auth.tenantId, file, target.id) };
    });
    return this.uploaded(auth, target.id, FILE_MESSAGES.moved(file.filename, target.groupName), jobId);
  }

  /** The file, unless an extraction of it is under way (its job would race the new one). */
  private async settledFile(tx: DbOrTx, tenantId: number, fileId: number): Promise<FileRow> {
    const file = await findFile(tx, tenantId, fileId);
    if (!file) throw notFound('File not found');
    if (file.status === 'pending') throw conflict(FILE_MESSAGES.stillTraining(file.filename));
    return file;
  }

  /** Puts the file in the group, pending, and queues its extraction, in the caller's transaction. */
  private async trainAgain(tx: DbOrTx, tenantId: number, file: FileRow, groupId: number): Promise<string> {
    await tx
      .update(files)
      .set({ fileGroupId: groupId, status: 'pending', error: null })
      .where(and(eq(files.tenantId, tenantId), eq(files.id, file.id)));
    return this.jobs.enqueue<ExtractJobData>(
      EXTRACT_JOB,
      { fileIds: [file.id] },
      { tenantId, tx, maxAttempts: 3 },
    );
  }

  /** The group, its files, originals and indexed text; refused while bots answer from it. */
  async deleteGroup(auth: AuthContext, groupId: number, userId: number): Promise<void> {
    await this.requireUser(auth, userId);
    const removed = await this.db.transaction(async (tx) => {
      const group = await findGroup(tx, auth.tenantId, groupId);
      if (!group) throw notFound('File group not found');
      const bots = await botsUsingGroup(tx, auth.tenantId, group.id);
      if (bots.length > 0) throw new GroupInUseError(bots);
      const rows = await groupFiles(tx, auth.tenantId, group.id);
      await deleteFiles(tx, auth.tenantId, rows);
      await tx
        .delete(fileGroups)
        .where(and(eq(fileGroups.tenantId, auth.tenantId), eq(fileGroups.id, group.id)));
      return rows;
    });
    await this.removeOriginals(auth.tenantId, removed);
  }

  private async requireUser(auth: AuthContext, userId: number): Promise<void> {
    if (!(await userInTenant(this.db, auth.tenantId, userId))) throw notFound(MESSAGES.files.userMissing);
  }

  private receive(auth: AuthContext, parts: AsyncIterableIterator<Multipart>) {
    return receiveUpload(parts, uploadDir(this.options.dataDir, auth.tenantId), this.options);
  }

  /** File rows for stored uploads and one extraction job for them, in the caller's transaction. */
  private async addFiles(tx: DbOrTx, tenantId: number, groupId: number, stored: StoredUpload[]) {
    const rows = await tx
      .insert(files)
      .values(
        stored.map((file) => ({
          tenantId,
          fileGroupId: groupId,
          filename: file.filename,
          storageName: file.storageName,
          mimeType: KIND_MIME[file.kind],
          size: file.size,
        })),
      )
      .returning({ id: files.id });
    return this.jobs.enqueue<ExtractJobData>(
      EXTRACT_JOB,
      { fileIds: rows.map((r) => r.id) },
      { tenantId, tx, maxAttempts: 3 },
    );
  }

  /** After the commit: the originals go from disk (a leftover file is harmless; a missing row is not). */
  private async removeOriginals(tenantId: number, rows: FileRow[]): Promise<void> {
    const dir = uploadDir(this.options.dataDir, tenantId);
    await Promise.all(rows.map((row) => rm(path.join(dir, row.storageName), { force: true })));
  }

  private async uploaded(
    auth: AuthContext,
    groupId: number,
    message: string,
    jobId: string,
  ): Promise<FileGroupUploadResponse> {
    const [group] = await loadGroups(this.db, auth.tenantId, { groupIds: [groupId] });
    return { ...group!, message, job_id: jobId };
  }
}

/**
 * A group keeps one file per name (a file added under a name it holds replaces that file once
 * trained), so one upload may not bring two files of the same name: which would win is a guess.
 */
function requireDistinctNames(stored: StoredUpload[]): void {
  const seen = new Set<string>();
  for (const file of stored) {
    const key = file.filename.toLowerCase();
    if (seen.has(key)) throw badRequest(FILE_MESSAGES.sameNameTwice(file.filename));
    seen.add(key);
  }
}

/** Multipart text fields through their schema: the first issue's message, as a 400. */
function parseFields<T extends z.ZodType>(schema: T, fields: Record<string, string>): z.output<T> {
  const parsed = schema.safeParse(fields);
  if (!parsed.success) throw new AppError('bad_request', parsed.error.issues[0]?.message ?? 'Invalid upload');
  return parsed.data;
}
