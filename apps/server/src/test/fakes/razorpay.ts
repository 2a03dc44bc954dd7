import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

type Json = Record<string, unknown>;
type Period = 'monthly' | 'yearly';

export type FakeSubscription = {
  id: string;
  plan_id: string;
  customer_id: string | null;
  status:
    | 'created'
    | 'authenticated'
    | 'active'
    | 'pending'
    | 'halted'
    | 'cancelled'
    | 'completed'
    | 'expired';
  quantity: number;
  total_count: number;
  paid_count: number;
  /** When the first cycle starts: asked for at creation (a future start), else when checkout is paid. */
  start_at: number | null;
  current_start: number | null;
  current_end: number | null;
  ended_at: number | null;
  created_at: number;
  notes: Json;
  /** Cancelled with cancel_at_cycle_end: ends (cancelled) at the end of the period instead of renewing. */
  cancelAtCycleEnd: boolean;
  /** A plan change waiting for the end of the cycle (schedule_change_at 'cycle_end'). */
  scheduledPlanId: string | null;
};

export type FakePlan = {
  id: string;
  period: Period;
  interval: number;
  item: { name: string; amount: number; currency: string };
};
export type FakeInvoice = {
  id: string;
  subscription_id: string;
  payment_id: string;
  amount: number;
  tax_amount: number;
  currency: string;
  status: 'paid';
  paid_at: number;
  /** What refunds have given back so far. */
  amount_refunded: number;
};

/** One webhook delivery: the exact bytes and headers Razorpay would send, kept so tests can resend or reorder it. */
export type FakeEvent = { id: string; event: string; body: string; signature: string; createdAt: number };
export type Delivery = { event: FakeEvent; status: number; body: string };

export type RazorpayFake = {
  url: string;
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  /** Where webhooks go (Parley's /api/payment/razorpay/webhook); nothing is sent while unset. */
  webhookUrl: string | undefined;
  /** Every API request as "METHOD /path" (query left out), in order. */
  requests: string[];
  /**
   * true: the webhooks an API call sends by itself (an immediate cancel's) are delivered before
   * the call is answered, as Razorpay may do: Parley then learns of the change first from them.
   */
  webhooksBeforeAnswer: boolean;
  /** Request bodies by "METHOD /path", the last one of each. */
  lastBody: Map<string, Json>;
  customers: Map<string, Json>;
  plans: Map<string, FakePlan>;
  subscriptions: Map<string, FakeSubscription>;
  invoices: FakeInvoice[];
  /** Every webhook delivered, in order, with Parley's answer. */
  deliveries: Delivery[];
  /** The fake's clock (unix seconds), which every event's created_at reads; tests may move it. */
  now: number;
  /** The checkout page of a subscription, with "Pay" and "Fail payment" buttons (browser tests). */
  checkoutUrl(subscriptionId: string): string;
  /**
   * The customer completes checkout: authenticated, activated and the first charged, in that order;
   * for a subscription made with a future start_at, the card is only authorised: authenticated alone.
   */
  pay(subscriptionId: string, options?: SendOptions): Promise<FakeEvent[]>;
  /** The customer's payment at checkout fails: payment.failed; the subscription stays created. */
  failPayment(subscriptionId: string, options?: SendOptions): Promise<FakeEvent[]>;
  /**
   * The next period begins: a renewal charge (subscription.charged), the end of a
   * cancelled-at-cycle-end one, or the first cycle of an authenticated one reaching its start_at
   * (subscription.activated and subscription.charged).
   */
  charge(subscriptionId: string, options?: SendOptions): Promise<FakeEvent[]>;
  /** A renewal charge fails: payment.failed and subscription.pending (Razorpay retries). */
  failRenewal(subscriptionId: string, options?: SendOptions): Promise<FakeEvent[]>;
  /** Retries exhausted: subscription.halted. */
  halt(subscriptionId: string, options?: SendOptions): Promise<FakeEvent[]>;
  /**
   * The merchant refunds a captured payment (what is left of it unless `amount` says less):
   * refund.processed then payment.refunded, as Razorpay sends them, the payment carrying the total
   * refunded so far.
   */
  refund(paymentId: string, options?: SendOptions & { amount?: number }): Promise<FakeEvent[]>;
  /** The last cycle was charged: subscription.completed. */
  complete(subscriptionId: string, options?: SendOptions): Promise<FakeEvent[]>;
  /** Posts events again, byte for byte with their ids (a redelivery). */
  resend(...events: FakeEvent[]): Promise<Delivery[]>;
  /** Delivers events in the order given. */
  deliver(...events: FakeEvent[]): Promise<Delivery[]>;
  /** Delivers two events newest first (out of order). */
  deliverReversed(first: FakeEvent, second: FakeEvent): Promise<Delivery[]>;
  /** Posts any body with any signature (a forged or tampered delivery). */
  sendRaw(body: string, headers: Record<string, string>): Promise<{ status: number; body: string }>;
  /** Signs a body with the webhook secret, as Razorpay does. */
  sign(body: string): string;
  /** Makes the next `count` API requests answer 500. */
  failNext(count?: number): void;
  /** Waits for the webhooks the API sends by itself (an immediate cancel's). */
  idle(): Promise<void>;
  close(): Promise<void>;
};

type SendOptions = {
  /** false: build and sign the events but do not post them (for resend/reorder tests). */
  deliver?: boolean;
};

const MONTH = 30 * 86_400;
const YEAR = 365 * 86_400;
/** Razorpay's GST on the fake's charges: 18%, included in the price. */
const TAX_PERCENT = 18;

/**
 * Razorpay's REST API v1 on loopback (customers, plans, subscriptions, invoices) with Basic auth
 * and Razorpay's error body, a checkout page, and helpers that move a subscription through its life
 * and post the signed webhooks Razorpay would (X-Razorpay-Signature: hex HMAC-SHA256 of the raw body).
 */
/** The server's settings that point it at this fake (keys, webhook secret, API and checkout pages). */
export function razorpayEnv(fake: Pick<RazorpayFake, 'keyId' | 'keySecret' | 'webhookSecret' | 'url'>) {
  return {
    RAZORPAY_KEY_ID: fake.keyId,
    RAZORPAY_KEY_SECRET: fake.keySecret,
    RAZORPAY_WEBHOOK_SECRET: fake.webhookSecret,
    RAZORPAY_API_URL: fake.url,
    RAZORPAY_CHECKOUT_URL: `${fake.url}/checkout/{subscription_id}`,
  };
}

export async function startRazorpayFake(
  options: { keyId?: string; keySecret?: string; webhookSecret?: string } = {},
): Promise<RazorpayFake> {
  const keyId = options.keyId ?? 'rzp_test_fake_key';
  const keySecret = options.keySecret ?? 'fake_key_secret';
  const webhookSecret = options.webhookSecret ?? 'fake_webhook_secret';
  const ids = (prefix: string) => `${prefix}_${randomBytes(7).toString('hex')}`;
  const inFlight = new Set<Promise<unknown>>();
  let failing = 0;

  const fake: RazorpayFake = {
    url: '',
    keyId,
    keySecret,
    webhookSecret,
    webhookUrl: undefined,
    requests: [],
    webhooksBeforeAnswer: false,
    lastBody: new Map(),
    customers: new Map(),
    plans: new Map(),
    subscriptions: new Map(),
    invoices: [],
    deliveries: [],
    now: Math.floor(Date.now() / 1000),
    checkoutUrl: (id) => `${fake.url}/checkout/${id}`,
    pay: (id, o) => emit(o, () => activate(sub(id))),
    failPayment: (id, o) => emit(o, () => [paymentFailed(sub(id))]),
    charge: (id, o) => emit(o, () => nextCycle(sub(id))),
    failRenewal: (id, o) => emit(o, () => failRenewal(sub(id))),
    halt: (id, o) => emit(o, () => [setStatus(sub(id), 'halted', 'subscription.halted')]),
    complete: (id, o) => emit(o, () => [setStatus(sub(id), 'completed', 'subscription.completed')]),
    refund: (paymentId, o) => emit(o, () => refund(paymentId, o?.amount)),
    resend: (...events) => deliverAll(events),
    deliver: (...events) => deliverAll(events),
    deliverReversed: (first, second) => deliverAll([second, first]),
    sendRaw: (body, headers) => post(body, headers),
    sign,
    failNext: (count = 1) => {
      failing = count;
    },
    idle: async () => {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  function sign(body: string): string {
    return createHmac('sha256', webhookSecret).update(body).digest('hex');
  }

  function sub(id: string): FakeSubscription {
    const found = fake.subscriptions.get(id);
    if (!found) throw new Error(`no fake subscription ${id}`);
    return found;
  }

  const tick = () => ++fake.now;

  async function emit(o: SendOptions | undefined, build: () => FakeEvent[]): Promise<FakeEvent[]> {
    const events = build();
    if (o?.deliver !== false) await deliverAll(events);
    return events;
  }

  function event(name: string, entities: Json, createdAt = fake.now): FakeEvent {
    const id = ids('evt');
    const body = JSON.stringify({
      entity: 'event',
      account_id: 'acc_fake0000000001',
      event: name,
      contains: Object.keys(entities),
      payload: Object.fromEntries(Object.entries(entities).map(([k, v]) => [k, { entity: v }])),
      created_at: createdAt,
    });
    return { id, event: name, body, signature: sign(body), createdAt };
  }

  const periodOf = (s: FakeSubscription) => (fake.plans.get(s.plan_id)?.period === 'yearly' ? YEAR : MONTH);
  const priceOf = (s: FakeSubscription) => {
    const plan = fake.plans.get(s.plan_id)!;
    return { amount: plan.item.amount * s.quantity, currency: plan.item.currency };
  };

  function subscriptionJson(s: FakeSubscription): Json {
    const { cancelAtCycleEnd: _c, scheduledPlanId, ...wire } = s;
    return {
      ...wire,
      entity: 'subscription',
      charge_at: s.current_end ?? s.start_at,
      start_at: s.start_at ?? s.current_start,
      end_at: null,
      auth_attempts: 0,
      customer_notify: true,
      expire_by: null,
      short_url: fake.checkoutUrl(s.id),
      has_scheduled_changes: scheduledPlanId !== null,
      change_scheduled_at: scheduledPlanId ? s.current_end : null,
      source: 'api',
      payment_method: s.status === 'created' ? null : 'card',
      offer_id: null,
      remaining_count: String(s.total_count - s.paid_count),
    };
  }

  function payment(s: FakeSubscription, amount: number, status: 'captured' | 'failed'): Json {
    const { currency } = priceOf(s);
    const id = ids('pay');
    const invoiceId = status === 'captured' ? ids('inv') : null;
    if (invoiceId) {
      const tax = Math.floor((amount * TAX_PERCENT) / (100 + TAX_PERCENT));
      fake.invoices.push({
        id: invoiceId,
        subscription_id: s.id,
        payment_id: id,
        amount,
        tax_amount: tax,
        currency,
        status: 'paid',
        paid_at: fake.now,
        amount_refunded: 0,
      });
    }
    return {
      id,
      entity: 'payment',
      amount,
      currency,
      status,
      order_id: null,
      invoice_id: invoiceId,
      international: false,
      method: 'card',
      amount_refunded: 0,
      captured: status === 'captured',
      description: `Subscription ${s.id}`,
      customer_id: s.customer_id,
      email: (s.customer_id && (fake.customers.get(s.customer_id)?.email as string)) || null,
      notes: s.notes,
      // Razorpay's own fee and the GST on that fee: not the customer's tax.
      fee: status === 'captured' ? Math.floor(amount / 50) : null,
      tax: status === 'captured' ? Math.floor(amount / 50 / 6) : null,
      error_code: status === 'failed' ? 'BAD_REQUEST_ERROR' : null,
      error_description: status === 'failed' ? 'Payment failed because the card was declined' : null,
      created_at: fake.now,
    };
  }

  function activate(s: FakeSubscription): FakeEvent[] {
    tick();
    // A future start: the authentication transaction (auto-refunded) and nothing charged until start_at.
    if (s.start_at && s.start_at > fake.now) {
      s.status = 'authenticated';
      return [event('subscription.authenticated', { subscription: subscriptionJson(s) })];
    }
    return firstCycle(s);
  }

  function firstCycle(s: FakeSubscription): FakeEvent[] {
    s.status = 'active';
    // A future start's first cycle begins at start_at, whenever Razorpay gets round to charging it.
    s.current_start = s.start_at ?? fake.now;
    s.current_end = s.current_start + periodOf(s);
    s.paid_count = 1;
    const pay = payment(s, priceOf(s).amount, 'captured');
    // Razorpay sends all three within the same second.
    return [
      event('subscription.authenticated', {
        subscription: { ...subscriptionJson(s), status: 'authenticated' },
      }),
      event('subscription.activated', { subscription: subscriptionJson(s) }),
      event('subscription.charged', { subscription: subscriptionJson(s), payment: pay }),
    ];
  }

  function nextCycle(s: FakeSubscription): FakeEvent[] {
    if (s.status === 'authenticated') {
      fake.now = Math.max(fake.now + 1, s.start_at ?? fake.now);
      return firstCycle(s).slice(1);
    }
    fake.now = Math.max(fake.now + 1, s.current_end ?? fake.now);
    if (s.cancelAtCycleEnd) return [setStatus(s, 'cancelled', 'subscription.cancelled')];
    if (s.scheduledPlanId) {
      s.plan_id = s.scheduledPlanId;
      s.scheduledPlanId = null;
    }
    s.status = 'active';
    s.current_start = fake.now;
    s.current_end = fake.now + periodOf(s);
    s.paid_count += 1;
    const pay = payment(s, priceOf(s).amount, 'captured');
    return [event('subscription.charged', { subscription: subscriptionJson(s), payment: pay })];
  }

  function refund(paymentId: string, amount?: number): FakeEvent[] {
    const charged = fake.invoices.find((i) => i.payment_id === paymentId);
    if (!charged) throw new Error(`no fake payment ${paymentId}`);
    tick();
    const back = amount ?? charged.amount - charged.amount_refunded;
    charged.amount_refunded += back;
    const whole = charged.amount_refunded >= charged.amount;
    const refundJson = {
      id: ids('rfnd'),
      entity: 'refund',
      amount: back,
      currency: charged.currency,
      payment_id: paymentId,
      notes: [],
      receipt: null,
      status: 'processed',
      speed_processed: 'normal',
      created_at: fake.now,
    };
    const s = fake.subscriptions.get(charged.subscription_id);
    const paymentJson = {
      id: paymentId,
      entity: 'payment',
      amount: charged.amount,
      currency: charged.currency,
      status: whole ? 'refunded' : 'captured',
      invoice_id: charged.id,
      method: 'card',
      amount_refunded: charged.amount_refunded,
      refund_status: whole ? 'full' : 'partial',
      captured: true,
      notes: s?.notes ?? [],
      created_at: charged.paid_at,
    };
    return [
      event('refund.processed', { refund: refundJson, payment: paymentJson }),
      event('payment.refunded', { payment: paymentJson, refund: refundJson }),
    ];
  }

  function paymentFailed(s: FakeSubscription): FakeEvent {
    tick();
    return event('payment.failed', { payment: payment(s, priceOf(s).amount, 'failed') });
  }

  function failRenewal(s: FakeSubscription): FakeEvent[] {
    fake.now = Math.max(fake.now, (s.current_end ?? fake.now) - 1);
    const failed = paymentFailed(s);
    return [failed, setStatus(s, 'pending', 'subscription.pending')];
  }

  function setStatus(s: FakeSubscription, status: FakeSubscription['status'], name: string): FakeEvent {
    tick();
    s.status = status;
    if (status === 'cancelled' || status === 'completed') s.ended_at = fake.now;
    return event(name, { subscription: subscriptionJson(s) });
  }

  async function post(
    body: string,
    headers: Record<string, string>,
  ): Promise<{ status: number; body: string }> {
    if (!fake.webhookUrl) throw new Error('set fake.webhookUrl first');
    const response = await fetch(fake.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Razorpay-Webhook/v1', ...headers },
      body,
    });
    return { status: response.status, body: await response.text() };
  }

  async function deliverAll(events: FakeEvent[]): Promise<Delivery[]> {
    const out: Delivery[] = [];
    for (const e of events) {
      const answer = await post(e.body, { 'X-Razorpay-Signature': e.signature, 'X-Razorpay-Event-Id': e.id });
      const delivery = { event: e, ...answer };
      fake.deliveries.push(delivery);
      out.push(delivery);
    }
    return out;
  }

  /** Razorpay sends the webhook of an API change after answering the call. */
  function sendLater(events: FakeEvent[]): void {
    if (!fake.webhookUrl) return;
    const run = new Promise((resolve) => setImmediate(resolve))
      .then(() => deliverAll(events))
      .catch(() => undefined);
    inFlight.add(run);
    void run.finally(() => inFlight.delete(run));
  }

  // --- the REST API -------------------------------------------------------------------------

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => send(res, 500, rzError(String(error), 'SERVER_ERROR')));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const raw = await readBody(req);
    if (url.pathname.startsWith('/checkout/')) return checkout(req, res, url, raw);
    const key = `${req.method} ${url.pathname}`;
    fake.requests.push(key);
    if (!authorized(req)) return send(res, 401, rzError('Authentication failed'));
    if (failing > 0) {
      failing -= 1;
      return send(
        res,
        500,
        rzError('We are facing some trouble completing your request at the moment.', 'SERVER_ERROR'),
      );
    }
    const body = parseJson(raw);
    fake.lastBody.set(key.replace(/\/(sub|plan|cust)_[0-9a-f]+/, '/:id'), body);
    const answer = route(req.method ?? 'GET', url, body);
    if (fake.webhooksBeforeAnswer) await fake.idle();
    return send(res, answer.status, answer.body);
  }

  function authorized(req: IncomingMessage): boolean {
    const header = req.headers.authorization ?? '';
    const expected = Buffer.from(`Basic ${Buffer.from(`${keyId}:${keySecret}`).toString('base64')}`);
    const given = Buffer.from(header);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  type Answer = { status: number; body: unknown };
  const ok = (body: unknown): Answer => ({ status: 200, body });
  const bad = (description: string): Answer => ({ status: 400, body: rzError(description) });

  function route(method: string, url: URL, body: Json): Answer {
    const path = url.pathname;
    if (method === 'POST' && path === '/v1/customers') return createCustomer(body);
    if (method === 'POST' && path === '/v1/plans') return createPlan(body);
    if (method === 'POST' && path === '/v1/subscriptions') return createSubscription(body);
    if (method === 'GET' && path === '/v1/invoices') return listInvoices(url.searchParams);
    const match = /^\/v1\/subscriptions\/([^/]+)(\/cancel)?$/.exec(path);
    const s = match ? fake.subscriptions.get(match[1]!) : undefined;
    if (!match) return { status: 404, body: rzError('The requested URL was not found on the server.') };
    if (!s) return bad('The id provided does not exist');
    if (method === 'GET' && !match[2]) return ok(subscriptionJson(s));
    if (method === 'POST' && match[2]) return cancel(s, body);
    if (method === 'PATCH' && !match[2]) return update(s, body);
    return { status: 405, body: rzError('Method not allowed') };
  }

  function createCustomer(body: Json): Answer {
    if (typeof body.name !== 'string' || !body.name) return bad('The name field is required.');
    const existing = [...fake.customers.values()].find((c) => c.email === body.email);
    if (existing) {
      // Razorpay answers the existing customer only when asked not to fail.
      if (body.fail_existing === 0 || body.fail_existing === '0' || body.fail_existing === false)
        return ok(existing);
      return bad('Customer already exists for the merchant');
    }
    const customer = {
      id: ids('cust'),
      entity: 'customer',
      name: body.name,
      email: body.email ?? null,
      contact: body.contact ?? null,
      gstin: null,
      notes: body.notes ?? {},
      created_at: tick(),
    };
    fake.customers.set(customer.id, customer);
    return ok(customer);
  }

  function createPlan(body: Json): Answer {
    const item = body.item as Json | undefined;
    if (body.period !== 'monthly' && body.period !== 'yearly') return bad('The period field is invalid.');
    if (body.interval !== 1) return bad('The interval field is invalid.');
    if (
      !item ||
      typeof item.name !== 'string' ||
      !Number.isInteger(item.amount) ||
      (item.amount as number) < 100
    )
      return bad('The amount must be at least INR 1.00.');
    if (typeof item.currency !== 'string' || !/^[A-Z]{3}$/.test(item.currency))
      return bad('The currency is invalid.');
    const plan: FakePlan = {
      id: ids('plan'),
      period: body.period,
      interval: 1,
      item: { name: item.name, amount: item.amount as number, currency: item.currency },
    };
    fake.plans.set(plan.id, plan);
    return ok({
      ...plan,
      entity: 'plan',
      item: { ...plan.item, id: ids('item'), active: true },
      notes: body.notes ?? {},
      created_at: tick(),
    });
  }

  function createSubscription(body: Json): Answer {
    if (typeof body.plan_id !== 'string' || !fake.plans.has(body.plan_id))
      return bad('The id provided does not exist');
    if (!Number.isInteger(body.total_count) || (body.total_count as number) < 1)
      return bad('The total count field is required.');
    if (body.customer_id !== undefined && !fake.customers.has(body.customer_id as string))
      return bad('The id provided does not exist');
    const quantity = body.quantity === undefined ? 1 : Number(body.quantity);
    if (!Number.isInteger(quantity) || quantity < 1) return bad('The quantity must be at least 1.');
    const startAt = body.start_at === undefined ? null : Number(body.start_at);
    if (startAt !== null && (!Number.isInteger(startAt) || startAt <= fake.now))
      return bad('start_at cannot be lesser than the current time');
    const s: FakeSubscription = {
      id: ids('sub'),
      plan_id: body.plan_id,
      customer_id: (body.customer_id as string | undefined) ?? null,
      status: 'created',
      quantity,
      total_count: body.total_count as number,
      paid_count: 0,
      start_at: startAt,
      current_start: null,
      current_end: null,
      ended_at: null,
      created_at: tick(),
      notes: (body.notes as Json | undefined) ?? {},
      cancelAtCycleEnd: false,
      scheduledPlanId: null,
    };
    fake.subscriptions.set(s.id, s);
    return ok(subscriptionJson(s));
  }

  function cancel(s: FakeSubscription, body: Json): Answer {
    if (s.status === 'cancelled' || s.status === 'completed' || s.status === 'expired')
      return bad('Subscription is not cancellable in cancelled status.');
    const atCycleEnd = body.cancel_at_cycle_end === 1 || body.cancel_at_cycle_end === true;
    if (atCycleEnd && (s.status === 'active' || s.status === 'pending')) {
      s.cancelAtCycleEnd = true;
      tick();
      return ok(subscriptionJson(s));
    }
    const cancelled = setStatus(s, 'cancelled', 'subscription.cancelled');
    sendLater([cancelled]);
    return ok(subscriptionJson(s));
  }

  function update(s: FakeSubscription, body: Json): Answer {
    if (s.status !== 'active' && s.status !== 'authenticated')
      return bad('Subscription cannot be updated in this state');
    const planId = (body.plan_id as string | undefined) ?? s.plan_id;
    if (!fake.plans.has(planId)) return bad('The id provided does not exist');
    if (body.schedule_change_at === 'cycle_end') {
      s.scheduledPlanId = planId;
      return ok(subscriptionJson(s));
    }
    const before = priceOf(s).amount;
    s.plan_id = planId;
    if (body.quantity !== undefined) s.quantity = Number(body.quantity);
    tick();
    const events = [event('subscription.updated', { subscription: subscriptionJson(s) })];
    const owed = prorated(s, priceOf(s).amount - before);
    // An upgrade is charged now for the rest of the period; a downgrade's credit waits for renewal.
    if (owed > 0)
      events.push(
        event('subscription.charged', {
          subscription: subscriptionJson(s),
          payment: payment(s, owed, 'captured'),
        }),
      );
    sendLater(events);
    return ok(subscriptionJson(s));
  }

  /** The difference for what is left of the period, in whole minor units. */
  function prorated(s: FakeSubscription, difference: number): number {
    if (difference <= 0 || !s.current_end || !s.current_start) return 0;
    const left = Math.max(0, s.current_end - fake.now);
    return Math.floor((difference * left) / (s.current_end - s.current_start));
  }

  function listInvoices(query: URLSearchParams): Answer {
    const bySub = query.get('subscription_id');
    const byPayment = query.get('payment_id');
    const items = fake.invoices
      .filter((i) => (!bySub || i.subscription_id === bySub) && (!byPayment || i.payment_id === byPayment))
      .map((i) => ({ ...i, entity: 'invoice', type: 'invoice', gross_amount: i.amount - i.tax_amount }));
    return ok({ entity: 'collection', count: items.length, items });
  }

  // --- the checkout page ----------------------------------------------------------------------

  async function checkout(req: IncomingMessage, res: ServerResponse, url: URL, raw: string): Promise<void> {
    const match = /^\/checkout\/([^/]+)(?:\/(pay|fail))?$/.exec(url.pathname);
    const s = match ? fake.subscriptions.get(match[1]!) : undefined;
    if (!match || !s) return sendHtml(res, 404, '<!doctype html><title>Not found</title><h1>Not found</h1>');
    const returnUrl = url.searchParams.get('return_url') ?? new URLSearchParams(raw).get('return_url') ?? '';
    if (req.method === 'GET' && !match[2]) return sendHtml(res, 200, checkoutPage(s, returnUrl));
    if (req.method !== 'POST' || !match[2])
      return sendHtml(res, 405, '<!doctype html><h1>Method not allowed</h1>');
    if (s.status !== 'created')
      return sendHtml(res, 409, '<!doctype html><h1>This subscription is already paid</h1>');
    const paid = match[2] === 'pay';
    await (paid ? fake.pay(s.id) : fake.failPayment(s.id));
    if (returnUrl) {
      const back = new URL(returnUrl);
      back.searchParams.set('razorpay_subscription_id', s.id);
      back.searchParams.set('status', paid ? 'paid' : 'failed');
      res.writeHead(303, { location: back.toString() });
      return void res.end();
    }
    return sendHtml(
      res,
      200,
      `<!doctype html><title>Razorpay</title><h1>${paid ? 'Payment successful' : 'Payment failed'}</h1>`,
    );
  }

  function checkoutPage(s: FakeSubscription, returnUrl: string): string {
    const plan = fake.plans.get(s.plan_id)!;
    const { amount, currency } = priceOf(s);
    const hidden = `<input type="hidden" name="return_url" value="${escapeHtml(returnUrl)}">`;
    return `<!doctype html><html><head><title>Razorpay Checkout</title></head><body>
<h1>Razorpay Checkout (test)</h1>
<p id="plan">${escapeHtml(plan.item.name)} × ${s.quantity}</p>
<p id="amount">${currency} ${amount} (minor units)</p>
<form method="post" action="/checkout/${s.id}/pay">${hidden}<button type="submit">Pay</button></form>
<form method="post" action="/checkout/${s.id}/fail">${hidden}<button type="submit">Fail payment</button></form>
</body></html>`;
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  fake.url = `http://127.0.0.1:${port}`;
  return fake;
}

const rzError = (description: string, code = 'BAD_REQUEST_ERROR') => ({
  error: {
    code,
    description,
    source: 'business',
    step: 'payment_initiation',
    reason: 'input_validation_failed',
    metadata: {},
  },
});

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify(body));
}

function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=UTF-8' });
  res.end(html);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

function parseJson(text: string): Json {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? (parsed as Json) : {};
  } catch {
    return {};
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
