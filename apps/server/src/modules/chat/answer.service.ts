import {
  type BookingAction,
  HANDOFF_TEXTS,
  type MessageAction,
  type MessageSourceRef,
  type OfferAction,
  type SearchHit,
  type SearchResult,
} from '@parley/contracts';
import { APICallError, type LanguageModel } from 'ai';
import type { BotRow } from '../bots/bots.queries.js';
import { CODE_FENCE } from '../knowledge/markdown.js';
import type { RetrievalService } from '../knowledge/retrieval.service.js';
import type { LlmService, ResolvedModel } from '../llm/llm.service.js';
import type { AnswerMode, MessageRow } from './chat.queries.js';

/** What the bot wrote, where it came from and what it cost. */
export type Answer = {
  text: string;
  mode: AnswerMode;
  sources: MessageSourceRef[];
  qnaId: number | null;
  usage: { promptTokens: number; completionTokens: number } | null;
  actions: MessageAction[];
  /** Not answered because the sources covered too little of the question (a person offered instead). */
  lowConfidence?: boolean;
  /** The model called the hand-off tool: the visitor wants a person. */
  wantsPerson?: boolean;
};

/** The bot's calendar booking configuration, when it has one. */
export type Booking = { title: string; message: string; url: string; provider: string };

export type Prepared = { model: ResolvedModel | null; found: SearchResult; booking: Booking | null };

export type AnswerInput = {
  bot: BotRow;
  conversationId: number;
  question: string;
  /** Earlier messages of the conversation, oldest first (the question not included). */
  history: MessageRow[];
  /** Whether an agent could take over now (asked only when the sources say nothing). */
  agentOnline: () => Promise<boolean>;
  onChunk: (text: string) => void;
  signal?: AbortSignal;
};

/** Passages handed to the model. */
const PASSAGES_FOR_MODEL = 5;
/** Passages searched: enough for the model, and for a bot citing 5 pages to find 5 distinct ones. */
const PASSAGES_SEARCHED = 10;
/** Sentences an extractive answer takes from the best pages. */
const EXTRACT_SENTENCES = 3;
/** A vector neighbour this far or nearer counts as relevant on its own (cosine distance). */
const RELEVANT_DISTANCE = 0.45;

export const TEXTS = {
  notFound: "I couldn't find anything about that in my sources.",
  offerHuman: ' A member of our team is online: ask for a human and they will take over.',
  offerLead: ' Leave your details in the form and our team will get back to you.',
  offerRephrase: ' Try rephrasing your question, or contact the team directly.',
} as const;

/**
 * Answers a question from a bot's sources (console.md section 3 Chat message; issue 5 item 4): a
 * matching Q&A pair directly; otherwise the retrieved passages through the bot's language model,
 * or quoted as they are when it has none. When nothing relevant is found it says so and never
 * invents a source.
 */
export class AnswerService {
  constructor(
    private readonly retrieval: RetrievalService,
    private readonly llms: LlmService,
    private readonly options: {
      /** A model slower than this is given up on; the visitor gets the quoted passages instead. */
      timeoutMs: number;
      log?: (error: unknown, message: string) => void;
      /** Parley's own answer about an order (stores), or null when the message is not about one. */
      orderReply?: (input: AnswerInput) => Promise<string | null>;
    },
  ) {}

  /**
   * What an answer needs that does not depend on the question being stored: the bot's model, its
   * booking and the retrieval. The chat starts it beside the message's writes, so the model is asked
   * as soon as possible.
   */
  async prepare(
    bot: BotRow,
    question: string,
    booking: Promise<Booking | null>,
    model: Promise<ResolvedModel | null>,
  ): Promise<Prepared> {
    const [resolved, found, bookingRow] = await Promise.all([
      model,
      this.retrieval.search(bot.tenantId, bot.id, question, PASSAGES_SEARCHED),
      booking,
    ]);
    return { model: resolved, found, booking: bookingRow };
  }

  /** The bot's language model, when it has one that is active. */
  modelOf(bot: BotRow): Promise<ResolvedModel | null> {
    return bot.llmModel ? this.llms.resolve(bot.tenantId, Number(bot.llmModel)) : Promise.resolve(null);
  }

  async answer(input: AnswerInput, prepared: Prepared): Promise<Answer> {
    const { model, found, booking } = prepared;
    const order = await this.options.orderReply?.(input);
    if (order)
      return this.say(input, {
        text: order,
        mode: 'order',
        sources: [],
        qnaId: null,
        usage: null,
        actions: [],
      });
    // Without a model, intent phrases decide; with one, the model calls the booking tool itself.
    if (booking && !model && BOOKING_INTENT.test(input.question)) {
      return this.say(input, bookingAnswer(booking, ''));
    }
    if (found.qna_match) return this.say(input, qnaAnswer(found.qna_match));
    const passages = relevant(found);
    if (passages.length === 0) {
      if (booking && BOOKING_INTENT.test(input.question)) return this.say(input, bookingAnswer(booking, ''));
      return this.say(input, notFound(input, await input.agentOnline()));
    }
    const { bot } = input;
    if (offersPerson(bot) && confidenceOf(input.question, passages) < bot.handoffConfidence)
      return this.say(input, unsure());

    if (!model) return this.say(input, extractive(passages, input.question, input.bot.maxCitations));
    try {
      return await this.generate(input, model.model, passages.slice(0, PASSAGES_FOR_MODEL), booking);
    } catch (error) {
      if (input.signal?.aborted) throw error;
      // The visitor is not told about models: they get the sentences of the sources that answer best.
      this.options.log?.(error, 'language model failed; answering with sentences from the sources');
      return this.say(input, extractive(passages, input.question, input.bot.maxCitations));
    }
  }

  /**
   * Streams the model's answer through the provider's own AI SDK model (LanguageModelV3.doStream):
   * the provider builds the request and parses its stream; each text delta goes straight to the
   * visitor (bench/chat measures first token → first frame), without streamText's further stages,
   * whose tool loop and retries an answer with one optional tool call does not need.
   */
  private async generate(
    input: AnswerInput,
    model: LanguageModel,
    passages: SearchHit[],
    booking: Booking | null,
  ) {
    const provider = providerModel(model);
    const tools = [
      ...(booking ? [BOOKING_TOOL_SPEC] : []),
      ...(offersPerson(input.bot) ? [HANDOFF_TOOL_SPEC] : []),
    ];
    const abortSignal = input.signal
      ? AbortSignal.any([input.signal, AbortSignal.timeout(this.options.timeoutMs)])
      : AbortSignal.timeout(this.options.timeoutMs);
    const { stream } = await withOneRetry(() =>
      provider.doStream({
        prompt: [
          { role: 'system', content: systemPrompt(input.bot, passages, booking !== null) },
          ...historyPrompt(input.history),
          { role: 'user', content: [{ type: 'text', text: input.question }] },
        ],
        temperature: input.bot.temperature,
        tools: tools.length ? tools : undefined,
        toolChoice: tools.length ? { type: 'auto' } : undefined,
        abortSignal,
      }),
    );
    let text = '';
    let booked = false;
    let wantsPerson = false;
    let usage: Answer['usage'] = null;
    const reader = stream.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      const part = next.value;
      if (part.type === 'text-delta') {
        text += part.delta;
        input.onChunk(part.delta);
      } else if (part.type === 'tool-call') {
        booked ||= part.toolName === BOOKING_TOOL;
        wantsPerson ||= part.toolName === HANDOFF_TOOL;
      } else if (part.type === 'finish') usage = usageOf(part.usage);
      else if (part.type === 'error') throw part.error;
    }
    if (booking && booked) {
      const answer = bookingAnswer(booking, text.trim());
      if (!text.trim()) input.onChunk(answer.text);
      return { ...answer, usage };
    }
    const { text: final, sources } = cited(text.trim(), passages, input.bot.maxCitations);
    return { text: final, mode: 'llm' as const, sources, qnaId: null, usage, actions: [], wantsPerson };
  }

  /** A ready answer, streamed in one piece so every answer reaches the client the same way. */
  private say(input: AnswerInput, answer: Answer): Answer {
    input.onChunk(answer.text);
    return answer;
  }
}

/** Visitors asking to meet: book, schedule, an appointment, a demo, a call... */
export const BOOKING_INTENT =
  /\b(book(ing)?|schedul(e|ing)|appointment|meeting|demo|reserve|reservation|slot|call ?back|set up a call)\b/i;
const BOOKING_TOOL = 'show_booking_button';
const BOOKING_TOOL_SPEC = {
  type: 'function' as const,
  name: BOOKING_TOOL,
  description:
    'Show the visitor a button to book a meeting, call, demo or appointment. Call it whenever the visitor wants to book, schedule or arrange one.',
  inputSchema: { type: 'object' as const, properties: {}, additionalProperties: false },
};

const HANDOFF_TOOL = 'hand_to_person';
const HANDOFF_TOOL_SPEC = {
  type: 'function' as const,
  name: HANDOFF_TOOL,
  description:
    'Hand the conversation to a person from the team. Call it when the visitor asks to talk to a human, an agent or someone from the team.',
  inputSchema: { type: 'object' as const, properties: {}, additionalProperties: false },
};

/** The models Parley builds are provider objects (llm.models.ts), never gateway model ids. */
type ProviderModel = Extract<LanguageModel, { specificationVersion: 'v3' }>;
type PromptMessage = Parameters<ProviderModel['doStream']>[0]['prompt'][number];
type ProviderUsage = Extract<
  Awaited<ReturnType<ProviderModel['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never,
  { type: 'finish' }
>['usage'];

function providerModel(model: LanguageModel): ProviderModel {
  if (typeof model === 'string' || model.specificationVersion !== 'v3')
    throw new Error('unsupported language model');
  return model;
}

/** One retry of a request that failed in a way worth retrying (as streamText's maxRetries: 1). */
async function withOneRetry<T>(call: () => PromiseLike<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!APICallError.isInstance(error) || !error.isRetryable) throw error;
    return call();
  }
}

function usageOf(usage: ProviderUsage): Answer['usage'] {
  return { promptTokens: usage.inputTokens.total ?? 0, completionTokens: usage.outputTokens.total ?? 0 };
}

function bookingAnswer(booking: Booking, text: string): Answer {
  return {
    text: text || booking.message,
    mode: 'booking',
    sources: [],
    qnaId: null,
    usage: null,
    actions: [{ type: 'booking', title: booking.title, url: booking.url, provider: booking.provider }],
  };
}

function qnaAnswer(match: NonNullable<SearchResult['qna_match']>): Answer {
  return {
    text: match.answer,
    mode: 'qna',
    sources: [{ source_type: 'qna', page_title: match.question, page_url: null, page_number: null }],
    qnaId: match.qna_id,
    usage: null,
    actions: [],
  };
}

function notFound(input: AnswerInput, agentOnline: boolean): Answer {
  const lead = (input.bot.leadFormConfig as { enabled?: boolean } | null)?.enabled;
  const offer = agentOnline ? TEXTS.offerHuman : lead ? TEXTS.offerLead : TEXTS.offerRephrase;
  return {
    text: TEXTS.notFound + offer,
    mode: 'not_found',
    sources: [],
    qnaId: null,
    usage: null,
    actions: offersPerson(input.bot) ? [PERSON] : [],
  };
}

const PERSON: OfferAction = { type: 'human', title: HANDOFF_TEXTS.button };
const offersPerson = (bot: BotRow) => bot.humanButton !== 'never';

/**
 * How sure the bot can be of an answer from these passages: the share of the question's meaningful
 * words the best passage (its text, title and section) holds.
 */
export function confidenceOf(question: string, passages: SearchHit[]): number {
  const terms = wordsOf(question);
  const best = passages[0];
  if (terms.size === 0 || !best) return best ? 1 : 0;
  const held = wordsOf(`${best.page_title ?? ''} ${best.heading_path ?? ''} ${best.content}`);
  return [...terms].filter((term) => held.has(term)).length / terms.size;
}

/** Below the bot's confidence threshold: a person is offered instead of a guess. */
function unsure(): Answer {
  return {
    text: HANDOFF_TEXTS.offerHuman,
    mode: 'not_found',
    sources: [],
    qnaId: null,
    usage: null,
    actions: [PERSON],
    lowConfidence: true,
  };
}

/** Full-text hits matched words of the question; vector hits count only when near enough. */
function relevant(found: SearchResult): SearchHit[] {
  return found.hits.filter(
    (hit) =>
      hit.text_rank !== null || (hit.vector_distance !== null && hit.vector_distance <= RELEVANT_DISTANCE),
  );
}

/**
 * The answer without a model: the few sentences of the best pages that share the most words with
 * the question, in reading order, whole sentences only (no navigation line, no half sentence, no
 * code), with the pages they came from as its sources. Every passage found of those pages is read,
 * not only each page's best: the sentence that answers is often in the page's second passage.
 * Never a word about models or setup: the console's playground shows the owner which mode answered
 * (answer_mode).
 */
export function extractive(passages: SearchHit[], question: string, maxSources: number): Answer {
  const pages = distinctPages(passages, maxSources);
  const pageOf = new Map(pages.map((hit, page) => [hit.document_id, page]));
  const terms = wordsOf(question);
  const seen = new Set<string>();
  const candidates = passages.flatMap((hit, passage) => {
    const page = pageOf.get(hit.document_id);
    if (page === undefined) return [];
    return sentencesOf(hit.content).flatMap((text, position) => {
      // Chunks overlap: a sentence carried into the next chunk is one sentence.
      if (seen.has(text)) return [];
      seen.add(text);
      return [{ text, page, passage, position, score: overlapWith(terms, text) }];
    });
  });
  const readingOrder = (a: Sentence, b: Sentence) =>
    a.page - b.page || a.passage - b.passage || a.position - b.position;
  let chosen = candidates
    .filter((sentence) => sentence.score > 0)
    .sort((a, b) => b.score - a.score || readingOrder(a, b))
    .slice(0, EXTRACT_SENTENCES);
  // Matched by its headings alone: the best page's opening sentences.
  if (chosen.length === 0) chosen = candidates.filter((c) => c.page === 0).slice(0, 2);
  // The page ranked first is always quoted and cited: retrieval trusts it most (issue 14).
  const fromBest = candidates
    .filter((c) => c.page === 0)
    .sort((a, b) => b.score - a.score || readingOrder(a, b));
  if (fromBest[0] && !chosen.some((c) => c.page === 0))
    chosen = [...chosen.slice(0, EXTRACT_SENTENCES - 1), fromBest[0]];
  chosen.sort(readingOrder);
  const used = pages.filter((_, index) => chosen.some((c) => c.page === index));
  const text = chosen.map((c) => c.text).join(' ') || firstWords(pages[0]?.content ?? '');
  return {
    text,
    mode: 'extractive',
    sources: (used.length > 0 ? used : pages.slice(0, 1)).map(sourceOf),
    qnaId: null,
    usage: null,
    actions: [],
  };
}

/** A sentence an extractive answer may quote: its page's rank, and where it stands in that page's passages. */
type Sentence = { text: string; page: number; passage: number; position: number; score: number };

/** The best passage of each page (document), in rank order, at most `max` pages. */
export function distinctPages(passages: SearchHit[], max: number): SearchHit[] {
  const seen = new Set<number>();
  const pages: SearchHit[] = [];
  for (const hit of passages) {
    if (seen.has(hit.document_id)) continue;
    seen.add(hit.document_id);
    pages.push(hit);
    if (pages.length === max) break;
  }
  return pages;
}

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
/** A line that starts a block of its own even without a blank line before it: a list item, a quote, a table row. */
const BLOCK_START = /^\s*([-*+>|#]|\d+[.)])\s/;

/**
 * A passage's whole sentences. Code is not prose; a paragraph's lines are one text (Markdown wraps
 * its lines, a page's source may too), so a sentence broken over two lines is read whole; then a
 * line of a list, table or menu with no sentence end, or a fragment of fewer than four words, is
 * navigation or a label, not an answer.
 */
function sentencesOf(content: string): string[] {
  const sentences: string[] = [];
  for (const paragraph of withoutCode(content).split(/\n\s*\n/)) {
    for (const block of unwrap(paragraph)) {
      for (const sentence of segment(block)) {
        if (
          /[.!?…)]$/.test(sentence) &&
          sentence.split(' ').length >= 4 &&
          !sentence.includes(' | ') &&
          linkShare(sentence) < LINK_LIST_SHARE
        )
          sentences.push(sentence);
      }
    }
  }
  return sentences;
}

/** Abbreviations the segmenter takes for a sentence's end ("e.g. Use a string"). */
const ABBREVIATION_END = /(\b(e\.g|i\.e|cf|vs|etc|approx)\.|\(e\.g\.|\(i\.e\.)$/i;
/** A Markdown link's target, which may hold dots ("(../Reference/Plugins.md)") the segmenter would split at. */
const LINK_TARGET = /\]\(([^)\s]+)\)/g;

/** A block's sentences, whitespace collapsed, with link targets and abbreviations kept inside them. */
function segment(block: string): string[] {
  const targets: string[] = [];
  const masked = block.replace(
    LINK_TARGET,
    (_, target: string) => `](\uE000${targets.push(target) - 1}\uE001)`,
  );
  const sentences: string[] = [];
  let pending = '';
  for (const { segment: piece } of segmenter.segment(masked)) {
    pending += piece;
    if (!ABBREVIATION_END.test(pending.trim())) {
      sentences.push(pending);
      pending = '';
    }
  }
  if (pending) sentences.push(pending);
  return sentences.map((sentence) =>
    sentence
      .replace(/\uE000(\d+)\uE001/g, (_, i: string) => targets[Number(i)]!)
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

/** Above this share of its characters in Markdown links, a line is a list of links (a table of contents), not prose. */
const LINK_LIST_SHARE = 0.5;

const linkShare = (sentence: string) =>
  [...sentence.matchAll(/\[[^\]]*\]\([^)]*\)/g)].reduce((n, m) => n + m[0].length, 0) / sentence.length;

/**
 * The text with its fenced code blocks blanked. A chunk may begin inside a block the chunker cut:
 * with an odd number of fences, the first is taken for a closing one unless it names a language.
 */
function withoutCode(content: string): string {
  const lines = content.split('\n');
  const fences = lines.filter((line) => CODE_FENCE.test(line));
  let inCode = fences.length % 2 === 1 && /^\s*(```|~~~)\s*$/.test(fences[0]!);
  return lines
    .map((line) => {
      if (CODE_FENCE.test(line)) {
        inCode = !inCode;
        return '';
      }
      return inCode ? '' : line;
    })
    .join('\n');
}

/** A paragraph's blocks: its lines joined, except where a line ends a sentence or the next starts a block. */
function unwrap(paragraph: string): string[] {
  const blocks: string[] = [];
  for (const line of paragraph.split('\n')) {
    const previous = blocks.at(-1);
    if (previous !== undefined && !/[.!?:;]\s*$/.test(previous) && !BLOCK_START.test(line))
      blocks[blocks.length - 1] = `${previous} ${line.trim()}`;
    else blocks.push(line.replace(BLOCK_START, '').trim());
  }
  return blocks.filter(Boolean);
}

const STOP_WORDS = new Set(
  (
    'the a an and or but of to in on at for with by from is are was were be been do does did can could how ' +
    'what when where which who why will would i you we they it my your our their this that these those there ' +
    'here about into as if not no yes me us them have has had any some'
  ).split(' '),
);

/** Meaningful words, cut to their first five letters (a cheap stem: ship, shipping). */
function wordsOf(text: string): Set<string> {
  return new Set(
    (text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [])
      .filter((word) => word.length > 1 && !STOP_WORDS.has(word))
      .map((word) => word.slice(0, 5)),
  );
}

const overlapWith = (terms: Set<string>, sentence: string) =>
  [...wordsOf(sentence)].filter((word) => terms.has(word)).length;

const firstWords = (content: string) => {
  const words = content.replace(/\s+/g, ' ').trim().split(' ');
  return words.length > 40 ? `${words.slice(0, 40).join(' ')}…` : words.join(' ');
};

const label = (hit: SearchHit) =>
  [hit.page_title ?? hit.page_url ?? 'Untitled', hit.page_number ? `page ${hit.page_number}` : null]
    .filter(Boolean)
    .join(', ');

const sourceOf = (hit: SearchHit): MessageSourceRef => ({
  source_type: hit.source_type,
  page_number: hit.page_number,
  page_url: hit.page_url,
  page_title: hit.page_title,
  heading_path: hit.heading_path,
  synced_at: hit.synced_at,
});

/**
 * The pages the model's answer cites as [n], each once and in the order first cited, at most
 * `max` (the bot's sources per answer); the markers renumbered to match that list ([2] and [4] become [1] and [2]), and a
 * marker for no passage given removed, so no source is ever invented. An answer citing none lists
 * the best pages of what it was given.
 */
export function cited(
  text: string,
  passages: SearchHit[],
  max: number,
): { text: string; sources: MessageSourceRef[] } {
  const order: number[] = [];
  const numberOf = new Map<number, number>();
  for (const match of text.matchAll(/\[(\d{1,2})\]/g)) {
    const hit = passages[Number(match[1]) - 1];
    if (!hit || numberOf.has(hit.document_id) || order.length >= max) continue;
    order.push(hit.document_id);
    numberOf.set(hit.document_id, order.length);
  }
  const best = distinctPages(passages, passages.length);
  if (order.length === 0)
    return { text: text.replace(/\s?\[\d{1,2}\]/g, ''), sources: best.slice(0, max).map(sourceOf) };
  const renumbered = text.replace(/\s?\[(\d{1,2})\]/g, (marker, n: string) => {
    const number = numberOf.get(passages[Number(n) - 1]?.document_id ?? -1);
    return number ? marker.replace(/\d+/, String(number)) : '';
  });
  const byDocument = new Map(best.map((hit) => [hit.document_id, hit]));
  return { text: renumbered, sources: order.map((id) => sourceOf(byDocument.get(id)!)) };
}

/** Instructions, guardrails and the numbered passages (issue 5 item 4). */
export function systemPrompt(bot: BotRow, passages: SearchHit[], canBook = false): string {
  const knowledge = bot.internet
    ? 'If the sources do not cover the question, say so plainly, then you may add general knowledge, clearly marked as not coming from the sources.'
    : 'If the sources do not cover the question, say plainly that you do not have that information. Do not use outside knowledge.';
  const sources = passages
    .map(
      (hit, index) =>
        `[${index + 1}] ${label(hit)}${hit.page_url ? ` (${hit.page_url})` : ''}\n${hit.content}`,
    )
    .join('\n\n');
  return [
    `You are ${bot.botName}, an assistant answering visitors on behalf of this business.`,
    bot.prompt?.trim() ? `Instructions from the business:\n${bot.prompt.trim()}` : null,
    `Answer from the numbered sources below and cite them like [1]. ${knowledge} Never invent sources, links, prices or facts.`,
    canBook ? `When the visitor wants to book or schedule a meeting, call ${BOOKING_TOOL}.` : null,
    `Sources:\n${sources}`,
  ]
    .filter(Boolean)
    .join('\n\n');
}

/** The last turns of the conversation as prompt messages: agents and the bot speak as the assistant. */
function historyPrompt(history: MessageRow[]): PromptMessage[] {
  return history.map((row) => ({
    role: row.messageType === 'user' ? ('user' as const) : ('assistant' as const),
    content: [{ type: 'text' as const, text: row.message }],
  }));
}
