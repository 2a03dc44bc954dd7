import type { AnswerUnansweredBody, LinkUnansweredBody, QnA, UnansweredGroup } from '@parley/contracts';
import { and, desc, eq, inArray, isNotNull, ne } from 'drizzle-orm';
import { type Db, type DbOrTx, queryRows, sql, type Tx } from '../../core/db/database.js';
import { badRequest, notFound } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import { botsOfRestricted, requireWorkingBot, restrictedToSomeBots } from '../bots/bots.queries.js';
import { bots } from '../bots/bots.schema.js';
import type { QnaService } from '../qna/qna.service.js';
import { sameQuestion } from './same-question.js';
import { recordQuestion, type UnansweredInput, type UnansweredReason } from './unanswered.record.js';
import { unansweredGroups as groups, unansweredQuestions as questions } from './unanswered.schema.js';

export { overlap, SAME_QUESTION } from './same-question.js';
export {
  forgetQuestion,
  markHelpful,
  REPEATS_NOTIFIED,
  recordQuestion,
  type UnansweredInput,
  type UnansweredReason,
  withdrawQuestion,
} from './unanswered.record.js';

type BotAnswer = { botAnswer: string; reason: UnansweredReason; unverified: string[] | null };

/** The open groups a bot's queue lists, most asked first. */
export const LISTED = 200;
const EXAMPLES = 3;

/**
 * The questions a bot could not answer (issue 15 item 4): recorded by the chat when the bot found
 * nothing, answered below its confidence, or the visitor asked for a person, and by analytics when
 * a visitor rated the bot's answer down; grouped when they ask
 * the same thing in other words; answered once by an owner, which makes the group a Q&A pair that
 * trains at once (QnaService) and takes it out of the queue.
 */
export class UnansweredService {
  constructor(
    private readonly db: Db,
    private readonly qna: QnaService,
  ) {}

  /** Adds a visitor's question to the open group asking the same thing, or to a new one. */
  record(input: UnansweredInput): Promise<number | null> {
    return recordQuestion(this.db, input);
  }

  /**
   * A bot's open groups, the LISTED most asked first, each with its latest other wordings, and how
   * many are open in all.
   */
  async list(auth: AuthContext, botId: number): Promise<{ groups: UnansweredGroup[]; total: number }> {
    await requireWorkingBot(this.db, auth, botId);
    const open = and(eq(groups.tenantId, auth.tenantId), eq(groups.botId, botId), eq(groups.status, 'open'));
    const [rows, total] = await Promise.all([
      this.db
        .select()
        .from(groups)
        .where(open)
        .orderBy(desc(groups.askedCount), desc(groups.lastAskedAt), desc(groups.id))
        .limit(LISTED),
      this.db.$count(groups, open),
    ]);
    const ids = rows.map((row) => row.id);
    const [examples, suggestions, disliked, quotes, helpful, likely, conversations] = await Promise.all([
      this.examplesOf(ids),
      this.suggestionsFor(ids),
      this.dislikedIn(ids),
      this.botAnswersOf(ids),
      this.helpfulIn(ids),
      // The bot's pairs are stemmed only when there is a group to offer one for.
      rows.length > 0 ? this.qna.nearestPairOf(auth.tenantId, botId) : () => null,
      this.latestConversationsOf(ids),
    ]);
    const listed = rows.map((row) => ({
      id: row.id,
      bot_id: row.botId,
      question: row.question,
      asked_count: row.askedCount,
      first_asked_at: row.firstAskedAt.toISOString(),
      last_asked_at: row.lastAskedAt.toISOString(),
      examples: (examples.get(row.id) ?? []).filter((text) => text !== row.question).slice(0, EXAMPLES),
      suggestion: suggestions.get(row.id) ?? null,
      likely_pair: likely(row.terms),
      rated_unhelpful: disliked.has(row.id),
      // A question answered not sure is queued with what the bot quoted; one whose model answer was
      // not given, with that answer and the figures no source holds.
      answered_unsure: quotes.get(row.id)?.reason === 'unsure',
      bot_answer: quotes.get(row.id)?.botAnswer ?? null,
      unverified: quotes.get(row.id)?.unverified ?? null,
      rated_helpful: helpful.get(row.id) ?? 0,
      conversation_id: conversations.get(row.id) ?? null,
    }));
    return { groups: listed, total };
  }

  /** Per group, the latest conversation one of its questions was asked in. */
  private async latestConversationsOf(groupIds: number[]): Promise<Map<number, number>> {
    if (groupIds.length === 0) return new Map();
    const rows = await this.db
      .selectDistinctOn([questions.groupId], {
        groupId: questions.groupId,
        conversationId: questions.conversationId,
      })
      .from(questions)
      .where(and(inArray(questions.groupId, groupIds), isNotNull(questions.conversationId)))
      .orderBy(questions.groupId, desc(questions.askedAt), desc(questions.id));
    return new Map(rows.map((row) => [row.groupId, row.conversationId!]));
  }

  /** Per group, how many of its answers said not sure a visitor rated up. */
  private async helpfulIn(groupIds: number[]): Promise<Map<number, number>> {
    if (groupIds.length === 0) return new Map();
    const rows = await this.db
      .select({ groupId: questions.groupId, n: sql<number>`count(*)::int` })
      .from(questions)
      .where(and(inArray(questions.groupId, groupIds), eq(questions.ratedHelpful, true)))
      .groupBy(questions.groupId);
    return new Map(rows.map((row) => [row.groupId, row.n]));
  }

  /** The groups holding a question whose answer a visitor rated down. */
  private async dislikedIn(groupIds: number[]): Promise<Set<number>> {
    if (groupIds.length === 0) return new Set();
    const rows = await this.db
      .selectDistinct({ groupId: questions.groupId })
      .from(questions)
      .where(and(inArray(questions.groupId, groupIds), eq(questions.reason, 'disliked')));
    return new Set(rows.map((row) => row.groupId));
  }

  /**
   * Per group, the latest answer kept with one of its questions: what the bot quoted, not sure, or
   * the model's answer that was not given, with the figures no source holds.
   */
  private async botAnswersOf(groupIds: number[]): Promise<Map<number, BotAnswer>> {
    if (groupIds.length === 0) return new Map();
    const rows = await this.db
      .selectDistinctOn([questions.groupId], {
        groupId: questions.groupId,
        botAnswer: questions.botAnswer,
        reason: questions.reason,
        unverified: questions.unverified,
      })
      .from(questions)
      .where(and(inArray(questions.groupId, groupIds), isNotNull(questions.botAnswer)))
      .orderBy(questions.groupId, desc(questions.askedAt), desc(questions.id));
    return new Map(
      rows.map((row) => [
        row.groupId,
        {
          botAnswer: row.botAnswer!,
          reason: row.reason,
          unverified: row.reason === 'unverified' ? (row.unverified ?? []) : null,
        },
      ]),
    );
  }

  /**
   * Per group, the latest reply an agent wrote right after one of its questions, in the same
   * conversation (one they took over): what a person answered is the likeliest right answer. A
   * reply answers the last question before it that the bot did not answer: when another such
   * question of the conversation came between, the reply is that one's, not this one's.
   */
  private async suggestionsFor(groupIds: number[]): Promise<Map<number, UnansweredGroup['suggestion']>> {
    const byGroup = new Map<number, UnansweredGroup['suggestion']>();
    if (groupIds.length === 0) return byGroup;
    const rows = await queryRows<{
      group_id: number;
      message: string;
      agent: string | null;
      created_at: Date | string;
    }>(
      this.db,
      sql`SELECT DISTINCT ON (q.group_id) q.group_id, r.message, r.created_at,
          nullif(trim(concat_ws(' ', u.first_name, u.last_name)), '') AS agent
        FROM unanswered_questions q
        CROSS JOIN LATERAL (
          SELECT m.message, m.sender_id, m.created_at FROM messages m
          WHERE m.conversation_id = q.conversation_id AND m.tenant_id = q.tenant_id
            AND m.message_type = 'helpdesk' AND m.created_at >= q.asked_at
          ORDER BY m.seq LIMIT 1) r
        LEFT JOIN users u ON u.tenant_id = q.tenant_id AND u.id::text = r.sender_id
        WHERE NOT EXISTS (
            SELECT 1 FROM unanswered_questions later
            WHERE later.tenant_id = q.tenant_id AND later.conversation_id = q.conversation_id
              AND later.asked_at > q.asked_at AND later.asked_at <= r.created_at)
          AND q.group_id IN (${sql.join(
            groupIds.map((id) => sql`${id}`),
            sql`, `,
          )})
        ORDER BY q.group_id, q.asked_at DESC`,
    );
    for (const row of rows)
      byGroup.set(row.group_id, {
        answer: row.message,
        agent: row.agent,
        answered_at: new Date(row.created_at).toISOString(),
      });
    return byGroup;
  }

  private async examplesOf(groupIds: number[]): Promise<Map<number, string[]>> {
    const byGroup = new Map<number, string[]>();
    if (groupIds.length === 0) return byGroup;
    const rows = await this.db
      .selectDistinctOn([questions.groupId, questions.question], {
        groupId: questions.groupId,
        question: questions.question,
        askedAt: questions.askedAt,
      })
      .from(questions)
      .where(inArray(questions.groupId, groupIds))
      .orderBy(questions.groupId, questions.question, desc(questions.askedAt));
    rows.sort((a, b) => b.askedAt.getTime() - a.askedAt.getTime());
    for (const row of rows) byGroup.set(row.groupId, [...(byGroup.get(row.groupId) ?? []), row.question]);
    return byGroup;
  }

  /**
   * Answers a group once: it becomes a Q&A pair of its bot, queued for training, and leaves the
   * queue with the open groups asking the same thing (`sameGroupsIn`). Every wording visitors used
   * becomes another wording of the pair, so the next visitor who types one (typo and all) gets it.
   */
  async answer(auth: AuthContext, id: number, body: AnswerUnansweredBody): Promise<QnA> {
    return this.db.transaction(async (tx) => {
      const group = await this.lockOpen(tx, auth, id);
      const answered = await sameGroupsIn(tx, group);
      const pair = await this.qna.createIn(tx, auth, {
        bot_id: group.botId,
        question: body.question ?? group.question,
        answer: body.answer,
      });
      return this.close(tx, auth, answered, pair.id);
    });
  }

  /**
   * "Same as an existing answer": the wordings of the group (and of the open groups asking the same
   * thing) become other wordings of one of the bot's pairs, which then answers them (no training:
   * retrieval reads them at once), and they leave the queue.
   */
  async link(auth: AuthContext, id: number, body: LinkUnansweredBody): Promise<QnA> {
    return this.db.transaction(async (tx) => {
      const group = await this.lockOpen(tx, auth, id);
      return this.close(tx, auth, await sameGroupsIn(tx, group), body.qna_id);
    });
  }

  /** Closes these groups of one bot as answered by the pair, their wordings added to it. */
  private async close(tx: Tx, auth: AuthContext, answered: GroupRow[], qnaId: number): Promise<QnA> {
    const ids = answered.map((group) => group.id);
    const asked = await tx
      .select({ question: questions.question })
      .from(questions)
      .where(inArray(questions.groupId, ids))
      .orderBy(questions.askedAt, questions.id);
    const wordings = [...answered.map((group) => group.question), ...asked.map((row) => row.question)];
    const pair = await this.qna.addWordingsIn(tx, auth, qnaId, answered[0]!.botId, wordings);
    await tx.update(groups).set({ status: 'answered', qnaId: pair.id }).where(inArray(groups.id, ids));
    return pair;
  }

  /** Takes a group out of the queue without answering it (spam, out of scope). */
  async dismiss(auth: AuthContext, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.lockOpen(tx, auth, id);
      await tx.update(groups).set({ status: 'dismissed' }).where(eq(groups.id, id));
    });
  }

  /**
   * Dismisses several groups at once (the queue's "Dismiss selected"). Every id must be a group the
   * caller may see, or nothing changes (404); those that left the queue meanwhile are left as they
   * are. The number dismissed.
   */
  async dismissMany(auth: AuthContext, ids: number[]): Promise<number> {
    return this.db.transaction(async (tx) => {
      const found = await this.lockAll(tx, auth, ids);
      const open = found.filter((group) => group.status === 'open').map((group) => group.id);
      if (open.length > 0)
        await tx.update(groups).set({ status: 'dismissed' }).where(inArray(groups.id, open));
      return open.length;
    });
  }

  /**
   * Brings dismissed groups back to the queue ("Undo"): as they were, counts and wordings kept.
   * A group answered meanwhile is refused (400), as is an id the caller may not see (404).
   */
  async restore(auth: AuthContext, ids: number[]): Promise<number> {
    return this.db.transaction(async (tx) => {
      const found = await this.lockAll(tx, auth, ids);
      if (found.some((group) => group.status === 'answered'))
        throw badRequest('This question was answered meanwhile: its answer is in the Q&A pairs');
      const dismissed = found.filter((group) => group.status === 'dismissed').map((group) => group.id);
      if (dismissed.length > 0)
        await tx.update(groups).set({ status: 'open' }).where(inArray(groups.id, dismissed));
      return dismissed.length;
    });
  }

  /** The caller's open group, locked; 404 for another workspace's or a bot the caller does not work with. */
  private async lockOpen(tx: DbOrTx, auth: AuthContext, id: number): Promise<GroupRow> {
    const [group] = await this.lockAll(tx, auth, [id]);
    if (group!.status !== 'open') throw badRequest('This question has already left the queue');
    return group!;
  }

  /** The caller's groups with these ids, locked; 404 when one is not (nothing is changed then). */
  private async lockAll(tx: DbOrTx, auth: AuthContext, ids: number[]): Promise<GroupRow[]> {
    const wanted = [...new Set(ids)];
    const found = await tx
      .select()
      .from(groups)
      .where(and(inArray(groups.id, wanted), eq(groups.tenantId, auth.tenantId)))
      .orderBy(groups.id)
      .for('update');
    const bots = [...new Set(found.map((group) => group.botId))];
    const seen = await workedBotsOf(tx, auth, bots);
    if (found.length !== wanted.length || bots.some((bot) => !seen.has(bot)))
      throw notFound(wanted.length === 1 ? 'Question not found' : 'Some of these questions were not found');
    return found;
  }
}

type GroupRow = typeof groups.$inferSelect;

/** Of these bots of the caller's workspace, those they work with (all of them unless restricted). */
async function workedBotsOf(db: DbOrTx, auth: AuthContext, botIds: number[]): Promise<Set<number>> {
  if (!restrictedToSomeBots(auth) || botIds.length === 0) return new Set(botIds);
  const rows = await db
    .select({ id: bots.id })
    .from(bots)
    .where(and(inArray(bots.id, botIds), eq(bots.tenantId, auth.tenantId), botsOfRestricted(auth.userId)));
  return new Set(rows.map((row) => row.id));
}

/**
 * The group and the bot's other open groups that ask the same thing by the queue's own rule (their
 * questions' words overlap), locked: grouped apart before typos counted, or when a later question
 * matched another group better. Answering one answers them all.
 */
async function sameGroupsIn(tx: DbOrTx, group: GroupRow): Promise<GroupRow[]> {
  const others = await tx
    .select()
    .from(groups)
    .where(
      and(
        eq(groups.tenantId, group.tenantId),
        eq(groups.botId, group.botId),
        eq(groups.status, 'open'),
        ne(groups.id, group.id),
      ),
    )
    .orderBy(groups.id)
    .for('update');
  return [group, ...others.filter((other) => sameQuestion(group.terms, other.terms))];
}
