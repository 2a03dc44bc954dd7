import { z } from 'zod';
import { BodyId, Id, inputText } from './common.js';
import { MESSAGES } from './messages.js';
import { BOTS_SUBJECT, need, type RouteRule } from './rules.js';

/** Q&A, training progress and the retrieval preview (console.md section 7 Q&A): each route and what it needs. */
export const KNOWLEDGE_ROUTE_RULES = {
  'POST /qna/': need(BOTS_SUBJECT, 'create'),
  'GET /qna/': need(BOTS_SUBJECT, 'read'),
  'PUT /qna/:id': need(BOTS_SUBJECT, 'write'),
  'DELETE /qna/:id': need(BOTS_SUBJECT, 'write'),
  'DELETE /qna/': need(BOTS_SUBJECT, 'write'),
  'POST /training/train/qna/:botId': need(BOTS_SUBJECT, 'write'),
  'GET /training/train/progress/:taskId': need(BOTS_SUBJECT, 'read'),
  'POST /knowledge/search/:botId': need(BOTS_SUBJECT, 'read'),
} as const satisfies Record<string, RouteRule>;

/** A question-and-answer pair of a bot (console.md section 3 QnA). */
export const QnA = z.object({
  id: z.number().int(),
  tenant_id: z.number().int(),
  bot_id: z.number().int(),
  question: z.string(),
  answer: z.string(),
  /**
   * Other wordings of the question, each a visitor's, that the pair answers as it answers its
   * own (added from the unanswered queue with "Same as an existing answer", or edited here).
   */
  alternate_questions: z.array(z.string()),
  trained: z.boolean(),
  /** Its training, queued when it was saved, is waiting or running (it answers within seconds). */
  training: z.boolean(),
  character_count: z.number().int().nullable(),
  chat_id: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type QnA = z.infer<typeof QnA>;

const text = (required: string, max: number) =>
  inputText({ error: required }).trim().min(1, required).max(max, `At most ${max} characters`);

/** console.md section 5 QnA: question and answer required, bot_id positive, chat_id optional and positive. */
export const CreateQnABody = z.object({
  bot_id: BodyId('Bot ID'),
  question: text(MESSAGES.qna.questionRequired, 2000),
  answer: text(MESSAGES.qna.answerRequired, 20_000),
  chat_id: BodyId('Chat').optional(),
});
export type CreateQnABody = z.infer<typeof CreateQnABody>;

/** A pair's other wordings: at most MAX_ALTERNATE_QUESTIONS, each like a question. */
export const MAX_ALTERNATE_QUESTIONS = 20;
const AlternateQuestions = z
  .array(text(MESSAGES.qna.questionRequired, 2000))
  .max(MAX_ALTERNATE_QUESTIONS, MESSAGES.qna.tooManyWordings);

export const UpdateQnABody = z
  .object({
    question: text(MESSAGES.qna.questionRequired, 2000).optional(),
    answer: text(MESSAGES.qna.answerRequired, 20_000).optional(),
    alternate_questions: AlternateQuestions.optional(),
  })
  .refine(
    (v) => v.question !== undefined || v.answer !== undefined || v.alternate_questions !== undefined,
    'Nothing to update',
  );
export type UpdateQnABody = z.infer<typeof UpdateQnABody>;

/** `?bot_id=` on the list: digits only when present. */
export const BotFilterQuery = z.object({ bot_id: Id.optional() });

/**
 * Delete-all names its scope: `bot_id`, or `all=true` for every pair of the workspace. An empty
 * query is refused, so `DELETE /qna/` reached by a missing pair id never wipes a workspace.
 */
export const DeleteAllQnaQuery = z
  .object({ bot_id: Id.optional(), all: z.literal('true').optional() })
  .refine(
    (q) => q.bot_id !== undefined || q.all === 'true',
    'Name a bot_id, or all=true to delete every Q&A pair',
  );

export const TaskResponse = z.object({ task_id: z.string(), message: z.string() });
export type TaskResponse = z.infer<typeof TaskResponse>;

/** GET /training/train/progress/{taskId}: status, current, total, percentage and error (section 7). */
export const TrainingProgress = z.object({
  task_id: z.string(),
  status: z.enum(['queued', 'in_progress', 'completed', 'failed']),
  current: z.number().int(),
  total: z.number().int(),
  percentage: z.number(),
  error: z.string().nullable(),
});
export type TrainingProgress = z.infer<typeof TrainingProgress>;

export const SearchBody = z.object({
  query: inputText({ error: 'Query is required' }).trim().min(1, 'Query is required').max(2000),
  limit: z.number().int().min(1).max(50).default(8),
  /**
   * The conversation before the query, when it is asked in one (the playground's "Why this
   * answer?"): the visitor's previous question and the bot's reply to it. A query that follows up
   * on them ("and on Sunday?") is read with them, as the bot read it without a model.
   */
  previous_question: inputText().trim().max(2000).nullish(),
  previous_answer: inputText().max(8000).nullish(),
});
export type SearchBody = z.infer<typeof SearchBody>;

export const SearchHit = z.object({
  chunk_id: z.number().int(),
  document_id: z.number().int(),
  source_type: z.enum(['file', 'web', 'notion', 'qna', 'store']),
  page_title: z.string().nullable(),
  page_url: z.string().nullable(),
  page_number: z.number().int().nullable(),
  heading_path: z.string().nullable(),
  content: z.string(),
  /** When the page was last fetched or confirmed unchanged (ISO time). */
  synced_at: z.string().nullable(),
  /** Fused score (reciprocal rank), and the full-text rank it came from. */
  score: z.number(),
  text_rank: z.number().nullable(),
  vector_distance: z.number().nullable(),
});
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchResult = z.object({
  /** A Q&A pair whose question matches the query wins: answered directly. */
  qna_match: z
    .object({ qna_id: z.number().int(), question: z.string(), answer: z.string(), overlap: z.number() })
    .nullable(),
  hits: z.array(SearchHit),
  mode: z.enum(['full-text', 'hybrid']),
  /** The languages the bot's sources are written in, which the question is read in ("english", "spanish"). */
  languages: z.array(z.string()),
  /**
   * Whether the bot would answer this question, and why (issue 30 item 2): the source it would
   * answer from, the question's words it covers and those nothing covers.
   */
  decision: z.object({
    answers: z.boolean(),
    /** It would answer, and its sources hold enough of the question to say it without "I'm not sure". */
    sure: z.boolean(),
    summary: z.string(),
    source: z.string().nullable(),
    coverage: z.number(),
    covered: z.array(z.string()),
    missing: z.array(z.string()),
    /**
     * The words fall short of a sure answer, but the bot's active language model reads the passages
     * found and answers only if they say it (else the honest line and a person).
     */
    model_judges: z.boolean(),
    /** The previous question the query was read with, as a follow-up of it; null when read alone. */
    follows_up: z.string().nullable(),
  }),
});
export type SearchResult = z.infer<typeof SearchResult>;

/**
 * The questions a bot could not answer (issue 15 item 4), per bot, grouped when they ask the same
 * thing in other words: answering a group once makes it a Q&A pair, trained at once.
 */
export const UNANSWERED_ROUTE_RULES = {
  'GET /unanswered/bot/:botId': need(BOTS_SUBJECT, 'read'),
  'POST /unanswered/:id/answer': need(BOTS_SUBJECT, 'create'),
  'POST /unanswered/:id/link': need(BOTS_SUBJECT, 'write'),
  'DELETE /unanswered/:id': need(BOTS_SUBJECT, 'write'),
  'POST /unanswered/dismiss': need(BOTS_SUBJECT, 'write'),
  'POST /unanswered/restore': need(BOTS_SUBJECT, 'write'),
} as const satisfies Record<string, RouteRule>;

export const UnansweredGroup = z.object({
  id: z.number().int(),
  bot_id: z.number().int(),
  /** The first wording asked; `examples` holds the latest others. */
  question: z.string(),
  /** How many conversations asked it: a visitor rewording it in one conversation asked it once. */
  asked_count: z.number().int(),
  first_asked_at: z.string(),
  last_asked_at: z.string(),
  examples: z.array(z.string()),
  /**
   * What an agent replied to one of these questions in a conversation they took over: a suggested
   * answer the owner may accept, edit or leave.
   */
  suggestion: z
    .object({ answer: z.string(), agent: z.string().nullable(), answered_at: z.string() })
    .nullable(),
  /**
   * The bot's Q&A pair these words come nearest, though not near enough to answer with it: what
   * "Same as an existing answer" offers first. Null when no pair shares enough of them.
   */
  likely_pair: z.object({ id: z.number().int(), question: z.string() }).nullable(),
  /**
   * The bot did answer one of these, and the visitor rated that answer down: the answer the site
   * gave was wrong or not enough, which a Q&A pair fixes.
   */
  rated_unhelpful: z.boolean(),
  /**
   * The bot answered one of these with sentences that hold only part of the question, saying it was
   * not sure: an answer of the owner's own makes it sure.
   */
  answered_unsure: z.boolean(),
  /**
   * The sentences the bot quoted, not sure, the last time one of these was asked; or, when
   * `unverified` is set, the language model's answer that was not given. Null when none.
   */
  bot_answer: z.string().nullable(),
  /**
   * The bot's language model answered one of these with figures (a price, a time, a number, a phone
   * number, an address, a link) that the sources do not hold, or give for something else, so its answer was not given: those
   * figures. The owner checks them, and an answer of their own gives the right ones. Null otherwise.
   */
  unverified: z.array(z.string()).nullable(),
  /** How many visitors rated such a not-sure answer up: the quote helped them. */
  rated_helpful: z.number().int(),
  /** The latest conversation it was asked in, to read in the inbox; null when none is known. */
  conversation_id: z.number().int().nullable(),
});
export type UnansweredGroup = z.infer<typeof UnansweredGroup>;

/** The owner's answer; the pair's question is the group's first wording unless one is given. */
export const AnswerUnansweredBody = z.object({
  question: text(MESSAGES.qna.questionRequired, 2000).optional(),
  answer: text(MESSAGES.qna.answerRequired, 20_000),
});
export type AnswerUnansweredBody = z.infer<typeof AnswerUnansweredBody>;

/** Groups of the queue dismissed at once, or brought back ("Undo"). */
export const UnansweredIdsBody = z.object({
  ids: z
    .array(BodyId('Question'))
    .min(1, 'Name at least one question')
    .max(200, 'At most 200 questions at once'),
});
export type UnansweredIdsBody = z.infer<typeof UnansweredIdsBody>;

/** "Same as an existing answer": the group's wordings become other wordings of this pair. */
export const LinkUnansweredBody = z.object({ qna_id: BodyId('Q&A') });
export type LinkUnansweredBody = z.infer<typeof LinkUnansweredBody>;
