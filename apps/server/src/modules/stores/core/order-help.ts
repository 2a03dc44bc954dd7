import type { OrderData } from '@parley/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { Db } from '../../../core/db/database.js';
import type { RecordRow } from '../stores.queries.js';
import { storeRecords, stores } from '../stores.schema.js';
import type { StoreCore } from './store-core.js';

export const ORDER_TEXTS = {
  askBoth:
    'I can help with your order. Please send your order number and the email address or phone number used for the order.',
  askContact: (number: string) =>
    `To look up order ${number}, please also send the email address or phone number used for the order.`,
  notFound:
    "I couldn't find an order with that number and those contact details. Please check both and try again.",
  tooMany: 'Too many attempts to look up an order. Please try again in a few minutes, or ask for a person.',
} as const;

/** What a visitor's message says about an order: its number and the contact on it, if given. */
export type OrderAsk = { number: string | null; email: string | null; phone: string | null };

const ORDER_INTENT =
  /\b(order|orders|track(ing)?|shipment|shipping status|deliver(y|ed)?|package|parcel|refund status)\b/i;
const ORDER_NUMBER =
  /(?:#\s*|\border\s*(?:number|no\.?|num|id)?\s*(?:is\s*)?[:#]?\s*)([a-z]{0,4}-?\d{3,12})\b/i;
const EMAIL = /[^\s@<>(),;:"']+@[^\s@<>(),;:"']+\.[a-z]{2,}/i;
const PHONE = /\+?\d[\d\s().-]{6,18}\d/;

export function readOrderAsk(text: string): OrderAsk {
  const email = text.match(EMAIL)?.[0]?.toLowerCase() ?? null;
  const withoutEmail = email ? text.replace(EMAIL, ' ') : text;
  const number = withoutEmail.match(ORDER_NUMBER)?.[1] ?? null;
  const rest = number ? withoutEmail.replace(ORDER_NUMBER, ' ') : withoutEmail;
  const phoneText = rest.match(PHONE)?.[0] ?? null;
  const phone = phoneText && digits(phoneText).length >= 7 ? digits(phoneText) : null;
  return { number: number ? number.toLowerCase() : null, email, phone };
}

const digits = (value: string) => value.replace(/\D/g, '');

/** The contact matches the order's: the same email, or the same phone number (its last 7+ digits). */
export function contactMatches(order: OrderData, ask: OrderAsk): boolean {
  if (ask.email && order.email && ask.email === order.email.toLowerCase()) return true;
  if (!ask.phone || !order.phone) return false;
  const stored = digits(order.phone);
  const [short, long] = ask.phone.length <= stored.length ? [ask.phone, stored] : [stored, ask.phone];
  return short.length >= 7 && long.endsWith(short);
}

export type OrderQuestion = {
  tenantId: number;
  storeIds: number[];
  conversationId: number;
  question: string;
  /** The visitor's earlier messages, oldest first: number and contact may come in separate ones. */
  earlier: string[];
  /** The bot's last message: a follow-up to its own order prompt is about the order too. */
  lastBotMessage: string | null;
};

/**
 * Order help in chat (issue 18 item 4). Parley itself, never the model, answers about orders: it
 * shows an order only after the number and the email or phone on it both match, and a wrong pair is
 * told exactly what a missing order is told. Failed checks are limited per conversation, so nobody
 * can walk order numbers, and per order number across all conversations, so nobody can walk one
 * order's contacts from fresh conversations. No other customer's data is ever read into an answer
 * or a prompt.
 */
export class OrderHelp {
  private readonly failures = new RateLimiterMemory({
    keyPrefix: 'order-check',
    points: 5,
    duration: 15 * 60,
  });
  /**
   * Failed checks of one order number, whatever the conversation: a new conversation costs one
   * unauthenticated call, and 30 of them once made 150 guesses at one order's email in 5 s.
   */
  private readonly orderFailures = new RateLimiterMemory({
    keyPrefix: 'order-number-check',
    points: 5,
    duration: 60 * 60,
  });

  constructor(
    private readonly db: Db,
    private readonly core: StoreCore,
  ) {}

  /** The reply to an order question, or null when the message is not about an order. */
  async reply(input: OrderQuestion): Promise<string | null> {
    if (input.storeIds.length === 0 || !this.isAboutOrder(input)) return null;
    const ask = merge([...input.earlier.slice(-3), input.question].map(readOrderAsk));
    if (!ask.number) return ORDER_TEXTS.askBoth;
    if (!ask.email && !ask.phone) return ORDER_TEXTS.askContact(`#${ask.number.replace(/^#/, '')}`);
    const key = `${input.tenantId}:${input.conversationId}`;
    const state = await this.failures.get(key);
    if (state && state.remainingPoints <= 0) return ORDER_TEXTS.tooMany;
    const orderKey = `${input.tenantId}:${ask.number.replace(/^#/, '')}`;
    const order = (await this.isLocked(orderKey))
      ? null
      : await this.find(input.tenantId, input.storeIds, ask);
    if (order) return describeOrder(order);
    await Promise.all([this.failures.consume(key), this.orderFailures.consume(orderKey)].map(ignoreRefusal));
    // A locked order number is told what a wrong pair is told: the guesser learns nothing from it.
    return ORDER_TEXTS.notFound;
  }

  private async isLocked(orderKey: string): Promise<boolean> {
    const state = await this.orderFailures.get(orderKey);
    return state !== null && state.remainingPoints <= 0;
  }

  private isAboutOrder(input: OrderQuestion): boolean {
    if (ORDER_INTENT.test(input.question)) return true;
    const prompted =
      input.lastBotMessage !== null &&
      (input.lastBotMessage === ORDER_TEXTS.askBoth ||
        input.lastBotMessage.startsWith('To look up order') ||
        input.lastBotMessage === ORDER_TEXTS.notFound);
    const ask = readOrderAsk(input.question);
    return prompted && Boolean(ask.number || ask.email || ask.phone);
  }

  /** The order, fresh from the store where it can be, only when the contact matches. */
  private async find(tenantId: number, storeIds: number[], ask: OrderAsk): Promise<OrderData | null> {
    const number = ask.number!.replace(/^#/, '');
    const rows = await this.db
      .select({ store: stores, record: storeRecords })
      .from(storeRecords)
      .innerJoin(stores, eq(stores.id, storeRecords.storeId))
      .where(
        and(
          eq(storeRecords.tenantId, tenantId),
          inArray(storeRecords.storeId, storeIds),
          eq(storeRecords.kind, 'order'),
          eq(storeRecords.lookupKey, number),
        ),
      );
    for (const { record } of rows) {
      const data = record.data as OrderData;
      if (contactMatches(data, ask)) return (await this.fresh(record)) ?? data;
    }
    return this.fromStores(tenantId, storeIds, number, ask);
  }

  /** The order as the store has it now (status and tracking move); the stored copy if it cannot say. */
  private async fresh(record: RecordRow): Promise<OrderData | null> {
    try {
      const [store] = await this.db.select().from(stores).where(eq(stores.id, record.storeId));
      const adapter = store && store.status === 'connected' ? this.core.adapter(store.platform) : null;
      if (!store || !adapter?.findOrder) return null;
      const found = await adapter.findOrder(this.core.connection(store), record.lookupKey!);
      if (!found) return null;
      await this.core.upsertRecords(store, [found], { trainedKind: false });
      return found.data;
    } catch {
      return null;
    }
  }

  /** An order not synced yet: asked of each connected store directly. */
  private async fromStores(tenantId: number, storeIds: number[], number: string, ask: OrderAsk) {
    const rows = await this.db
      .select()
      .from(stores)
      .where(
        and(eq(stores.tenantId, tenantId), inArray(stores.id, storeIds), eq(stores.status, 'connected')),
      );
    for (const store of rows) {
      const adapter = this.core.adapter(store.platform);
      if (!adapter.findOrder) continue;
      const found = await adapter.findOrder(this.core.connection(store), number).catch(() => null);
      if (!found) continue;
      await this.core.upsertRecords(store, [found], { trainedKind: false });
      if (contactMatches(found.data, ask)) return found.data;
    }
    return null;
  }
}

/** A limiter's refusal once its points are spent: the count is what matters, not the throw. */
const ignoreRefusal = (consumed: Promise<unknown>) => consumed.catch(() => undefined);

function merge(asks: OrderAsk[]): OrderAsk {
  return asks.reduce<OrderAsk>(
    (acc, ask) => ({
      number: ask.number ?? acc.number,
      email: ask.email ?? acc.email,
      phone: ask.phone ?? acc.phone,
    }),
    { number: null, email: null, phone: null },
  );
}

/** What the customer is told: status, items and tracking, never more than the order itself holds. */
export function describeOrder(order: OrderData): string {
  const placed = new Date(order.placed_at).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  });
  const number = order.number.startsWith('#') ? order.number : `#${order.number}`;
  const state = order.cancelled_at
    ? 'cancelled'
    : [order.financial_status, order.fulfillment_status].filter(Boolean).join(', ').toLowerCase() ||
      'received';
  const items = order.lines.map(
    (line) => `- ${line.quantity} × ${line.title} (${line.price} ${order.currency})`,
  );
  const tracking = order.tracking.map((t) => {
    const carrier = t.company ? `${t.company} ` : '';
    return `Tracking: ${carrier}${t.number ?? ''}${t.url ? ` ${t.url}` : ''}${t.status ? ` (${t.status})` : ''}`.trim();
  });
  // Blocks apart (a blank line), so the list ends where it should wherever the text is read as Markdown.
  return [
    `Order ${number}, placed ${placed}: ${state}.`,
    ['Items:', ...items].join('\n'),
    `Total: ${order.total} ${order.currency}`,
    ...(tracking.length > 0 ? tracking : ['Tracking: not available yet.']),
  ].join('\n\n');
}
