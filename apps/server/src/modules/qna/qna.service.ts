import {
  type CreateQnABody,
  MAX_ALTERNATE_QUESTIONS,
  MESSAGES,
  type QnA,
  type UpdateQnABody,
} from '@parley/contracts';
import { and, asc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../core/db/database.js';
import { jobs as jobRows } from '../../core/db/schema.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import type { JobContext, JobQueue } from '../../core/jobs/queue.js';
import type { Entitlements } from '../billing/entitlements.js';
import { ofWorkingBots, requireWorkingBot } from '../bots/bots.queries.js';
import { bots } from '../bots/bots.schema.js';
import { messages } from '../chat/chat.schema.js';
import type { Embedder } from '../knowledge/embeddings.js';
import { bumpCollectionVersion, removeDocument, replaceDocument } from '../knowledge/ingest.js';
import { bestPair, pairWordings } from '../knowledge/qna-questions.js';
import { notifyTraining } from '../notifications/notifications.service.js';
import { qna } from './qna.schema.js';

const TRAIN_QNA_ATTEMPTS = 3;
/**
 * A pair is offered for a visitor's question when it holds this weighted share of its words (about
 * a third of what answering with it takes) and clearly beats the next pair: the owner confirms it.
 */
const LIKELY_PAIR = { minCoverage: 0.2, clearMargin: 0.8 };

export const TRAIN_QNA_JOB = 'training.qna';
/** One pair, queued in the transaction that saves it. */
export const TRAIN_QNA_PAIR_JOB = 'training.qna-pair';
type TrainQnaJob = { botId: number };
type TrainQnaPairJob = { qnaId: number };
type Row = typeof qna.$inferSelect;

/** The wordings trimmed, each once (case aside), none the pair's own question, in the order given. */
function otherWordings(question: string, wordings: readonly string[]): string[] {
  const seen = new Set([question.trim().toLowerCase()]);
  const kept: string[] = [];
  for (const wording of wordings) {
    const text = wording.replace(/\s+/g, ' ').trim();
    const key = text.toLowerCase();
    if (!text || seen.has(key)) continue;
    seen.add(key);
    kept.push(text);
  }
  return kept;
}

const sameQuestion = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * Refuses a question the bot already has as another pair's question or other wording: two pairs
 * for one question tie, so neither would answer it (and the owner could not tell which one did).
 * The bot's row is locked first, so two saves of the same question at once cannot both pass.
 */
async function requireNewQuestion(tx: Tx, tenantId: number, botId: number, question: string, self?: number) {
  await tx
    .select({ id: bots.id })
    .from(bots)
    .where(and(eq(bots.id, botId), eq(bots.tenantId, tenantId)))
    .for('update');
  const wanted = sameQuestion(question);
  const pairs = await tx
    .select({ id: qna.id, question: qna.question, wordings: qna.alternateQuestions })
    .from(qna)
    .where(and(eq(qna.tenantId, tenantId), eq(qna.botId, botId)));
  const taken = pairs.find(
    (pair) =>
      pair.id !== self && [pair.question, ...pair.wordings].some((text) => sameQuestion(text) === wanted),
  );
  if (taken) throw conflict(`This bot already has a Q&A pair for that question: "${taken.question}"`);
}

/** The questions and other wordings of the bot's pairs but one, as `sameQuestion` keys them. */
async function otherPairsWordings(tx: Tx, tenantId: number, botId: number, except: number) {
  const pairs = await tx
    .select({ question: qna.question, wordings: qna.alternateQuestions })
    .from(qna)
    .where(and(eq(qna.tenantId, tenantId), eq(qna.botId, botId), ne(qna.id, except)));
  return new Set(pairs.flatMap((pair) => [pair.question, ...pair.wordings].map(sameQuestion)));
}

/**
 * The workspace's pair, read and locked for the rest of the transaction; undefined when there is
 * none (or it is not within `scope`).
 */
async function lockedPair(tx: Tx, tenantId: number, id: number, scope?: SQL): Promise<Row | undefined> {
  const [row] = await tx
    .select()
    .from(qna)
    .where(and(eq(qna.id, id), eq(qna.tenantId, tenantId), scope))
    .for('update');
  return row;
}

const toQnA = (row: Row, training = false): QnA => ({
  id: row.id,
  tenant_id: row.tenantId,
  bot_id: row.botId,
  question: row.question,
  answer: row.answer,
  alternate_questions: row.alternateQuestions,
  trained: row.trained,
  training: !row.trained && training,
  character_count: row.characterCount,
  chat_id: row.chatId,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

/**
 * Q&A pairs of a bot (console.md sections 3, 4, 5, 7 Q&A). A pair answers visitors once trained.
 * Saving a pair queues its training in the same transaction, so it answers within seconds with no
 * Train press (issue 15 item 5); POST /training/train/qna/{botId} still trains every pair of a bot.
 */
export class QnaService {
  constructor(
    private readonly db: Db,
    private readonly jobs: JobQueue,
    private readonly embedder: Embedder | null = null,
    /** The plan's trained characters per bot: a pair that would take its bot past them is refused. */
    private readonly limits?: Pick<Entitlements, 'requireRoomFor'>,
  ) {}

  async create(auth: AuthContext, body: CreateQnABody): Promise<QnA> {
    return this.db.transaction((tx) => this.createIn(tx, auth, body));
  }

  /** Adds a pair and queues its training in the caller's transaction (the unanswered queue's answer). */
  async createIn(tx: Tx, auth: AuthContext, body: CreateQnABody): Promise<QnA> {
    await requireWorkingBot(tx, auth, body.bot_id);
    if (body.chat_id !== undefined)
      await this.requireChatMessage(tx, auth.tenantId, body.bot_id, body.chat_id);
    await this.limits?.requireRoomFor(
      tx,
      auth.tenantId,
      { type: 'qna', collectionId: body.bot_id },
      [],
      body.question.length + body.answer.length,
    );
    await requireNewQuestion(tx, auth.tenantId, body.bot_id, body.question);
    const [row] = await tx
      .insert(qna)
      .values({
        tenantId: auth.tenantId,
        botId: body.bot_id,
        question: body.question,
        answer: body.answer,
        chatId: body.chat_id ?? null,
      })
      .returning();
    await this.queuePairTraining(tx, row!);
    return toQnA(row!, true);
  }

  private queuePairTraining(tx: Tx, row: Row): Promise<string> {
    return this.jobs.enqueue<TrainQnaPairJob>(
      TRAIN_QNA_PAIR_JOB,
      { qnaId: row.id },
      { tenantId: row.tenantId, maxAttempts: 3, tx },
    );
  }

  /**
   * A pair drawn from a chat names the message it came from (`chat_id`, a message id): one of this
   * workspace's messages (another workspace's answers 404, as if it did not exist), in a
   * conversation of the pair's bot.
   */
  private async requireChatMessage(
    db: DbOrTx,
    tenantId: number,
    botId: number,
    chatId: number,
  ): Promise<void> {
    const [message] = await db
      .select({ botId: messages.botId })
      .from(messages)
      .where(and(eq(messages.tenantId, tenantId), eq(messages.id, chatId)));
    if (!message) throw notFound('Chat message not found');
    if (message.botId !== botId) throw badRequest('The chat message is not from a conversation of this bot');
  }

  async list(auth: AuthContext, botId?: number): Promise<QnA[]> {
    if (botId !== undefined) await requireWorkingBot(this.db, auth, botId);
    const rows = await this.db
      .select()
      .from(qna)
      .where(
        and(
          eq(qna.tenantId, auth.tenantId),
          botId === undefined ? ofWorkingBots(auth, qna.botId) : eq(qna.botId, botId),
        ),
      )
      .orderBy(asc(qna.id));
    const training = await this.pairsInTraining(this.db, auth.tenantId, rows);
    return rows.map((row) => toQnA(row, training.has(row.id)));
  }

  /** Which of these untrained pairs have their training queued or running. */
  private async pairsInTraining(db: DbOrTx, tenantId: number, rows: Row[]): Promise<Set<number>> {
    const untrained = rows.filter((row) => !row.trained).map((row) => String(row.id));
    if (untrained.length === 0) return new Set();
    const pending = await db
      .select({ qnaId: sql<string>`${jobRows.data}->>'qnaId'` })
      .from(jobRows)
      .where(
        and(
          eq(jobRows.name, TRAIN_QNA_PAIR_JOB),
          eq(jobRows.tenantId, tenantId),
          inArray(jobRows.status, ['queued', 'active']),
          inArray(sql`${jobRows.data}->>'qnaId'`, untrained),
        ),
      );
    return new Set(pending.map((row) => Number(row.qnaId)));
  }

  /**
   * A changed question or answer is trained again; other wordings alone are not (they are no text
   * of the pair's document): the bot's pairs' version moves, so retrieval reads them at once.
   */
  async update(auth: AuthContext, id: number, body: UpdateQnABody): Promise<QnA> {
    return this.db.transaction(async (tx) => {
      const current = await this.lockPair(tx, auth, id);
      // The console's dialog sends both texts with every save: only a changed one is trained again
      // (or a pair not trained, whose save is the owner's retry).
      const retrain =
        !current.trained ||
        (body.question !== undefined && body.question !== current.question) ||
        (body.answer !== undefined && body.answer !== current.answer);
      const question = body.question ?? current.question;
      if (retrain) await this.requireEditAllowed(tx, auth, current, question, body.answer ?? current.answer);
      const [row] = await tx
        .update(qna)
        .set({
          question: body.question,
          answer: body.answer,
          alternateQuestions: otherWordings(question, body.alternate_questions ?? current.alternateQuestions),
          ...(retrain ? { trained: false } : {}),
          updatedAt: new Date(),
        })
        .where(eq(qna.id, id))
        .returning();
      // The old text leaves the bot's knowledge now, not when training ends (or fails): the bot
      // never quotes an answer the owner replaced.
      if (retrain) {
        await removeDocument(tx, auth.tenantId, 'qna', id);
        await this.queuePairTraining(tx, row!);
      } else await bumpCollectionVersion(tx, auth.tenantId, 'qna', row!.botId);
      const training = retrain || (await this.pairsInTraining(tx, auth.tenantId, [row!])).has(row!.id);
      return toQnA(row!, training);
    });
  }

  /** An edit's new text must fit the plan (in place of what the pair holds now) and be a question the bot lacks. */
  private async requireEditAllowed(
    tx: Tx,
    auth: AuthContext,
    current: Row,
    question: string,
    answer: string,
  ) {
    const source = { type: 'qna', collectionId: current.botId } as const;
    await this.limits?.requireRoomFor(
      tx,
      auth.tenantId,
      source,
      [current.id],
      question.length + answer.length,
    );
    if (sameQuestion(question) !== sameQuestion(current.question))
      await requireNewQuestion(tx, auth.tenantId, current.botId, question, current.id);
  }

  /**
   * Visitors' wordings the owner says this pair answers (the unanswered queue's "Same as an
   * existing answer"), added in the caller's transaction after those it has; past
   * MAX_ALTERNATE_QUESTIONS the oldest go. The pair must be one of `botId`'s.
   */
  async addWordingsIn(
    tx: Tx,
    auth: AuthContext,
    id: number,
    botId: number,
    wordings: string[],
  ): Promise<QnA> {
    const pair = await this.lockPair(tx, auth, id);
    if (pair.botId !== botId) throw badRequest(MESSAGES.qna.otherBot);
    // A wording another pair already has would tie the two, so neither would answer it: it stays theirs.
    const taken = await otherPairsWordings(tx, auth.tenantId, botId, id);
    const fresh = wordings.filter((wording) => !taken.has(sameQuestion(wording)));
    const merged = otherWordings(pair.question, [...pair.alternateQuestions, ...fresh]);
    const [row] = await tx
      .update(qna)
      .set({ alternateQuestions: merged.slice(-MAX_ALTERNATE_QUESTIONS), updatedAt: new Date() })
      .where(eq(qna.id, id))
      .returning();
    await bumpCollectionVersion(tx, auth.tenantId, 'qna', pair.botId);
    return toQnA(row!, (await this.pairsInTraining(tx, auth.tenantId, [row!])).has(row!.id));
  }

  /**
   * For a question's stemmed words, the bot's pair they come nearest (bestPair over every wording
   * of every pair, with the lower bars of a suggestion an owner confirms), or null: what the
   * unanswered queue offers first for "Same as an existing answer".
   */
  async nearestPairOf(
    tenantId: number,
    botId: number,
  ): Promise<(terms: string[]) => { id: number; question: string } | null> {
    const wordings = await pairWordings(this.db, tenantId, botId, { trainedOnly: false });
    const pairs = new Set(wordings.map((w) => w.id)).size;
    return (terms) => {
      const match = bestPair(wordings, pairs, terms, new Map(), LIKELY_PAIR);
      const pair = match && wordings.find((w) => w.id === match.qnaId);
      return pair ? { id: pair.id, question: pair.own } : null;
    };
  }

  /** A pair of a bot the caller does not work with (requireWorkingBot) is one that does not exist. */
  private async lockPair(tx: Tx, auth: AuthContext, id: number): Promise<Row> {
    const row = await lockedPair(tx, auth.tenantId, id, ofWorkingBots(auth, qna.botId));
    if (!row) throw notFound('Q&A not found');
    return row;
  }

  async remove(auth: AuthContext, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const deleted = await tx
        .delete(qna)
        .where(and(eq(qna.id, id), eq(qna.tenantId, auth.tenantId), ofWorkingBots(auth, qna.botId)))
        .returning({ id: qna.id });
      if (deleted.length === 0) throw notFound('Q&A not found');
      await removeDocument(tx, auth.tenantId, 'qna', id);
    });
  }

  /**
   * Deletes every pair of the bot, or of the workspace when no bot is named (for a teammate
   * restricted to some bots, of the bots they work with).
   */
  async removeAll(auth: AuthContext, botId?: number): Promise<number> {
    if (botId !== undefined) await requireWorkingBot(this.db, auth, botId);
    return this.db.transaction(async (tx) => {
      const deleted = await tx
        .delete(qna)
        .where(
          and(
            eq(qna.tenantId, auth.tenantId),
            botId === undefined ? ofWorkingBots(auth, qna.botId) : eq(qna.botId, botId),
          ),
        )
        .returning({ id: qna.id });
      for (const { id } of deleted) await removeDocument(tx, auth.tenantId, 'qna', id);
      return deleted.length;
    });
  }

  /** Queues training of the bot's pairs; progress at GET /training/train/progress/{task_id}. */
  async startTraining(auth: AuthContext, botId: number): Promise<string> {
    await requireWorkingBot(this.db, auth, botId);
    return this.jobs.enqueue<TrainQnaJob>(
      TRAIN_QNA_JOB,
      { botId },
      { tenantId: auth.tenantId, maxAttempts: TRAIN_QNA_ATTEMPTS },
    );
  }

  registerWorker(): void {
    this.jobs.register<TrainQnaJob>(TRAIN_QNA_JOB, (job) => this.train(job));
    this.jobs.register<TrainQnaPairJob>(TRAIN_QNA_PAIR_JOB, async (job) => ({
      trained: await this.db.transaction((tx) => this.trainPair(tx, job.tenantId!, job.data.qnaId)),
    }));
  }

  /**
   * Each pair becomes a document of its own (question as title); one transaction per pair, so a
   * worker killed mid-job leaves whole pairs and the next run only redoes what changed. The pair is
   * read again, locked, inside its transaction: one deleted meanwhile is skipped (its chunks must not
   * come back) and one edited meanwhile is trained with its new text.
   */
  private async train(job: JobContext<TrainQnaJob>): Promise<{ trained: number }> {
    const tenantId = job.tenantId!;
    const pairs = await this.db
      .select({ id: qna.id })
      .from(qna)
      .where(and(eq(qna.tenantId, tenantId), eq(qna.botId, job.data.botId)))
      .orderBy(asc(qna.id));
    await job.progress(0, pairs.length);
    let trained = 0;
    const run = { what: 'Q&A', link: '/bot/knowledge/qna', key: `qna:${job.id}` };
    try {
      for (const [index, { id }] of pairs.entries()) {
        if (job.signal.aborted) throw new Error('Training stopped: the job lost its lease');
        if (await this.db.transaction((tx) => this.trainPair(tx, tenantId, id))) trained += 1;
        await job.progress(index + 1, pairs.length);
      }
    } catch (error) {
      // The last attempt: the queue marks the job failed; the bell says so.
      if (job.attempt >= TRAIN_QNA_ATTEMPTS)
        await notifyTraining(this.db, tenantId, { ...run, failed: true });
      throw error;
    }
    await notifyTraining(this.db, tenantId, { ...run, failed: false, detail: `${trained} pairs trained.` });
    return { trained };
  }

  /**
   * Trains one pair as a document of its own (question as title), reading it again, locked, inside
   * the transaction: one deleted meanwhile is skipped (its chunks must not come back) and one edited
   * meanwhile is trained with its new text. False when the pair is gone.
   */
  private async trainPair(tx: Tx, tenantId: number, id: number): Promise<boolean> {
    const pair = await lockedPair(tx, tenantId, id);
    if (!pair) return false;
    const { characterCount } = await replaceDocument(
      tx,
      {
        tenantId,
        sourceType: 'qna',
        sourceId: pair.id,
        collectionId: pair.botId,
        title: pair.question,
        sections: [{ text: `${pair.question}\n\n${pair.answer}` }],
      },
      this.embedder,
    );
    await tx
      .update(qna)
      .set({ trained: true, characterCount })
      .where(and(eq(qna.id, pair.id), eq(qna.tenantId, tenantId)));
    return true;
  }
}
