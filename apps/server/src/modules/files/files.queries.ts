import type { FileGroup, FileItem } from '@parley/contracts';
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/database.js';
import { userRoles, users } from '../../core/db/schema.js';
import { botsOfRestricted } from '../bots/bots.queries.js';
import { botFileGroups, bots } from '../bots/bots.schema.js';
import { removeDocument } from '../knowledge/ingest.js';
import { documents } from '../knowledge/knowledge.schema.js';
import { fileGroups, files } from './files.schema.js';

export type FileRow = typeof files.$inferSelect;
export type FileGroupRow = typeof fileGroups.$inferSelect;

export async function findGroup(db: DbOrTx, tenantId: number, groupId: number): Promise<FileGroupRow | null> {
  const [row] = await db
    .select()
    .from(fileGroups)
    .where(and(eq(fileGroups.tenantId, tenantId), eq(fileGroups.id, groupId)));
  return row ?? null;
}

export async function groupNameTaken(db: DbOrTx, tenantId: number, name: string): Promise<boolean> {
  const [row] = await db
    .select({ id: fileGroups.id })
    .from(fileGroups)
    .where(and(eq(fileGroups.tenantId, tenantId), sql`lower(${fileGroups.groupName}) = lower(${name})`));
  return Boolean(row);
}

export async function findFile(db: DbOrTx, tenantId: number, fileId: number): Promise<FileRow | null> {
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.tenantId, tenantId), eq(files.id, fileId)));
  return row ?? null;
}

export async function groupFiles(db: DbOrTx, tenantId: number, groupId: number): Promise<FileRow[]> {
  return db
    .select()
    .from(files)
    .where(and(eq(files.tenantId, tenantId), eq(files.fileGroupId, groupId)))
    .orderBy(asc(files.id));
}

/** The files of a group with this name, as a person reads names (case-insensitive), oldest first. */
export async function filesNamed(
  db: DbOrTx,
  tenantId: number,
  groupId: number,
  filename: string,
): Promise<FileRow[]> {
  return db
    .select()
    .from(files)
    .where(
      and(
        eq(files.tenantId, tenantId),
        eq(files.fileGroupId, groupId),
        sql`lower(${files.filename}) = lower(${filename})`,
      ),
    )
    .orderBy(asc(files.id));
}

/** The group whose bots answer from the file's indexed text now (null: it has none). */
export async function documentCollection(
  db: DbOrTx,
  tenantId: number,
  fileId: number,
): Promise<number | null> {
  const [row] = await db
    .select({ collectionId: documents.collectionId })
    .from(documents)
    .where(
      and(eq(documents.tenantId, tenantId), eq(documents.sourceType, 'file'), eq(documents.sourceId, fileId)),
    );
  return row?.collectionId ?? null;
}

export async function userInTenant(db: DbOrTx, tenantId: number, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
  return Boolean(row);
}

/**
 * The groups a user of the tenant works with, by the rule of the bots list (GET /chat/bots/user/:id):
 * an owner, or anyone not restricted to some bots, every group of the workspace (so a teammate sees
 * the menu the owner uploaded, and updates it rather than uploading a second one); someone
 * restricted, the groups they created and those their bots answer from. Null: no such user here.
 */
export async function groupIdsOfUser(db: DbOrTx, tenantId: number, userId: number): Promise<number[] | null> {
  const [viewer] = await db
    .select({
      restricted: users.botsRestricted,
      // Aliased by hand: Drizzle writes a one-table select's columns bare, which a subquery would misread.
      owner: sql<boolean>`exists (select 1 from user_roles ur join roles r on r.id = ur.role_id
        where ur.user_id = ${userId} and r.is_owner)`,
    })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
  if (!viewer) return null;
  const botsGroups = db
    .select({ id: botFileGroups.fileGroupId })
    .from(botFileGroups)
    .innerJoin(bots, eq(bots.id, botFileGroups.botId))
    .where(and(eq(bots.tenantId, tenantId), botsOfRestricted(userId)));
  const rows = await db
    .select({ id: fileGroups.id })
    .from(fileGroups)
    .where(
      and(
        eq(fileGroups.tenantId, tenantId),
        viewer.owner || !viewer.restricted
          ? undefined
          : or(eq(fileGroups.userId, userId), inArray(fileGroups.id, botsGroups)),
      ),
    );
  return rows.map((row) => row.id);
}

/** Groups with their files, oldest first; `where` narrows the groups (always within the tenant). */
export async function loadGroups(
  db: DbOrTx,
  tenantId: number,
  filter: { groupIds?: number[]; userIds?: number[] } = {},
): Promise<FileGroup[]> {
  const conditions = [eq(fileGroups.tenantId, tenantId)];
  if (filter.groupIds)
    conditions.push(inArray(fileGroups.id, filter.groupIds.length ? filter.groupIds : [0]));
  if (filter.userIds)
    conditions.push(inArray(fileGroups.userId, filter.userIds.length ? filter.userIds : [0]));
  const groups = await db
    .select()
    .from(fileGroups)
    .where(and(...conditions))
    .orderBy(asc(fileGroups.id));
  if (groups.length === 0) return [];
  const rows = await db
    .select()
    .from(files)
    .where(
      and(
        eq(files.tenantId, tenantId),
        inArray(
          files.fileGroupId,
          groups.map((g) => g.id),
        ),
      ),
    )
    .orderBy(asc(files.id));
  return groups.map((group) => ({
    id: group.id,
    group_name: group.groupName,
    description: group.description,
    user_id: group.userId,
    tenant_id: group.tenantId,
    collection_name: `file_group_${group.id}`,
    files: rows.filter((f) => f.fileGroupId === group.id).map(toFileItem),
  }));
}

export const toFileItem = (row: FileRow): FileItem => ({
  id: row.id,
  filename: row.filename,
  character_count: row.characterCount,
  size: row.size,
  trained: row.trained,
  status: row.status,
  error: row.error,
  mime_type: row.mimeType,
});

/** Users of the tenant holding the role (none when the role is another tenant's). */
export async function usersWithRole(db: DbOrTx, tenantId: number, roleId: number): Promise<number[]> {
  const rows = await db
    .select({ userId: userRoles.userId })
    .from(userRoles)
    .where(and(eq(userRoles.tenantId, tenantId), eq(userRoles.roleId, roleId)));
  return rows.map((r) => r.userId);
}

/** Names of the tenant's bots that answer from the group. */
export async function botsUsingGroup(db: DbOrTx, tenantId: number, groupId: number): Promise<string[]> {
  const rows = await db
    .select({ name: bots.botName })
    .from(botFileGroups)
    .innerJoin(bots, eq(bots.id, botFileGroups.botId))
    .where(and(eq(botFileGroups.tenantId, tenantId), eq(botFileGroups.fileGroupId, groupId)))
    .orderBy(asc(bots.botName));
  return rows.map((r) => r.name);
}

/** Deletes files' rows with their indexed text, in the caller's transaction (the originals stay on disk). */
export async function deleteFiles(tx: DbOrTx, tenantId: number, rows: FileRow[]): Promise<void> {
  if (rows.length === 0) return;
  for (const row of rows) await removeDocument(tx, tenantId, 'file', row.id);
  await tx.delete(files).where(
    and(
      eq(files.tenantId, tenantId),
      inArray(
        files.id,
        rows.map((r) => r.id),
      ),
    ),
  );
}
