import type { NotionPage, NotionWorkspace, SyncChanges } from '@parley/contracts';
import { and, asc, eq, inArray, lt, lte, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/database.js';
import { jobs } from '../../core/db/schema.js';
import { pendingJob } from '../../core/jobs/queue.js';
import { toSyncState } from '../../core/jobs/schedule.js';
import { bots } from '../bots/bots.schema.js';
import { notionOauthStates, notionPages, notionWorkspaces } from './notion.schema.js';

export type WorkspaceRow = typeof notionWorkspaces.$inferSelect;
export type PageRow = typeof notionPages.$inferSelect;

export async function findWorkspace(
  db: DbOrTx,
  tenantId: number,
  id: number,
): Promise<WorkspaceRow | undefined> {
  const [row] = await db
    .select()
    .from(notionWorkspaces)
    .where(and(eq(notionWorkspaces.tenantId, tenantId), eq(notionWorkspaces.id, id)));
  return row;
}

export async function findPage(db: DbOrTx, tenantId: number, id: number): Promise<PageRow | undefined> {
  const [row] = await db
    .select()
    .from(notionPages)
    .where(and(eq(notionPages.tenantId, tenantId), eq(notionPages.id, id)));
  return row;
}

export async function botExists(db: DbOrTx, tenantId: number, botId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: bots.id })
    .from(bots)
    .where(and(eq(bots.tenantId, tenantId), eq(bots.id, botId)));
  return Boolean(row);
}

/** The last sync or training job of a workspace: pending, or how it ended. */
export type LastJob = { id: string; status: string; error: string | null };

/** The tenant's workspaces with their page counts and last sync jobs, oldest first. */
export async function listWorkspaces(db: DbOrTx, tenantId: number): Promise<NotionWorkspace[]> {
  const rows = await db
    .select({
      workspace: notionWorkspaces,
      job: { id: jobs.id, status: jobs.status, error: jobs.error },
    })
    .from(notionWorkspaces)
    .leftJoin(jobs, eq(jobs.id, notionWorkspaces.syncTaskId))
    .where(eq(notionWorkspaces.tenantId, tenantId))
    .orderBy(asc(notionWorkspaces.id));
  const counts = await db
    .select({ workspaceId: notionPages.workspaceId, n: sql<number>`count(*)::int` })
    .from(notionPages)
    .where(eq(notionPages.tenantId, tenantId))
    .groupBy(notionPages.workspaceId);
  const byWorkspace = new Map(counts.map((c) => [c.workspaceId, Number(c.n)]));
  return rows.map(({ workspace, job }) => toWorkspace(workspace, byWorkspace.get(workspace.id) ?? 0, job));
}

export async function listPages(db: DbOrTx, tenantId: number, workspaceIds?: number[]): Promise<PageRow[]> {
  if (workspaceIds && workspaceIds.length === 0) return [];
  return db
    .select()
    .from(notionPages)
    .where(
      and(
        eq(notionPages.tenantId, tenantId),
        workspaceIds ? inArray(notionPages.workspaceId, workspaceIds) : undefined,
      ),
    )
    .orderBy(asc(notionPages.title), asc(notionPages.id));
}

export type WorkspaceValues = {
  tenantId: number;
  userId: number | null;
  workspaceId: string;
  workspaceName: string;
  workspaceIcon: string | null;
  accessTokenSealed: string;
};

/** Connecting a workspace again replaces its token and name. */
export async function upsertWorkspace(db: DbOrTx, values: WorkspaceValues): Promise<WorkspaceRow> {
  const [row] = await db
    .insert(notionWorkspaces)
    .values(values)
    .onConflictDoUpdate({
      target: [notionWorkspaces.tenantId, notionWorkspaces.workspaceId],
      set: {
        userId: values.userId,
        workspaceName: values.workspaceName,
        workspaceIcon: values.workspaceIcon,
        accessTokenSealed: values.accessTokenSealed,
      },
    })
    .returning();
  return row!;
}

export type PageValues = {
  tenantId: number;
  workspaceId: number;
  pageId: string;
  title: string;
  url: string | null;
  lastEditedTime: Date;
  characterCount: number;
  /** Whether its content is part of a trained workspace (bots answer from it). */
  trained: boolean;
};

export async function upsertPage(db: DbOrTx, values: PageValues): Promise<PageRow> {
  const set = {
    title: values.title,
    url: values.url,
    lastEditedTime: values.lastEditedTime,
    characterCount: values.characterCount,
    trained: values.trained,
    syncedAt: new Date(),
  };
  const [row] = await db
    .insert(notionPages)
    .values({ ...values, ...set })
    .onConflictDoUpdate({ target: [notionPages.workspaceId, notionPages.pageId], set })
    .returning();
  return row!;
}

export async function setPageCharacters(db: DbOrTx, tenantId: number, id: number, characterCount: number) {
  await db
    .update(notionPages)
    .set({ characterCount })
    .where(and(eq(notionPages.tenantId, tenantId), eq(notionPages.id, id)));
}

export async function deletePageRow(db: DbOrTx, tenantId: number, id: number): Promise<void> {
  await db.delete(notionPages).where(and(eq(notionPages.tenantId, tenantId), eq(notionPages.id, id)));
}

export async function deleteWorkspaceRow(db: DbOrTx, tenantId: number, id: number): Promise<void> {
  await db
    .delete(notionWorkspaces)
    .where(and(eq(notionWorkspaces.tenantId, tenantId), eq(notionWorkspaces.id, id)));
}

export async function markWorkspace(
  db: DbOrTx,
  tenantId: number,
  id: number,
  values: Partial<
    Pick<
      WorkspaceRow,
      'lastSyncedAt' | 'trained' | 'schedule' | 'scheduleHour' | 'nextSyncAt' | 'syncTaskId'
    > & { lastChanges: SyncChanges }
  >,
): Promise<void> {
  await db
    .update(notionWorkspaces)
    .set(values)
    .where(and(eq(notionWorkspaces.tenantId, tenantId), eq(notionWorkspaces.id, id)));
}

/** Locks the workspace (a sync request and the scheduler take turns) and answers its pending sync. */
export async function lockWorkspace(db: DbOrTx, tenantId: number, id: number) {
  const [row] = await db
    .select({ workspace: notionWorkspaces, runningTaskId: jobs.id })
    .from(notionWorkspaces)
    .leftJoin(jobs, pendingJob(notionWorkspaces.syncTaskId))
    .where(and(eq(notionWorkspaces.tenantId, tenantId), eq(notionWorkspaces.id, id)))
    .for('update', { of: notionWorkspaces });
  return row;
}

/** Scheduled workspaces due at `now`, locked for this transaction (one held elsewhere is skipped). */
export async function claimDueWorkspaces(db: DbOrTx, now: Date, limit: number) {
  return db
    .select({ workspace: notionWorkspaces, runningTaskId: jobs.id })
    .from(notionWorkspaces)
    .leftJoin(jobs, pendingJob(notionWorkspaces.syncTaskId))
    .where(and(ne(notionWorkspaces.schedule, 'off'), lte(notionWorkspaces.nextSyncAt, now)))
    .orderBy(asc(notionWorkspaces.nextSyncAt))
    .limit(limit)
    .for('update', { of: notionWorkspaces, skipLocked: true });
}

/** Pages a sync found unedited: checked at `at`. */
export async function markPagesChecked(db: DbOrTx, tenantId: number, ids: number[], at: Date) {
  if (ids.length === 0) return;
  await db
    .update(notionPages)
    .set({ syncedAt: at })
    .where(and(eq(notionPages.tenantId, tenantId), inArray(notionPages.id, ids)));
}

export async function insertState(
  db: DbOrTx,
  values: { nonce: string; tenantId: number; userId: number; expiresAt: Date },
): Promise<void> {
  await db.delete(notionOauthStates).where(lt(notionOauthStates.expiresAt, new Date()));
  await db.insert(notionOauthStates).values(values);
}

/** Consumes a state: the row is gone after the first callback, so a replay finds nothing. */
export async function takeState(
  db: DbOrTx,
  tenantId: number,
  nonce: string,
): Promise<{ expiresAt: Date } | undefined> {
  const [row] = await db
    .delete(notionOauthStates)
    .where(and(eq(notionOauthStates.tenantId, tenantId), eq(notionOauthStates.nonce, nonce)))
    .returning({ expiresAt: notionOauthStates.expiresAt });
  return row;
}

export const toWorkspace = (row: WorkspaceRow, pageCount: number, job: LastJob | null): NotionWorkspace => ({
  id: row.id,
  workspace_id: row.workspaceId,
  workspace_name: row.workspaceName,
  last_synced_at: row.lastSyncedAt?.toISOString() ?? null,
  trained: row.trained,
  page_count: pageCount,
  last_error: job?.status === 'failed' ? (job.error ?? 'Unknown error') : null,
  ...toSyncState(row, job && (job.status === 'queued' || job.status === 'active') ? job.id : null),
});

/** Forgets a failed last job (the workspace was connected again); a pending one is kept. */
export async function clearFailedJob(db: DbOrTx, tenantId: number, id: number): Promise<void> {
  await db
    .update(notionWorkspaces)
    .set({ syncTaskId: null })
    .where(
      and(
        eq(notionWorkspaces.tenantId, tenantId),
        eq(notionWorkspaces.id, id),
        sql`${notionWorkspaces.syncTaskId} IN (SELECT ${jobs.id} FROM ${jobs} WHERE ${jobs.status} = 'failed')`,
      ),
    );
}

export const toPage = (row: PageRow): NotionPage => ({
  id: row.id,
  page_id: row.pageId,
  title: row.title,
  url: row.url,
  last_edited_time: row.lastEditedTime?.toISOString() ?? null,
  character_count: row.characterCount,
  trained: row.trained,
  synced_at: row.syncedAt.toISOString(),
});
