import {
  BotFilterQuery,
  CreateQnABody,
  DeleteAllQnaQuery,
  Id,
  IdParams,
  MessageResponse,
  QnA,
  TaskResponse,
  UpdateQnABody,
} from '@parley/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../core/http/request-context.js';
import type { QnaService } from './qna.service.js';

const tags = ['Q&A'];

export const qnaRoutes =
  (service: QnaService): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/qna/',
      { schema: { tags, summary: 'Add a Q&A pair to a bot', body: CreateQnABody, response: { 201: QnA } } },
      async (request, reply) =>
        reply.status(201).send(await service.create(requireAuth(request), request.body)),
    );
    app.get(
      '/qna/',
      {
        schema: {
          tags,
          summary: 'Q&A pairs of the workspace, or of one bot',
          querystring: BotFilterQuery,
          response: { 200: z.array(QnA) },
        },
      },
      async (request) => service.list(requireAuth(request), request.query.bot_id),
    );
    app.put(
      '/qna/:id',
      {
        schema: {
          tags,
          summary: 'Edit a pair (it needs training again)',
          params: IdParams,
          body: UpdateQnABody,
          response: { 200: QnA },
        },
      },
      async (request) => service.update(requireAuth(request), request.params.id, request.body),
    );
    app.delete(
      '/qna/:id',
      { schema: { tags, summary: 'Delete a pair', params: IdParams, response: { 200: MessageResponse } } },
      async (request) => {
        await service.remove(requireAuth(request), request.params.id);
        return { message: 'Q&A deleted successfully' };
      },
    );
    app.delete(
      '/qna/',
      {
        schema: {
          tags,
          summary: 'Delete all pairs of a bot (bot_id), or of the workspace (all=true)',
          querystring: DeleteAllQnaQuery,
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        const count = await service.removeAll(requireAuth(request), request.query.bot_id);
        return { message: `${count} Q&A pairs deleted` };
      },
    );
    app.post(
      '/training/train/qna/:botId',
      {
        schema: {
          tags,
          summary: 'Train the bot on its Q&A pairs',
          params: z.object({ botId: Id }),
          response: { 202: TaskResponse },
        },
      },
      async (request, reply) => {
        const taskId = await service.startTraining(requireAuth(request), request.params.botId);
        return reply.status(202).send({ task_id: taskId, message: 'Training started' });
      },
    );
  };
