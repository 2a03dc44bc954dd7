import type { AnswerUnansweredBody, LinkUnansweredBody, QnA, UnansweredGroup } from '@parley/contracts';
import { and, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import { type Db, type DbOrTx, queryRows, sql } from '../../core/db/database.js';
import { badRequest, notFound } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import { clip } from '../../core/text.js';
import { requireBot } from '../bots/bots.queries.js';
import { bots } from '../bots/bots.schema.js';
import { sourceLanguagesOf } from '../bots/visitor-language.js';
import { notify } from '../notifications/notifications.service.js';
import type { QnaService } from '../qna/qna.service.js';
import { unansweredGroups as groups, unansweredQuestions as questions } from './unanswered.schema.js';

export type UnansweredReason = (typeof questions.$inferInsert)['reason'];

export type UnansweredInput = {
  tenantId: number;
  botId: number;
  question: string;
  conversationId?: number | null;
  reason: UnansweredReason;
  /** Reason `unsure`: the sentences the bot quoted; reason `unverified`: the model's answer not given. */
  botAnswer?: string | null;
  /** Reason `unverified`: the figures of the model's answer that the sources do not back. */
  unverified?: string[] | null;
};

type BotAnswer = { botAnswer: string; reason: UnansweredReason; unverified: string[] | null };

/** Two wordings ask the same thing when their stemmed words overlap this much (Dice coefficient). */
export const SAME_QUESTION = 0.6;
/** The open groups, most recently asked first, a new question is compared with. */
const GROUPS_COMPARED = 500;
const EXAMPLES = 3;
/** The owners are told once when a question the bot could not answer has been asked this many times. */
export const REPEATS_NOTIFIED = 3;
/** First key of the advisory lock that makes grouping one question at a time per bot. */
const GROUPING_LOCK_CLASS = 0x0a5c;

/** Dice coefficient of two sets of stemmed words: 1 for the same words, 0 for none shared. */
export function overlap(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const set = new Set(a);
  const shared = new Set(b.filter((term) => set.has(term))).size;
  return (2 * shared) / (set.size + new Set(b).size);
}

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

  /** A bot's open groups, most asked first, each with its latest other wordings. */
  async list(auth: AuthContext, botId: number): Promise<UnansweredGroup[]> {
    await requireBot(this.db, auth.tenantId, botId);
    const rows = await this.db
      .select()
      .from(groups)
      .where(and(eq(groups.tenantId, auth.tenantId), eq(groups.botId, botId), eq(groups.status, 'open')))
      .orderBy(desc(groups.askedCount), desc(groups.lastAskedAt))
      .limit(200);
    const ids = rows.map((row) => row.id);
    const [examples, suggestions, disliked, quotes, helpful, likely] = await Promise.all([
      this.examplesOf(ids),
      this.suggestionsFor(ids),
      this.dislikedIn(ids),
      this.botAnswersOf(ids),
      this.helpfulIn(ids),
      // The bot's pairs are stemmed only when there is a group to offer one for.
      rows.length > 0 ? this.qna.nearestPairOf(auth.tenantId, botId) : () => null,
    ]);
    return rows.map((row) => ({
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
    }));
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

  /** Answers a group once: it becomes a Q&A pair of its bot, queued for training, and leaves the queue. */
  async answer(auth: AuthContext, id: number, body: AnswerUnansweredBody): Promise<QnA> {
    return this.db.transaction(async (tx) => {
      const group = await this.lockOpen(tx, auth, id);
      const pair = await this.qna.createIn(tx, auth, {
        bot_id: group.botId,
        question: body.question ?? group.question,
        answer: body.answer,
      });
      await tx.update(groups).set({ status: 'answered', qnaId: pair.id }).where(eq(groups.id, id));
      return pair;
    });
  }

  /**
   * "Same as an existing answer": the group's wordings become other wordings of one of the bot's
   * pairs, which then answers them (no training: retrieval reads them at once), and the group
   * leaves the queue.
   */
  async link(auth: AuthContext, id: number, body: LinkUnansweredBody): Promise<QnA> {
    return this.db.transaction(async (tx) => {
      const group = await this.lockOpen(tx, auth, id);
      const asked = await tx
        .select({ question: questions.question })
        .from(questions)
        .where(eq(questions.groupId, id))
        .orderBy(questions.askedAt);
      const wordings = [group.question, ...asked.map((row) => row.question)];
      const pair = await this.qna.addWordingsIn(tx, auth, body.qna_id, group.botId, wordings);
      await tx.update(groups).set({ status: 'answered', qnaId: pair.id }).where(eq(groups.id, id));
      return pair;
    });
  }

  /** Takes a group out of the queue without answering it (spam, out of scope). */
  async dismiss(auth: AuthContext, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.lockOpen(tx, auth, id);
      await tx.update(groups).set({ status: 'dismissed' }).where(eq(groups.id, id));
    });
  }

  private async lockOpen(tx: DbOrTx, auth: AuthContext, id: number) {
    const [group] = await tx
      .select()
      .from(groups)
      .where(and(eq(groups.id, id), eq(groups.tenantId, auth.tenantId)))
      .for('update');
    if (!group) throw notFound('Question not found');
    if (group.status !== 'open') throw badRequest('This question has already left the queue');
    return group;
  }
}

/**
 * Adds a visitor's question to its bot's open group asking the same thing, or to a new one. Needs
 * the database alone, so whatever notices such a question (the chat, a thumbs down) can queue it.
 */
export async function recordQuestion(db: Db, input: UnansweredInput): Promise<number | null> {
  const question = queuedText(input.question);
  const terms = question ? await stemmedTerms(db, input.tenantId, input.botId, question) : [];
  if (terms.length === 0) return null; // nothing but stop words: nothing to learn from
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${GROUPING_LOCK_CLASS}, ${input.botId})`);
    const already = await queuedBefore(tx, input, question);
    if (already !== null) return already;
    const open = await tx
      .select({ id: groups.id, terms: groups.terms })
      .from(groups)
      .where(
        and(eq(groups.tenantId, input.tenantId), eq(groups.botId, input.botId), eq(groups.status, 'open')),
      )
      .orderBy(desc(groups.lastAskedAt))
      .limit(GROUPS_COMPARED);
    const best = open
      .map((group) => ({ id: group.id, score: overlap(terms, group.terms) }))
      .reduce<{ id: number; score: number } | null>((a, b) => (!a || b.score > a.score ? b : a), null);
    let groupId: number;
    if (best && best.score >= SAME_QUESTION) {
      groupId = best.id;
      const [grown] = await tx
        .update(groups)
        .set({ askedCount: sql`${groups.askedCount} + 1`, lastAskedAt: new Date() })
        .where(eq(groups.id, groupId))
        .returning({ question: groups.question, askedCount: groups.askedCount });
      if (grown!.askedCount === REPEATS_NOTIFIED) await notifyRepeated(tx, input, groupId, grown!.question);
    } else {
      const [created] = await tx
        .insert(groups)
        .values({ tenantId: input.tenantId, botId: input.botId, question, terms })
        .returning({ id: groups.id });
      groupId = created!.id;
    }
    await tx.insert(questions).values({
      tenantId: input.tenantId,
      groupId,
      question,
      conversationId: input.conversationId ?? null,
      reason: input.reason,
      botAnswer: input.botAnswer ?? null,
      unverified: input.unverified ?? null,
    });
    return groupId;
  });
}

/**
 * The bell, once per group: visitors keep asking something the bot cannot answer (is not sure of, or
 * answered to a thumbs down), and one answer in the Q&A screen ends it. Stored with the question, so it exists only if that does.
 */
async function notifyRepeated(tx: DbOrTx, input: UnansweredInput, groupId: number, question: string) {
  const [bot] = await tx
    .select({ name: bots.botName })
    .from(bots)
    .where(and(eq(bots.id, input.botId), eq(bots.tenantId, input.tenantId)));
  await notify(tx, {
    tenantId: input.tenantId,
    kind: 'question_repeated',
    title: `Asked ${REPEATS_NOTIFIED} times: “${clip(question, 80)}”`,
    body: `${bot?.name ?? 'Your bot'} did not know, was not sure, or its answer was rated down. Answer it once in Q&A and the bot will from then on.`,
    link: `/bot/knowledge/qna?bot=${input.botId}`,
    dedupeKey: `unanswered:${groupId}`,
  });
}

/** A question as the queue keeps it: spaces folded, at most 2,000 characters. */
const queuedText = (question: string) => question.replace(/\s+/g, ' ').trim().slice(0, 2000);

/**
 * Takes back what `recordQuestion` queued for this conversation's question with this reason (a
 * thumbs down taken back): the group counts it no more, and goes when nothing else is in it.
 */
export async function withdrawQuestion(db: Db, input: UnansweredInput): Promise<void> {
  if (!input.conversationId) return;
  const question = queuedText(input.question);
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${GROUPING_LOCK_CLASS}, ${input.botId})`);
    const row = await queuedRow(tx, input, question, input.reason);
    if (!row) return;
    await tx.delete(questions).where(eq(questions.id, row.id));
    const [left] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(questions)
      .where(eq(questions.groupId, row.groupId));
    if (left!.n === 0) await tx.delete(groups).where(eq(groups.id, row.groupId));
    else
      await tx
        .update(groups)
        .set({ askedCount: sql`greatest(${groups.askedCount} - 1, 1)` })
        .where(eq(groups.id, row.groupId));
  });
}

/**
 * Forgets a question its asker unsent (Instagram): every row of it from that conversation, in any
 * group, open or not. A group left empty goes; one that showed these words shows its latest other
 * wording instead, its terms stemmed from that.
 */
export async function forgetQuestion(
  db: Db,
  input: { tenantId: number; botId: number; conversationId: number; question: string },
): Promise<void> {
  const question = queuedText(input.question);
  if (!question) return;
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${GROUPING_LOCK_CLASS}, ${input.botId})`);
    const removed = await tx
      .delete(questions)
      .where(
        and(
          eq(questions.tenantId, input.tenantId),
          eq(questions.conversationId, input.conversationId),
          eq(questions.question, question),
        ),
      )
      .returning({ groupId: questions.groupId });
    for (const groupId of new Set(removed.map((row) => row.groupId))) {
      const gone = removed.filter((row) => row.groupId === groupId).length;
      await settleGroup(tx, input, groupId, question, gone);
    }
  });
}

/** A group after `gone` of its rows with these words left it: deleted when empty, else counted down and reworded. */
async function settleGroup(
  tx: DbOrTx,
  input: { tenantId: number; botId: number },
  groupId: number,
  question: string,
  gone: number,
): Promise<void> {
  const [latest] = await tx
    .select({ question: questions.question })
    .from(questions)
    .where(eq(questions.groupId, groupId))
    .orderBy(desc(questions.askedAt))
    .limit(1);
  if (!latest) {
    await tx.delete(groups).where(eq(groups.id, groupId));
    return;
  }
  const [group] = await tx
    .update(groups)
    .set({ askedCount: sql`greatest(${groups.askedCount} - ${gone}, 1)` })
    .where(eq(groups.id, groupId))
    .returning({ question: groups.question });
  if (group?.question !== question) return;
  const terms = await stemmedTerms(tx, input.tenantId, input.botId, latest.question);
  await tx.update(groups).set({ question: latest.question, terms }).where(eq(groups.id, groupId));
}

/**
 * A visitor's thumbs up on an answer said not sure marks its queued question: the quote helped
 * them, which the owner reads as a hint to keep it as the answer. The question stays queued, as one
 * visitor's word is not the owner's; a thumbs taken back unmarks it.
 */
export async function markHelpful(db: Db, input: UnansweredInput, helpful: boolean): Promise<void> {
  const question = queuedText(input.question);
  const row = await queuedRow(db, input, question, 'unsure');
  if (row) await db.update(questions).set({ ratedHelpful: helpful }).where(eq(questions.id, row.id));
}

/**
 * The open group already holding this question from this conversation: the bot's "I don't know"
 * queues it, and the visitor then asking for a person would queue the same message again, so one
 * question asked once would read "asked 2 times".
 */
async function queuedBefore(tx: DbOrTx, input: UnansweredInput, question: string): Promise<number | null> {
  return (await queuedRow(tx, input, question))?.groupId ?? null;
}

/** This conversation's row of the question in one of the bot's open groups (with this reason, if given). */
async function queuedRow(
  tx: DbOrTx,
  input: UnansweredInput,
  question: string,
  reason?: UnansweredReason,
): Promise<{ id: number; groupId: number } | undefined> {
  if (!input.conversationId) return undefined;
  const [row] = await tx
    .select({ id: questions.id, groupId: questions.groupId })
    .from(questions)
    .innerJoin(groups, eq(groups.id, questions.groupId))
    .where(
      and(
        eq(questions.conversationId, input.conversationId),
        eq(questions.question, question),
        reason ? eq(questions.reason, reason) : undefined,
        eq(groups.botId, input.botId),
        eq(groups.status, 'open'),
      ),
    )
    .limit(1);
  return row;
}

/**
 * The question's words as PostgreSQL stems them in the languages of the bot's sources (as its pairs
 * are stemmed, so a group finds its likely pair), stop words left out.
 */
async function stemmedTerms(db: DbOrTx, tenantId: number, botId: number, text: string): Promise<string[]> {
  const languages = await sourceLanguagesOf(db, tenantId, botId);
  const [row] = await queryRows<{ terms: string[] }>(
    db,
    sql`SELECT array(SELECT DISTINCT t FROM unnest(${`{${(languages.length > 0 ? languages : ['english']).join(',')}}`}::regconfig[]) l,
        unnest(tsvector_to_array(to_tsvector(l, ${text}))) t) AS terms`,
  );
  return row?.terms ?? [];
}
