import {
  CreateLlmBody,
  LLM_MESSAGES,
  LlmIdParams,
  LlmSetting,
  LlmSettingResponse,
  LlmTestResult,
  LlmToggleParams,
  MESSAGES,
  MessageResponse,
  UpdateLlmBody,
} from '@parley/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../core/http/request-context.js';
import type { FeatureModule, ModuleDeps } from '../../core/module.js';
import { botCacheOf } from '../bots/bot-cache.js';
import { LlmService } from './llm.service.js';

const tags = ['LLM settings'];

/** The spec's text when the model passed its test on save; else why it is not active. */
const savedMessage = (setting: LlmSetting, passed: string): string =>
  setting.last_test && !setting.last_test.ok ? LLM_MESSAGES.savedInactive(setting.last_test.detail) : passed;

const routes =
  (deps: ModuleDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const bots = botCacheOf(deps);
    const llms = new LlmService(deps.db, deps.config.appSecret, {
      changed: (tenantId) => bots.tenantChanged(tenantId),
    });

    app.post(
      '/settings/llm',
      {
        schema: {
          tags,
          summary:
            'Add a model: name, provider, base_url (required for openai-compatible and azure), model, api_key (stored encrypted), embedding_model?. It is tested at once and active only if the test passed (last_test says why not)',
          body: CreateLlmBody,
          response: { 201: LlmSettingResponse },
        },
      },
      async (request, reply) => {
        const setting = await llms.create(requireAuth(request).tenantId, request.body);
        return reply.status(201).send({ ...setting, message: savedMessage(setting, MESSAGES.llm.saved) });
      },
    );
    app.get(
      '/settings/llm/company',
      {
        schema: {
          tags,
          summary: "The workspace's models, active or not (keys masked)",
          response: { 200: z.array(LlmSetting) },
        },
      },
      async (request) => llms.list(requireAuth(request).tenantId),
    );
    app.get(
      '/settings/llm/:id',
      {
        schema: {
          tags,
          summary: 'One model (key masked)',
          params: LlmIdParams,
          response: { 200: LlmSetting },
        },
      },
      async (request) => llms.get(requireAuth(request).tenantId, request.params.id),
    );
    app.put(
      '/settings/llm/:id',
      {
        schema: {
          tags,
          summary:
            'Edit a model; an omitted or empty api_key keeps the stored key. Tested at once: a failed test switches it off (last_test says why)',
          params: LlmIdParams,
          body: UpdateLlmBody,
          response: { 200: LlmSettingResponse },
        },
      },
      async (request) => {
        const setting = await llms.update(requireAuth(request).tenantId, request.params.id, request.body);
        return { ...setting, message: savedMessage(setting, MESSAGES.llm.updated) };
      },
    );
    app.patch(
      '/settings/llm/:llm_id/toggle/:is_active',
      {
        schema: {
          tags,
          summary:
            'Activate (true) or deactivate (false) a model; bots skip an inactive one. Activation tests it first: 400 with the reason when the test fails',
          params: LlmToggleParams,
          response: { 200: LlmSettingResponse },
        },
      },
      async (request) => ({
        ...(await llms.setActive(
          requireAuth(request).tenantId,
          request.params.llm_id,
          request.params.is_active,
        )),
        message: MESSAGES.llm.updated,
      }),
    );
    app.delete(
      '/settings/llm/:id',
      {
        schema: {
          tags,
          summary: 'Delete a model; bots that used it fall back to the embedded answerer',
          params: LlmIdParams,
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        await llms.remove(requireAuth(request).tenantId, request.params.id);
        return { message: LLM_MESSAGES.deleted };
      },
    );
    app.post(
      '/settings/llm/:id/test',
      {
        schema: {
          tags,
          summary:
            "Test the connection with a tiny real call, redirects not followed; a failure answers ok: false with a reason of Parley's (HTTP status, kind of network error), never the called server's text",
          params: LlmIdParams,
          response: { 200: LlmTestResult },
        },
      },
      async (request) => llms.test(requireAuth(request).tenantId, request.params.id),
    );
  };

/** LLM settings: the tenant's models, their encrypted keys and the connection test. */
export const llmModule: FeatureModule = { routes };
