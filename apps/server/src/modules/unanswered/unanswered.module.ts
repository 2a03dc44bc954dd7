import type { FeatureModule } from '../../core/module.js';
import { qnaOf } from '../knowledge/knowledge.module.js';
import { unansweredRoutes } from './unanswered.routes.js';
import { UnansweredService } from './unanswered.service.js';

/**
 * The questions bots could not answer, grouped for their owner to answer with a pair. Wired here,
 * not by the knowledge module, so that knowledge (which the grouping reads languages from) does not
 * import this module back.
 */
export const unansweredModule: FeatureModule = {
  routes: (deps) => async (app) => {
    await app.register(unansweredRoutes(new UnansweredService(deps.db, qnaOf(deps))));
  },
};
