import { and, desc, eq } from 'drizzle-orm';
import { type Db, type DbOrTx, queryRows, sql } from '../../core/db/database.js';
import { clip } from '../../core/text.js';
import { bots } from '../bots/bots.schema.js';
import { sourceLanguagesOf } from '../bots/visitor-language.js';
import { notify } from '../notifications/notifications.service.js';
import { overlap, SAME_QUESTION } from './same-question.js';
import { unansweredGroups as groups, unansweredQuestions as questions } from './unanswered.schema.js';

/**
 * The visitors' side of the queue: what the chat, a thumbs down or an unsent message adds to it or
 * takes from it. Needs the database alone, so whatever notices such a question can queue it.
 */

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

/** The open groups, most recently asked first, a new question is compared with. */
const GROUPS_COMPARED = 500;
/** The owners are told once when a question the bot could not answer has been asked this many times. */
export const REPEATS_NOTIFIED = 3;
/** First key of the advisory lock that makes grouping one question at a time per bot. */
const GROUPING_LOCK_CLASS = 0x0a5c;

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
    const joined = best && best.score >= SAME_QUESTION ? best.id : null;
    const groupId =
      joined ??
      (
        await tx
          .insert(groups)
          .values({ tenantId: input.tenantId, botId: input.botId, question, terms })
          .returning({ id: groups.id })
      )[0]!.id;
    await tx.insert(questions).values({
      tenantId: input.tenantId,
      groupId,
      question,
      conversationId: input.conversationId ?? null,
      reason: input.reason,
      botAnswer: input.botAnswer ?? null,
      unverified: input.unverified ?? null,
    });
    if (joined === null) return groupId;
    const { before, after, question: asked } = await recount(tx, groupId, new Date());
    if (before < REPEATS_NOTIFIED && after >= REPEATS_NOTIFIED)
      await notifyRepeated(tx, input, groupId, asked);
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

/**
 * Sets a group's count to the conversations that asked it (a question asked outside one counts on
 * its own): a visitor rewording a question the bot did not know, in one conversation, asked it
 * once, and must not outrank two visitors, nor ring the bell as "asked 3 times". `askedAt` moves
 * its last asked time. The count before and after, and the group's question.
 */
async function recount(tx: DbOrTx, groupId: number, askedAt?: Date) {
  const [before] = await tx.select({ n: groups.askedCount }).from(groups).where(eq(groups.id, groupId));
  const [group] = await tx
    .update(groups)
    .set({
      askedCount: sql`greatest(1, (select count(distinct coalesce(${questions.conversationId}, -${questions.id}))::int
        from ${questions} where ${questions.groupId} = ${groupId}))`,
      ...(askedAt ? { lastAskedAt: askedAt } : {}),
    })
    .where(eq(groups.id, groupId))
    .returning({ question: groups.question, askedCount: groups.askedCount });
  return { before: before?.n ?? 0, after: group!.askedCount, question: group!.question };
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
    else await recount(tx, row.groupId);
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
    for (const groupId of new Set(removed.map((row) => row.groupId)))
      await settleGroup(tx, input, groupId, question);
  });
}

/** A group after its rows with these words left it: deleted when empty, else counted again and reworded. */
async function settleGroup(
  tx: DbOrTx,
  input: { tenantId: number; botId: number },
  groupId: number,
  question: string,
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
  const group = await recount(tx, groupId);
  if (group.question !== question) return;
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
