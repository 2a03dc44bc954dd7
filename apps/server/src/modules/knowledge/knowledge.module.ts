import type { FeatureModule, ModuleDeps } from '../../core/module.js';
import { entitlementsOf } from '../billing/billing.services.js';
import { qnaRoutes } from '../qna/qna.routes.js';
import { QnaService } from '../qna/qna.service.js';
import { unansweredRoutes } from '../unanswered/unanswered.routes.js';
import { UnansweredService } from '../unanswered/unanswered.service.js';
import { knowledgeRoutes } from './knowledge.routes.js';
import { retrievalOf } from './retrieval.service.js';
import { embedderOf } from './vectors.js';

/** QnaService holds no state, so the routes and the worker may each have their own. */
const qnaOf = (deps: ModuleDeps) =>
  new QnaService(deps.db, deps.jobs, embedderOf(deps), entitlementsOf(deps));

/** Knowledge: Q&A pairs, the questions bots could not answer, training progress and the retrieval preview. */
export const knowledgeModule: FeatureModule = {
  jobs: (deps) => qnaOf(deps).registerWorker(),
  routes: (deps) => async (app) => {
    await app.register(qnaRoutes(qnaOf(deps)));
    await app.register(unansweredRoutes(new UnansweredService(deps.db, qnaOf(deps))));
    await app.register(knowledgeRoutes(deps.db, deps.jobs, retrievalOf(deps)));
  },
};
