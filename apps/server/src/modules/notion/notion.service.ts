import { randomBytes } from 'node:crypto';
import {
  NOTION_TEXTS,
  type NotionCallbackQuery,
  type NotionContent,
  type NotionStatus,
  type NotionWorkspace,
  type SyncChanges,
  type SyncScheduleBody,
} from '@parley/contracts';
import type { z } from 'zod';
import { decryptSecret, deriveKey, encryptSecret, signPayload, verifyPayload } from '../../core/crypto.js';
import type { DbOrTx } from '../../core/db/database.js';
import { AppError, badRequest, notFound } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import type { JobContext } from '../../core/jobs/queue.js';
import { DUE_BATCH, nextSyncAt, noChanges } from '../../core/jobs/schedule.js';
import type { ModuleDeps } from '../../core/module.js';
import { entitlementsOf } from '../billing/billing.services.js';
import { botNotionWorkspaces } from '../bots/bots.schema.js';
import type { Section } from '../knowledge/chunker.js';
import { charactersOf, markDocumentsSynced, removeDocument, replaceDocument } from '../knowledge/ingest.js';
import { embedderOf } from '../knowledge/vectors.js';
import {
  isAuthRefusal,
  isNotionError,
  NotionApi,
  type NotionIdentity,
  PageGoneError,
  type RemotePage,
} from './notion.client.js';
import {
  botExists,
  claimDueWorkspaces,
  clearFailedJob,
  deletePageRow,
  deleteWorkspaceRow,
  findPage,
  findWorkspace,
  insertState,
  listPages,
  listWorkspaces,
  lockWorkspace,
  markPagesChecked,
  markWorkspace,
  type PageRow,
  setPageCharacters,
  takeState,
  toPage,
  toWorkspace,
  upsertPage,
  upsertWorkspace,
  type WorkspaceRow,
} from './notion.queries.js';

export const NOTION_SYNC_JOB = 'notion.sync';
export const NOTION_TRAIN_JOB = 'notion.train';
export type NotionSyncData = { workspaceId: number };
export type NotionTrainData = { workspaceId: number; botId: number };

/** Where Notion sends the browser back, and where the callback sends it on. */
export const CALLBACK_PATH = '/api/notion/callback';
export const SCREEN_PATH = '/bot/knowledge/notion';
const STATE_TTL_MS = 10 * 60 * 1000;
/** A sync waits out Notion's rate limit (429, Retry-After) this many times per request before failing. */
const JOB_RETRIES = { maxRetries: 6 };
/** Notion's last_edited_time is cut to the minute: a page fetched within that minute may have changed since. */
const EDIT_GRANULARITY_MS = 60_000;

type StatePayload = { t: number; u: number; n: string; e: number };
type ParsedSchedule = z.output<typeof SyncScheduleBody>;

/** Notion workspaces of a tenant: connection (OAuth or token), sync, training, deletion. */
export class NotionService {
  private readonly tokenKey: Buffer;
  private readonly stateKey: Buffer;

  constructor(private readonly deps: ModuleDeps) {
    this.tokenKey = deriveKey(deps.config.appSecret, 'notion');
    this.stateKey = deriveKey(deps.config.appSecret, 'notion-oauth-state');
  }

  get oauthConfigured(): boolean {
    return Boolean(this.deps.config.NOTION_CLIENT_ID && this.deps.config.NOTION_CLIENT_SECRET);
  }

  private get redirectUri(): string {
    return `${this.deps.config.publicUrl.replace(/\/+$/, '')}${CALLBACK_PATH}`;
  }

  private api(token?: string, options?: { maxRetries?: number }): NotionApi {
    return new NotionApi(this.deps.config.NOTION_API_URL, token, options);
  }

  async status(auth: AuthContext): Promise<NotionStatus> {
    const workspaces = await listWorkspaces(this.deps.db, auth.tenantId);
    return { connected: workspaces.length > 0, oauth_configured: this.oauthConfigured, workspaces };
  }

  async content(auth: AuthContext): Promise<NotionContent> {
    const workspaces = await listWorkspaces(this.deps.db, auth.tenantId);
    const pages = await listPages(this.deps.db, auth.tenantId);
    return {
      workspaces: workspaces.map((w) => ({
        ...w,
        pages: pages.filter((p) => p.workspaceId === w.id).map(toPage),
      })),
    };
  }

  /** Notion's consent page, with a signed state that names the caller and works once, for 10 minutes. */
  async authorizeUrl(auth: AuthContext): Promise<string> {
    if (!this.oauthConfigured) throw badRequest(NOTION_TEXTS.notConfigured);
    const nonce = randomBytes(16).toString('base64url');
    const expiresAt = new Date(Date.now() + STATE_TTL_MS);
    await insertState(this.deps.db, { nonce, tenantId: auth.tenantId, userId: auth.userId, expiresAt });
    const state = this.signState({ t: auth.tenantId, u: auth.userId, n: nonce, e: expiresAt.getTime() });
    const url = new URL('/v1/oauth/authorize', this.deps.config.NOTION_API_URL);
    url.search = new URLSearchParams({
      client_id: this.deps.config.NOTION_CLIENT_ID!,
      redirect_uri: this.redirectUri,
      response_type: 'code',
      owner: 'user',
      state,
    }).toString();
    return url.toString();
  }

  /** Completes OAuth; answers where to send the browser (the Notion screen, with the outcome). */
  async callback(query: NotionCallbackQuery): Promise<string> {
    try {
      if (!this.oauthConfigured) throw badRequest(NOTION_TEXTS.notConfigured);
      const payload = this.verifyState(query.state);
      if (payload.e < Date.now()) throw badRequest(NOTION_TEXTS.stateExpired);
      const issued = await takeState(this.deps.db, payload.t, payload.n);
      if (!issued) throw badRequest(NOTION_TEXTS.stateUsed);
      if (issued.expiresAt.getTime() < Date.now()) throw badRequest(NOTION_TEXTS.stateExpired);
      if (query.error || !query.code) throw badRequest(NOTION_TEXTS.accessDenied);
      const exchanged = await this.callNotion(() =>
        this.api().exchangeCode(
          query.code!,
          this.redirectUri,
          this.deps.config.NOTION_CLIENT_ID!,
          this.deps.config.NOTION_CLIENT_SECRET!,
        ),
      );
      await this.store(payload.t, payload.u, exchanged, exchanged.accessToken);
      return `${SCREEN_PATH}?connected=1`;
    } catch (error) {
      const detail =
        error instanceof AppError && error.status < 500 ? error.detail : NOTION_TEXTS.notionUnavailable;
      if (!(error instanceof AppError)) this.deps.log.error({ err: error }, 'notion oauth callback failed');
      return `${SCREEN_PATH}?error=${encodeURIComponent(detail)}`;
    }
  }

  /** Connects with an internal integration token, checked against Notion first. */
  async connectToken(auth: AuthContext, token: string): Promise<NotionWorkspace> {
    const api = this.api(token);
    const identity = await this.callNotion(() => api.identify());
    const stored = await this.store(auth.tenantId, auth.userId, identity, token);
    const [workspace] = (await listWorkspaces(this.deps.db, auth.tenantId)).filter((w) => w.id === stored.id);
    return workspace ?? toWorkspace(stored, 0, null);
  }

  /** Queues a sync of the workspace; one already queued or running (a sync or a training) answers instead. */
  async startSync(auth: AuthContext, workspaceId: number): Promise<string> {
    return this.deps.db.transaction(async (tx) => {
      const row = await lockWorkspace(tx, auth.tenantId, workspaceId);
      if (!row) throw notFound(NOTION_TEXTS.workspaceNotFound);
      return row.runningTaskId ?? (await this.enqueueSync(tx, auth.tenantId, workspaceId));
    });
  }

  async setSchedule(auth: AuthContext, workspaceId: number, input: ParsedSchedule): Promise<NotionWorkspace> {
    await this.ownWorkspace(auth, workspaceId);
    await markWorkspace(this.deps.db, auth.tenantId, workspaceId, {
      schedule: input.schedule,
      scheduleHour: input.schedule_hour,
      nextSyncAt: nextSyncAt(input.schedule, input.schedule_hour, this.deps.clock.now()),
    });
    const workspaces = await listWorkspaces(this.deps.db, auth.tenantId);
    return workspaces.find((w) => w.id === workspaceId)!;
  }

  /**
   * The scheduler's task: queues the sync of every workspace due at `now` and moves its next run on,
   * in the transaction that holds the workspace's row (one process enqueues each run). A workspace
   * whose sync or training is still pending skips this run.
   */
  async enqueueDue(now: Date): Promise<number> {
    let enqueued = 0;
    for (let claimed = DUE_BATCH; claimed === DUE_BATCH; ) {
      claimed = await this.deps.db.transaction(async (tx) => {
        const due = await claimDueWorkspaces(tx, now, DUE_BATCH);
        for (const { workspace, runningTaskId } of due) {
          const next = nextSyncAt(workspace.schedule, workspace.scheduleHour, now);
          await markWorkspace(tx, workspace.tenantId, workspace.id, { nextSyncAt: next });
          if (runningTaskId) continue;
          await this.enqueueSync(tx, workspace.tenantId, workspace.id);
          enqueued++;
        }
        return due.length;
      });
    }
    return enqueued;
  }

  private async enqueueSync(tx: DbOrTx, tenantId: number, workspaceId: number): Promise<string> {
    const taskId = await this.deps.jobs.enqueue<NotionSyncData>(
      NOTION_SYNC_JOB,
      { workspaceId },
      { tenantId, tx },
    );
    await markWorkspace(tx, tenantId, workspaceId, { syncTaskId: taskId });
    return taskId;
  }

  /** Links the workspace to the bot and (re)ingests its pages, in one job with progress. */
  async startTraining(auth: AuthContext, botId: number, workspaceId: number): Promise<string> {
    await this.ownWorkspace(auth, workspaceId);
    if (!(await botExists(this.deps.db, auth.tenantId, botId))) throw notFound(NOTION_TEXTS.botNotFound);
    return this.deps.db.transaction(async (tx) => {
      await tx
        .insert(botNotionWorkspaces)
        .values({ tenantId: auth.tenantId, botId, notionWorkspaceId: workspaceId })
        .onConflictDoNothing();
      // The workspace's pages as synced so far must fit the bot's trained characters.
      await entitlementsOf(this.deps).requireBotCharacters(tx, auth.tenantId, botId);
      const taskId = await this.deps.jobs.enqueue<NotionTrainData>(
        NOTION_TRAIN_JOB,
        { workspaceId, botId },
        { tenantId: auth.tenantId, tx },
      );
      await markWorkspace(tx, auth.tenantId, workspaceId, { trained: false, syncTaskId: taskId });
      return taskId;
    });
  }

  /** Removes the workspace, its pages and their documents; bots lose the link. */
  async deleteWorkspace(auth: AuthContext, workspaceId: number): Promise<void> {
    await this.ownWorkspace(auth, workspaceId);
    await this.deps.db.transaction(async (tx) => {
      for (const page of await listPages(tx, auth.tenantId, [workspaceId])) {
        await removeDocument(tx, auth.tenantId, 'notion', page.id);
      }
      await deleteWorkspaceRow(tx, auth.tenantId, workspaceId);
    });
  }

  async deletePage(auth: AuthContext, pageId: number): Promise<void> {
    const page = await findPage(this.deps.db, auth.tenantId, pageId);
    if (!page) throw notFound(NOTION_TEXTS.pageNotFound);
    await this.deps.db.transaction(async (tx) => {
      await removeDocument(tx, auth.tenantId, 'notion', page.id);
      await deletePageRow(tx, auth.tenantId, page.id);
    });
  }

  /**
   * Brings the workspace's pages in line with Notion: a page edited since the last sync (or every
   * page, with `force`) is fetched and stored, retrained only when its text changed; unedited pages
   * are kept as checked now; vanished ones (deleted, unshared) are removed, unless Notion said its
   * listing was cut short. Answers what changed, also kept on the workspace.
   */
  async syncWorkspace(
    job: Pick<JobContext<unknown>, 'progress' | 'signal'>,
    tenantId: number,
    workspaceId: number,
    options: { force?: boolean } = {},
  ): Promise<SyncChanges & { pages: number }> {
    const changes = noChanges();
    const workspace = await findWorkspace(this.deps.db, tenantId, workspaceId);
    if (!workspace) return { ...changes, pages: 0 };
    const api = this.api(decryptSecret(this.tokenKey, workspace.accessTokenSealed), JOB_RETRIES);
    const listing = await this.inJob(() => api.listPages());
    const known = new Map((await listPages(this.deps.db, tenantId, [workspaceId])).map((p) => [p.pageId, p]));
    const unedited: number[] = [];
    const gone: string[] = [];
    const total = listing.pages.length;
    await job.progress(0, total);
    for (const [index, page] of listing.pages.entries()) {
      if (job.signal.aborted) throw new Error('Sync interrupted');
      const existing = known.get(page.pageId);
      if (options.force || !existing || editedSince(existing, page)) {
        const sections = await this.inJob(() => api.pageSections(page)).catch((error: unknown) => {
          if (error instanceof PageGoneError) return null;
          throw error;
        });
        if (sections) {
          const unchanged = await this.storePage(tenantId, workspace, page, sections, options);
          changes[!existing ? 'added' : unchanged ? 'unchanged' : 'changed']++;
        } else gone.push(page.pageId);
      } else {
        unedited.push(existing.id);
        changes.unchanged++;
      }
      await job.progress(index + 1, total);
    }
    const listed = new Set(listing.pages.map((p) => p.pageId).filter((id) => !gone.includes(id)));
    // A listing Notion cut short says nothing of the pages it left out: they stay.
    const vanished = [...known.values()].filter(
      (p) => !listed.has(p.pageId) && (listing.complete || gone.includes(p.pageId)),
    );
    changes.removed = vanished.length;
    await this.deps.db.transaction(async (tx) => {
      for (const page of vanished) {
        await removeDocument(tx, tenantId, 'notion', page.id);
        await deletePageRow(tx, tenantId, page.id);
      }
      const now = this.deps.clock.now();
      await markPagesChecked(tx, tenantId, unedited, now);
      await markDocumentsSynced(tx, tenantId, 'notion', unedited, now);
      await markWorkspace(tx, tenantId, workspaceId, { lastSyncedAt: now, lastChanges: changes });
    });
    return { ...changes, pages: total - gone.length };
  }

  /** Stores a fetched page with its document; answers whether its text was as stored (no retraining). */
  private async storePage(
    tenantId: number,
    workspace: WorkspaceRow,
    page: RemotePage,
    sections: Section[],
    options: { force?: boolean },
  ): Promise<boolean> {
    return this.deps.db.transaction(async (tx) => {
      const row = await upsertPage(tx, {
        tenantId,
        workspaceId: workspace.id,
        pageId: page.pageId,
        title: page.title,
        url: page.url,
        lastEditedTime: new Date(page.lastEditedTime),
        characterCount: 0,
        trained: Boolean(options.force) || workspace.trained,
      });
      await entitlementsOf(this.deps).requireRoomFor(
        tx,
        tenantId,
        { type: 'notion', collectionId: workspace.id },
        [row.id],
        charactersOf(sections),
      );
      const ingested = await replaceDocument(
        tx,
        {
          tenantId,
          sourceType: 'notion',
          sourceId: row.id,
          collectionId: workspace.id,
          title: page.title,
          url: page.url,
          sections,
        },
        embedderOf(this.deps),
      );
      await setPageCharacters(tx, tenantId, row.id, ingested.characterCount);
      return ingested.unchanged;
    });
  }

  async trainWorkspace(
    job: Pick<JobContext<unknown>, 'progress' | 'signal'>,
    tenantId: number,
    workspaceId: number,
  ): Promise<{ pages: number }> {
    const result = await this.syncWorkspace(job, tenantId, workspaceId, { force: true });
    await markWorkspace(this.deps.db, tenantId, workspaceId, { trained: true });
    return { pages: result.pages };
  }

  private async ownWorkspace(auth: AuthContext, workspaceId: number) {
    const workspace = await findWorkspace(this.deps.db, auth.tenantId, workspaceId);
    if (!workspace) throw notFound(NOTION_TEXTS.workspaceNotFound);
    return workspace;
  }

  /** Stores the workspace with its (new) token; a failure of the old token no longer stands. */
  private async store(tenantId: number, userId: number, identity: NotionIdentity, token: string) {
    const row = await upsertWorkspace(this.deps.db, {
      tenantId,
      userId,
      workspaceId: identity.workspaceId,
      workspaceName: identity.workspaceName,
      workspaceIcon: identity.workspaceIcon,
      accessTokenSealed: encryptSecret(this.tokenKey, token),
    });
    await clearFailedJob(this.deps.db, tenantId, row.id);
    return row;
  }

  private signState(payload: StatePayload): string {
    return signPayload(this.stateKey, payload);
  }

  private verifyState(state: string | undefined): StatePayload {
    const payload = verifyPayload<StatePayload>(this.stateKey, state);
    if (!payload) throw badRequest(NOTION_TEXTS.stateInvalid);
    return payload;
  }

  /** A Notion call made for a request: a refused token is the caller's 400; anything else a 503. */
  private async callNotion<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (isAuthRefusal(error) || (isNotionError(error) && statusOf(error) === 400)) {
        throw badRequest(NOTION_TEXTS.invalidToken);
      }
      this.deps.log.warn({ err: error }, 'notion call failed');
      throw new AppError('unavailable', NOTION_TEXTS.notionUnavailable);
    }
  }

  /** A Notion call made in a job: its error becomes a message fit to show (the job's error). */
  private async inJob<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (isAuthRefusal(error)) throw new Error(NOTION_TEXTS.invalidToken);
      if (isNotionError(error)) throw new Error(NOTION_TEXTS.notionUnavailable);
      throw error;
    }
  }
}

/** Whether the page may hold an edit the stored copy lacks: a newer time, or one fetched in its minute. */
function editedSince(stored: PageRow, page: RemotePage): boolean {
  const edited = new Date(page.lastEditedTime).getTime();
  if (stored.lastEditedTime?.getTime() !== edited) return true;
  return stored.syncedAt.getTime() < edited + EDIT_GRANULARITY_MS;
}

const statusOf = (error: unknown): number | undefined => (error as { status?: number }).status;
