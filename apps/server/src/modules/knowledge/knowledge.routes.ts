import { Id, SearchBody, SearchResult, TrainingProgress } from '@parley/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../core/db/database.js';
import { notFound } from '../../core/errors.js';
import { requireAuth } from '../../core/http/request-context.js';
import type { JobQueue } from '../../core/jobs/queue.js';
import { requireWorkingBot } from '../bots/bots.queries.js';
import { isActiveModel } from '../llm/llm.queries.js';
import { ANSWER_PASSAGES, decide, judgedByModel, relevantHits } from './evidence.js';
import { readWithoutModel } from './follow-up.js';
import type { RetrievalService } from './retrieval.service.js';

const STATUS = { queued: 'queued', active: 'in_progress', completed: 'completed', failed: 'failed' } as const;

export const knowledgeRoutes =
  (db: Db, jobs: JobQueue, retrieval: RetrievalService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/training/train/progress/:taskId',
      {
        schema: {
          tags: ['Training'],
          summary: 'Progress of a training, sync or crawl task of your workspace',
          params: z.object({ taskId: z.uuid('must be a task id') }),
          response: { 200: TrainingProgress },
        },
      },
      async (request) => {
        const job = await jobs.get(request.params.taskId, requireAuth(request).tenantId);
        if (!job) throw notFound('Task not found');
        const { current, total, percentage, error } = job;
        return { task_id: job.id, status: STATUS[job.status], current, total, percentage, error };
      },
    );
    app.post(
      '/knowledge/search/:botId',
      {
        schema: {
          tags: ['Training'],
          summary: "What retrieval finds in a bot's knowledge for a question, with scores",
          params: z.object({ botId: Id }),
          body: SearchBody,
          response: { 200: SearchResult },
        },
      },
      async (request) => {
        const auth = requireAuth(request);
        const bot = await requireWorkingBot(db, auth, request.params.botId);
        const { query, limit } = request.body;
        // Searched as an answer searches, so the decision shown is the one the bot makes: a
        // follow-up with the question before it, as the chat reads one without a model.
        const reading = readWithoutModel(query, request.body.previous_question, request.body.previous_answer);
        const { stats, ...found } = await retrieval.search(
          auth.tenantId,
          bot.id,
          reading.query,
          Math.max(limit, ANSWER_PASSAGES),
        );
        const passages = relevantHits(found.hits);
        const { decision } = decide(
          { ...found, stats, hits: passages },
          query,
          bot.handoffConfidence,
          reading.context,
          reading.previousAnswer,
        );
        // As the chat does: passages whose words fall short of a sure answer go to an active model, which judges them.
        const modelJudges =
          !decision.sure && passages.length > 0 && (await isActiveModel(db, auth.tenantId, bot.llmModel));
        return {
          ...found,
          hits: found.hits.slice(0, limit),
          languages: stats.languages ?? ['english'],
          decision: { ...judgedByModel(decision, modelJudges), follows_up: reading.context || null },
        };
      },
    );
  };
