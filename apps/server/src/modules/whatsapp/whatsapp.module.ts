import type { FeatureModule, ModuleDeps } from '../../core/module.js';
import { chatServices } from '../chat/chat.module.js';
import { WHATSAPP_SEND_JOB } from '../chat/chat.queries.js';
import { WhatsAppAccountsService } from './accounts.service.js';
import { type CampaignJob, CampaignRunner } from './campaign.runner.js';
import { CAMPAIGN_RUN_JOB, CampaignsService } from './campaigns.service.js';
import { CloudClient } from './cloud.client.js';
import { ContactsService } from './contacts.service.js';
import {
  INBOUND_ATTEMPTS,
  type InboundJob,
  type SendJob,
  WHATSAPP_INBOUND_JOB,
  WhatsAppConversations,
} from './conversations.service.js';
import { TemplatesService } from './templates.service.js';
import { whatsappRoutes } from './whatsapp.routes.js';

/** Sends are retried with back-off on throttling: 2, 4, 8, 16, 32 s, then shown as failed. */
const SEND_ATTEMPTS = 6;
/** A campaign's job survives this many crashed runs (each new run settles the last one's claims). */
const CAMPAIGN_ATTEMPTS = 10;

export type WhatsAppServices = ReturnType<typeof servicesOf>;

function servicesOf(deps: ModuleDeps) {
  const cloud = new CloudClient({
    graphUrl: deps.config.META_GRAPH_URL,
    appId: deps.config.META_APP_ID,
    appSecret: deps.config.META_APP_SECRET,
  });
  const accounts = new WhatsAppAccountsService(deps, cloud);
  const templates = new TemplatesService(deps, cloud, accounts);
  const { chat, handoff, hub } = chatServices(deps);
  return {
    accounts,
    templates,
    contacts: new ContactsService(deps, accounts),
    campaigns: new CampaignsService(deps, accounts, templates),
    conversations: new WhatsAppConversations(deps, cloud, accounts, templates, chat, handoff, hub),
    runner: new CampaignRunner(deps, cloud, accounts),
  };
}

/** WhatsApp (issue 17): numbers, conversations, templates, contacts and campaigns. */
export const whatsappModule: FeatureModule = {
  routes: (deps) => whatsappRoutes(deps, servicesOf(deps)),
  jobs: (deps) => {
    const { conversations, runner } = servicesOf(deps);
    deps.jobs.register<InboundJob>(WHATSAPP_INBOUND_JOB, (job) => conversations.handleInbound(job), {
      maxAttempts: INBOUND_ATTEMPTS,
      backoffBaseMs: 1000,
    });
    deps.jobs.register<SendJob>(WHATSAPP_SEND_JOB, (job) => conversations.handleSend(job, SEND_ATTEMPTS), {
      maxAttempts: SEND_ATTEMPTS,
      backoffBaseMs: 2000,
    });
    deps.jobs.register<CampaignJob>(CAMPAIGN_RUN_JOB, (job) => runner.run(job), {
      maxAttempts: CAMPAIGN_ATTEMPTS,
      backoffBaseMs: 1000,
    });
  },
};
