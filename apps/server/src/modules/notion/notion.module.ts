import type { FeatureModule, ModuleDeps } from '../../core/module.js';
import { notifyingSyncFailure } from '../notifications/notifications.service.js';
import { notionRoutes } from './notion.routes.js';
import {
  NOTION_SYNC_JOB,
  NOTION_TRAIN_JOB,
  NotionService,
  type NotionSyncData,
  type NotionTrainData,
} from './notion.service.js';

/** Notion: routes, jobs (sync and training of a workspace, both with progress) and scheduled re-syncs. */
export const notionModule: FeatureModule = {
  routes: (deps: ModuleDeps) => notionRoutes(new NotionService(deps)),
  jobs: (deps: ModuleDeps) => {
    const notion = new NotionService(deps);
    const options = { maxAttempts: 3, backoffBaseMs: 500 };
    deps.jobs.register<NotionSyncData>(
      NOTION_SYNC_JOB,
      notifyingSyncFailure(
        deps.db,
        options.maxAttempts,
        () => ({ what: 'Notion workspace', link: '/bot/knowledge/notion' }),
        (job) => notion.syncWorkspace(job, job.tenantId!, job.data.workspaceId),
      ),
      options,
    );
    deps.jobs.register<NotionTrainData>(
      NOTION_TRAIN_JOB,
      (job) => notion.trainWorkspace(job, job.tenantId!, job.data.workspaceId),
      options,
    );
    deps.scheduler.register('notion.resync', (now) => notion.enqueueDue(now));
  },
};
