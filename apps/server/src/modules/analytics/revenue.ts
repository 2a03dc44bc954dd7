import { ANALYTICS_LIMITS, type AnalyticsRevenue, ATTRIBUTION_RULE, type Money } from '@parley/contracts';
import { sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../core/db/database.js';
import { type BotIds, inBots } from './analytics.queries.js';

const DAY_MS = 86_400_000;
/** Most orders one period reads; past it the figures say so through `orders` alone. */
const ORDERS_MAX = 20_000;

/** A customer the workspace talked to: from a lead form (email, phone) or a WhatsApp number. */
export type Contact = {
  botId: number;
  channel: string;
  email: string | null;
  phone: string | null;
  startedAt: Date;
  lastAt: Date;
};

export type Order = {
  email: string | null;
  phone: string | null;
  placedAt: Date;
  currency: string;
  amountMinor: number;
};

const digits = (text: string | null) => (text ?? '').replace(/\D/g, '');

/** The same phone: the last seven or more digits agree (country codes are written in many ways). */
function samePhone(a: string | null, b: string | null): boolean {
  const x = digits(a);
  const y = digits(b);
  if (x.length < 7 || y.length < 7) return false;
  const n = Math.min(x.length, y.length);
  return x.slice(-n) === y.slice(-n);
}

/**
 * The attribution rule (ATTRIBUTION_RULE): an order counts for the last conversation with the same
 * customer (email, or phone) that had started before the order and was still going, or ended less
 * than the attribution window, before the order was placed. Null: no conversation brought it.
 */
export function attribute(order: Order, contacts: readonly Contact[]): Contact | null {
  const windowStart = order.placedAt.getTime() - ANALYTICS_LIMITS.attributionDays * DAY_MS;
  let winner: Contact | null = null;
  for (const contact of contacts) {
    if (contact.startedAt > order.placedAt || contact.lastAt.getTime() < windowStart) continue;
    const same =
      (order.email !== null && contact.email !== null && order.email === contact.email) ||
      samePhone(order.phone, contact.phone);
    if (same && (!winner || contact.startedAt > winner.startedAt)) winner = contact;
  }
  return winner;
}

/** The last seven digits of a phone: the key two spellings of one number share. */
const phoneKey = (phone: string | null) => {
  const all = digits(phone);
  return all.length >= 7 ? all.slice(-7) : null;
};

/**
 * `attribute` for many orders: contacts indexed by email and by their phone's last digits, so each
 * order is compared with its own customer's conversations only, not with every contact.
 */
export function attributor(contacts: readonly Contact[]): (order: Order) => Contact | null {
  const byKey = new Map<string, Contact[]>();
  const add = (key: string | null, contact: Contact) => {
    if (key) byKey.set(key, [...(byKey.get(key) ?? []), contact]);
  };
  for (const contact of contacts) {
    add(contact.email ? `e:${contact.email}` : null, contact);
    const phone = phoneKey(contact.phone);
    add(phone ? `p:${phone}` : null, contact);
  }
  return (order) => {
    const phone = phoneKey(order.phone);
    const candidates = [
      ...(order.email ? (byKey.get(`e:${order.email}`) ?? []) : []),
      ...(phone ? (byKey.get(`p:${phone}`) ?? []) : []),
    ];
    return candidates.length ? attribute(order, candidates) : null;
  };
}

const exponents = new Map<string, number>();

/** Digits after the decimal point of a currency (2 for USD, 0 for JPY, 3 for KWD); kept, as making a format is slow. */
function exponentOf(currency: string): number {
  let exponent = exponents.get(currency);
  if (exponent === undefined) {
    try {
      const format = new Intl.NumberFormat('en', { style: 'currency', currency });
      exponent = format.resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      exponent = 2;
    }
    if (exponents.size < 500) exponents.set(currency, exponent);
  }
  return exponent;
}

/** "59.98" USD as 5998: decimal text to integer minor units, without floating-point rounding. */
export function toMinor(amount: string, currency: string): number | null {
  const match = /^\s*(-?)(\d+)(?:\.(\d+))?\s*$/.exec(amount);
  if (!match) return null;
  const exponent = exponentOf(currency);
  const fraction = (match[3] ?? '').padEnd(exponent, '0').slice(0, exponent);
  const value = Number(match[2]) * 10 ** exponent + Number(fraction || '0');
  return match[1] ? -value : value;
}

/** The store orders placed in [from, to): store webhooks and syncs keep them as store records. */
async function ordersIn(db: DbOrTx, tenantId: number, from: Date, to: Date): Promise<Order[]> {
  const rows = await queryRows<{ data: Record<string, unknown> }>(
    db,
    sql`SELECT data FROM store_records
         WHERE tenant_id = ${tenantId} AND kind = 'order'
           AND data->>'placed_at' ~ '^\\d{4}-\\d{2}-\\d{2}'
           AND (data->>'placed_at')::timestamptz >= ${from.toISOString()}::timestamptz
           AND (data->>'placed_at')::timestamptz < ${to.toISOString()}::timestamptz
           AND data->>'cancelled_at' IS NULL
         LIMIT ${ORDERS_MAX}`,
  );
  const orders: Order[] = [];
  for (const { data } of rows) {
    const currency = typeof data.currency === 'string' ? data.currency.toUpperCase() : 'USD';
    const total = toMinor(String(data.total ?? ''), currency);
    if (total === null) continue;
    const refunded = toMinor(String(data.refunded ?? '0'), currency) ?? 0;
    orders.push({
      email: typeof data.email === 'string' ? data.email.trim().toLowerCase() : null,
      phone: typeof data.phone === 'string' ? data.phone : null,
      placedAt: new Date(String(data.placed_at)),
      currency,
      amountMinor: total - refunded,
    });
  }
  return orders;
}

/** Leads and WhatsApp customers whose conversations could have brought an order of [from, to). */
async function contactsFor(db: DbOrTx, tenantId: number, from: Date, to: Date): Promise<Contact[]> {
  const since = new Date(from.getTime() - ANALYTICS_LIMITS.attributionDays * DAY_MS).toISOString();
  const rows = await queryRows<{
    bot_id: number;
    channel: string;
    email: string | null;
    phone: string | null;
    started_at: string;
    last_at: string;
  }>(
    db,
    sql`SELECT l.bot_id, coalesce(c.channel, 'bot') AS channel, lower(trim(l.email)) AS email,
               coalesce(l.fields->>'phone', l.fields->>'Phone', l.fields->>'mobile') AS phone,
               coalesce(c.created_at, l.created_at) AS started_at,
               greatest(coalesce(c.last_message_at, l.created_at), l.created_at) AS last_at
          FROM leads l LEFT JOIN conversations c ON c.id = l.conversation_id AND c.tenant_id = l.tenant_id
         WHERE l.tenant_id = ${tenantId} AND l.created_at < ${to.toISOString()}::timestamptz
           AND greatest(coalesce(c.last_message_at, l.created_at), l.created_at) >= ${since}::timestamptz
           -- The owner trying the lead form in the playground is no customer.
           AND (c.id IS NULL OR NOT c.is_test)
        UNION ALL
        SELECT c.bot_id, 'whatsapp', NULL, c.visitor_id, c.created_at, c.last_message_at
          FROM conversations c
         WHERE c.tenant_id = ${tenantId} AND c.channel = 'whatsapp'
           AND c.last_message_at >= ${since}::timestamptz AND c.created_at < ${to.toISOString()}::timestamptz`,
  );
  return rows.map((row) => ({
    botId: Number(row.bot_id),
    channel: row.channel === 'bot' ? 'web' : row.channel,
    email: row.email,
    phone: row.phone,
    startedAt: new Date(row.started_at),
    lastAt: new Date(row.last_at),
  }));
}

function addMoney(into: Map<string, number>, currency: string, amount: number) {
  into.set(currency, (into.get(currency) ?? 0) + amount);
}
const moneyOf = (sums: Map<string, number>): Money[] =>
  [...sums.entries()].sort().map(([currency, amount_minor]) => ({ currency, amount_minor }));

/**
 * What the bots brought in [from, to): attributed orders as money per currency, per bot and
 * channel; booking clicks, leads and WhatsApp campaign replies as counts (they carry no amount).
 */
export async function revenueOf(
  db: DbOrTx,
  tenantId: number,
  from: Date,
  to: Date,
  botIds: BotIds,
  counts: { leads: number; booking_clicks: number },
): Promise<AnalyticsRevenue> {
  const [orders, contacts, names, replies] = await Promise.all([
    ordersIn(db, tenantId, from, to),
    contactsFor(db, tenantId, from, to),
    queryRows<{ id: number; name: string }>(
      db,
      sql`SELECT id, bot_name AS name FROM bots WHERE tenant_id = ${tenantId}`,
    ),
    campaignReplies(db, tenantId, from, to, botIds),
  ]);
  const botName = new Map(names.map((row) => [Number(row.id), row.name]));
  const total = new Map<string, number>();
  const byBot = new Map<
    string,
    { bot_id: number; channel: string; orders: number; sums: Map<string, number> }
  >();
  let attributed = 0;
  const winnerOf = attributor(contacts);
  for (const order of orders) {
    const winner = winnerOf(order);
    if (!winner || (botIds !== null && !botIds.includes(winner.botId))) continue;
    attributed++;
    addMoney(total, order.currency, order.amountMinor);
    const key = `${winner.botId}|${winner.channel}`;
    const row = byBot.get(key) ?? {
      bot_id: winner.botId,
      channel: winner.channel,
      orders: 0,
      sums: new Map(),
    };
    row.orders++;
    addMoney(row.sums, order.currency, order.amountMinor);
    byBot.set(key, row);
  }
  return {
    rule: ATTRIBUTION_RULE,
    orders: attributed,
    revenue: moneyOf(total),
    by_bot: [...byBot.values()]
      .sort((a, b) => b.orders - a.orders || a.bot_id - b.bot_id)
      .map((row) => ({
        bot_id: row.bot_id,
        bot_name: botName.get(row.bot_id) ?? `Bot ${row.bot_id}`,
        channel: row.channel,
        orders: row.orders,
        revenue: moneyOf(row.sums),
      })),
    bookings: counts.booking_clicks,
    leads: counts.leads,
    campaign_replies: replies,
  };
}

/** Recipients of WhatsApp campaigns who replied in the period, for the number's bot. */
async function campaignReplies(db: DbOrTx, tenantId: number, from: Date, to: Date, botIds: BotIds) {
  const bot = inBots(sql`coalesce(a.bot_id, a.last_bot_id)`, botIds);
  const [row] = await queryRows<{ count: string }>(
    db,
    sql`SELECT count(*) AS count FROM whatsapp_campaign_recipients r
          JOIN whatsapp_campaigns w ON w.id = r.campaign_id
          JOIN whatsapp_accounts a ON a.id = w.account_id
         WHERE r.tenant_id = ${tenantId} AND r.replied_at >= ${from.toISOString()}::timestamptz
           AND r.replied_at < ${to.toISOString()}::timestamptz ${bot}`,
  );
  return Number(row?.count ?? 0);
}
