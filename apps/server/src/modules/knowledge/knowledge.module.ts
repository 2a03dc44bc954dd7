import type { FeatureModule, ModuleDeps } from '../../core/module.js';
import { entitlementsOf } from '../billing/billing.services.js';
import { qnaRoutes } from '../qna/qna.routes.js';
import { QnaService } from '../qna/qna.service.js';
import { knowledgeRoutes } from './knowledge.routes.js';
import { retrievalOf } from './retrieval.service.js';
import { embedderOf } from './vectors.js';

/** QnaService holds no state, so the routes and the worker may each have their own. */
export const qnaOf = (deps: ModuleDeps) =>
  new QnaService(deps.db, deps.jobs, embedderOf(deps), entitlementsOf(deps));

/** Knowledge: Q&A pairs, training progress and the retrieval preview (unanswered questions: unanswered.module.ts). */
export const knowledgeModule: FeatureModule = {
  jobs: (deps) => qnaOf(deps).registerWorker(),
  routes: (deps) => async (app) => {
    await app.register(qnaRoutes(qnaOf(deps)));
    await app.register(knowledgeRoutes(deps.db, deps.jobs, retrievalOf(deps)));
  },
};
