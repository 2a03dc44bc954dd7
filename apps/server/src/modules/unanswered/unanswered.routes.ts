import {
  AnswerUnansweredBody,
  IdParams,
  LinkUnansweredBody,
  MessageResponse,
  QnA,
  UnansweredGroup,
  UnansweredIdsBody,
} from '@parley/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../core/http/request-context.js';
import type { UnansweredService } from './unanswered.service.js';

const tags = ['Unanswered questions'];

export const unansweredRoutes =
  (service: UnansweredService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/unanswered/bot/:botId',
      {
        schema: {
          tags,
          summary:
            'The questions a bot could not answer, grouped by meaning, the 200 most asked first; X-Total-Count: how many are open',
          params: z.object({ botId: IdParams.shape.id }),
          response: { 200: z.array(UnansweredGroup) },
        },
      },
      async (request, reply) => {
        const { groups, total } = await service.list(requireAuth(request), request.params.botId);
        return reply.header('x-total-count', String(total)).send(groups);
      },
    );
    app.post(
      '/unanswered/:id/answer',
      {
        schema: {
          tags,
          summary:
            'Answer a group once: it becomes a Q&A pair of the bot, trained at once, and leaves the queue',
          params: IdParams,
          body: AnswerUnansweredBody,
          response: { 201: QnA },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await service.answer(requireAuth(request), request.params.id, request.body)),
    );
    app.post(
      '/unanswered/:id/link',
      {
        schema: {
          tags,
          summary:
            "Same as an existing answer: the group's wordings become other wordings of one of the bot's Q&A pairs, and it leaves the queue",
          params: IdParams,
          body: LinkUnansweredBody,
          response: { 200: QnA },
        },
      },
      async (request) => service.link(requireAuth(request), request.params.id, request.body),
    );
    app.delete(
      '/unanswered/:id',
      {
        schema: {
          tags,
          summary: 'Dismiss a group without answering it',
          params: IdParams,
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        await service.dismiss(requireAuth(request), request.params.id);
        return { message: 'Question dismissed' };
      },
    );
    app.post(
      '/unanswered/dismiss',
      {
        schema: {
          tags,
          summary: 'Dismiss several groups at once; those that already left the queue are left as they are',
          body: UnansweredIdsBody,
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        const count = await service.dismissMany(requireAuth(request), request.body.ids);
        return { message: count === 1 ? '1 question dismissed' : `${count} questions dismissed` };
      },
    );
    app.post(
      '/unanswered/restore',
      {
        schema: {
          tags,
          summary: 'Undo a dismissal: the groups come back to the queue as they were',
          body: UnansweredIdsBody,
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        const count = await service.restore(requireAuth(request), request.body.ids);
        return { message: count === 1 ? 'Question restored' : `${count} questions restored` };
      },
    );
  };
