import {
  ErrorResponse,
  LEAD_LIMITS,
  LEAD_TEXTS,
  LeadBotParams,
  LeadCreated,
  LeadList,
  LeadListQuery,
  LeadParams,
  LeadSubmission,
  LeadSubmissionParams,
  MessageResponse,
} from '@parley/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { perIpLimit } from '../../core/http/ip-limit.js';
import { requireAuth } from '../../core/http/request-context.js';
import type { FeatureModule, ModuleDeps } from '../../core/module.js';
import { VisitorTokens } from '../chat/visitor.js';
import { LeadsService } from './leads.service.js';

const tags = ['Leads'];

const routes =
  (deps: ModuleDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const visitors = new VisitorTokens(deps.config.appSecret);
    const leads = new LeadsService(deps.db, deps.mail, deps.config.publicUrl, visitors);
    const limit = perIpLimit('lead', LEAD_LIMITS.perIp, LEAD_LIMITS.windowSeconds);

    app.post(
      '/auth/bot/uuid/:uuid/lead',
      {
        schema: {
          tags,
          summary:
            "A visitor's answers to the bot's lead form (no login; limited per IP). 404 when the bot has no enabled form",
          security: [],
          params: LeadSubmissionParams,
          body: LeadSubmission,
          response: { 201: LeadCreated, 404: ErrorResponse, 429: ErrorResponse },
        },
        preHandler: limit,
      },
      async (request, reply) => {
        const lead = await leads.submit(request.params.uuid, request.body, {
          origin: request.headers.origin,
          auth: request.auth,
        });
        return reply.status(201).send({ id: lead.id, message: LEAD_TEXTS.received });
      },
    );
    app.get(
      '/chat/bots/:id/leads',
      {
        schema: {
          tags,
          summary: "The bot's leads, newest first (skip, limit)",
          params: LeadBotParams,
          querystring: LeadListQuery,
          response: { 200: LeadList },
        },
      },
      async (request) => leads.list(requireAuth(request), request.params.id, request.query),
    );
    app.delete(
      '/chat/bots/:id/leads/:leadId',
      {
        schema: {
          tags,
          summary:
            "Erases one of the bot's leads and the notifications that named it (404 when the bot has no such lead)",
          params: LeadParams,
          response: { 200: MessageResponse, 404: ErrorResponse },
        },
      },
      async (request) => {
        await leads.remove(requireAuth(request), request.params.id, request.params.leadId);
        return { message: LEAD_TEXTS.deleted };
      },
    );
    app.get(
      '/chat/bots/:id/leads.csv',
      {
        schema: {
          tags,
          summary: "The bot's leads as a CSV file (text/csv; 404 with a JSON detail), newest first",
          params: LeadBotParams,
        },
      },
      async (request, reply) => {
        const file = await leads.csv(requireAuth(request), request.params.id);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${file.fileName}"`)
          .header('cache-control', 'no-store')
          .send(file.body);
      },
    );
  };

/** Leads: lead form submissions from visitors, listed and exported by the bot's owners. */
export const leadsModule: FeatureModule = { routes };
