import type { FeatureModule, ModuleDeps } from '../../core/module.js';
import { chatServices } from '../chat/chat.module.js';
import { CHANNEL_SEND_JOB } from '../chat/chat.queries.js';
import { AccountsService } from './accounts.service.js';
import {
  INBOUND_ATTEMPTS,
  type InboundJob,
  MessagingService,
  type SendJob,
  SOCIAL_INBOUND_JOB,
} from './messaging.service.js';
import { MetaClient } from './meta.client.js';
import { socialRoutes } from './social.routes.js';

/** Sends are retried with back-off on throttling: 2, 4, 8, 16, 32 s, then shown as failed. */
const SEND_ATTEMPTS = 6;

function servicesOf(deps: ModuleDeps) {
  const meta = new MetaClient({
    graphUrl: deps.config.META_GRAPH_URL,
    appId: deps.config.META_APP_ID,
    appSecret: deps.config.META_APP_SECRET,
  });
  const accounts = new AccountsService(deps, meta);
  const { chat, handoff, hub } = chatServices(deps);
  return { accounts, messaging: new MessagingService(deps, meta, accounts, chat, handoff, hub) };
}

/** Instagram and Messenger (issue 16): accounts, the webhook, inbound messages and the channel outbox. */
export const socialModule: FeatureModule = {
  routes: (deps) => {
    const { accounts, messaging } = servicesOf(deps);
    return socialRoutes(deps, accounts, messaging);
  },
  jobs: (deps) => {
    const { messaging } = servicesOf(deps);
    deps.jobs.register<InboundJob>(SOCIAL_INBOUND_JOB, (job) => messaging.handleInbound(job), {
      maxAttempts: INBOUND_ATTEMPTS,
      backoffBaseMs: 1000,
    });
    deps.jobs.register<SendJob>(CHANNEL_SEND_JOB, (job) => messaging.handleSend(job, SEND_ATTEMPTS), {
      maxAttempts: SEND_ATTEMPTS,
      backoffBaseMs: 2000,
    });
    deps.scheduler.register('social.deliveries.prune', (now) => messaging.pruneDeliveries(now));
  },
};
