import type { BookingAction, MessageSourceRef, SearchHit, SearchResult } from '@parley/contracts';
import { APICallError, type LanguageModel } from 'ai';
import type { BotRow } from '../bots/bots.queries.js';
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
  actions: BookingAction[];
};

/** The bot's calendar booking configuration, when it has one. */
export type Booking = { title: string; message: string; url: string; provider: string };

export type Prepared = { model: ResolvedModel | null; found: SearchResult; booking: Booking | null };

export type AnswerInput = {
  bot: BotRow;
  question: string;
  /** Earlier messages of the conversation, oldest first (the question not included). */
  history: MessageRow[];
  /** Whether an agent could take over now (asked only when the sources say nothing). */
  agentOnline: () => Promise<boolean>;
  onChunk: (text: string) => void;
  signal?: AbortSignal;
};

/** Passages handed to the model; the extractive answer quotes fewer. */
const PASSAGES_FOR_MODEL = 5;
const PASSAGES_QUOTED = 2;
const QUOTE_CHARS = 600;
/** A vector neighbour this far or nearer counts as relevant on its own (cosine distance). */
const RELEVANT_DISTANCE = 0.45;

export const TEXTS = {
  notFound: "I couldn't find anything about that in my sources.",
  offerHuman: ' A member of our team is online: ask for a human and they will take over.',
  offerLead: ' Leave your details in the form and our team will get back to you.',
  offerRephrase: ' Try rephrasing your question, or contact the team directly.',
  extractive:
    'No language model is set up for this bot, so here are the passages from its sources that best match your question:',
  modelFailed:
    'The language model could not be reached just now, so here are the passages from my sources that best match your question:',
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
      this.retrieval.search(bot.tenantId, bot.id, question, PASSAGES_FOR_MODEL),
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

    if (!model) return this.say(input, extractive(passages, TEXTS.extractive));
    try {
      return await this.generate(input, model.model, passages, booking);
    } catch (error) {
      if (input.signal?.aborted) throw error;
      this.options.log?.(error, 'language model failed; answering with quoted passages');
      return this.say(input, extractive(passages, TEXTS.modelFailed));
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
        tools: booking ? [BOOKING_TOOL_SPEC] : undefined,
        toolChoice: booking ? { type: 'auto' } : undefined,
        abortSignal,
      }),
    );
    let text = '';
    let booked = false;
    let usage: Answer['usage'] = null;
    const reader = stream.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      const part = next.value;
      if (part.type === 'text-delta') {
        text += part.delta;
        input.onChunk(part.delta);
      } else if (part.type === 'tool-call') booked ||= part.toolName === BOOKING_TOOL;
      else if (part.type === 'finish') usage = usageOf(part.usage);
      else if (part.type === 'error') throw part.error;
    }
    if (booking && booked) {
      const answer = bookingAnswer(booking, text.trim());
      if (!text.trim()) input.onChunk(answer.text);
      return { ...answer, usage };
    }
    return {
      text: text.trim(),
      mode: 'llm' as const,
      sources: cited(text, passages),
      qnaId: null,
      usage,
      actions: [],
    };
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
    actions: [],
  };
}

/** Full-text hits matched words of the question; vector hits count only when near enough. */
function relevant(found: SearchResult): SearchHit[] {
  return found.hits.filter(
    (hit) =>
      hit.text_rank !== null || (hit.vector_distance !== null && hit.vector_distance <= RELEVANT_DISTANCE),
  );
}

function extractive(passages: SearchHit[], intro: string): Answer {
  const quoted = passages.slice(0, PASSAGES_QUOTED);
  const body = quoted.map((hit) => `${quote(hit.content)}\n\n— ${label(hit)}`).join('\n\n');
  return {
    text: `${intro}\n\n${body}`,
    mode: 'extractive',
    sources: quoted.map(sourceOf),
    qnaId: null,
    usage: null,
    actions: [],
  };
}

const quote = (content: string) => {
  const text = content.length > QUOTE_CHARS ? `${content.slice(0, QUOTE_CHARS).trimEnd()}…` : content;
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
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
});

/** The sources the answer cites as [n]; all passages given when it cites none. Deduplicated. */
function cited(text: string, passages: SearchHit[]): MessageSourceRef[] {
  const numbers = new Set([...text.matchAll(/\[(\d{1,2})\]/g)].map((m) => Number(m[1])));
  const chosen = numbers.size > 0 ? passages.filter((_, index) => numbers.has(index + 1)) : passages;
  const seen = new Set<string>();
  return chosen.map(sourceOf).filter((source) => {
    const key = `${source.source_type}|${source.page_url}|${source.page_title}|${source.page_number}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
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
