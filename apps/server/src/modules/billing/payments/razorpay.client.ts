import { PAYMENT_TEXTS } from '@parley/contracts';
import Razorpay from 'razorpay';
import type { Invoices } from 'razorpay/dist/types/invoices.js';
import type { Subscriptions } from 'razorpay/dist/types/subscriptions.js';
import type { Config } from '../../../config.js';
import { AppError, badRequest } from '../../../core/errors.js';

export type RazorpaySubscription = Subscriptions.RazorpaySubscription;
export type RazorpayInvoice = Invoices.RazorpayInvoice;
export type RazorpayKeys = { keyId: string; keySecret: string; webhookSecret: string };

/** The keys, or the 400 every payment call answers on a server without them. */
export function razorpayKeys(config: Config): RazorpayKeys {
  const {
    RAZORPAY_KEY_ID: keyId,
    RAZORPAY_KEY_SECRET: keySecret,
    RAZORPAY_WEBHOOK_SECRET: webhookSecret,
  } = config;
  if (!keyId || !keySecret || !webhookSecret) throw badRequest(PAYMENT_TEXTS.notConfigured);
  return { keyId, keySecret, webhookSecret };
}

type AxiosLike = { defaults: { baseURL?: string; timeout?: number } };

/**
 * The official SDK (razorpay 2.x). Its constructor hard-codes https://api.razorpay.com and takes no
 * host option; the one place the host lives is the axios instance its API wrapper keeps as `rq`.
 * Re-pointing that instance is what lets RAZORPAY_API_URL (and the tests' fake) work. It is checked
 * here, so an SDK that renames it fails at the first call instead of quietly reaching production.
 */
function sdk(config: Config, keys: RazorpayKeys): Razorpay {
  const client = new Razorpay({ key_id: keys.keyId, key_secret: keys.keySecret });
  const rq = (client.api as unknown as { rq?: AxiosLike }).rq;
  if (!rq?.defaults) throw new Error('razorpay SDK layout changed: cannot point it at RAZORPAY_API_URL');
  rq.defaults.baseURL = config.RAZORPAY_API_URL.replace(/\/$/, '');
  rq.defaults.timeout = 20_000;
  return client;
}

/** The SDK rejects with `{ statusCode, error: { description } }`, or an axios error when nothing answered. */
function providerError(error: unknown): AppError {
  const described = (error as { error?: { description?: unknown } } | null)?.error?.description;
  const detail =
    typeof described === 'string' && described ? `Razorpay: ${described}` : PAYMENT_TEXTS.providerFailed;
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  // Razorpay's 4xx is a refusal of what we asked (shown as is); anything else is Razorpay being down.
  return typeof status === 'number' && status >= 400 && status < 500
    ? new AppError('bad_request', detail)
    : new AppError('unavailable', PAYMENT_TEXTS.providerFailed);
}

async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw providerError(error);
  }
}

/** The few Razorpay calls Parley makes, typed, with Razorpay's refusals turned into API errors. */
export class RazorpayClient {
  private readonly client: Razorpay;

  constructor(config: Config, keys: RazorpayKeys) {
    this.client = sdk(config, keys);
  }

  /** `fail_existing: 0`: Razorpay answers the customer it already has for this email. */
  createCustomer(input: { name: string; email: string; tenantId: number }) {
    return call(() =>
      this.client.customers.create({
        name: input.name,
        email: input.email,
        fail_existing: 0,
        notes: { tenant_id: String(input.tenantId) },
      }),
    );
  }

  createPlan(input: { period: 'monthly' | 'yearly'; name: string; amount: number; currency: string }) {
    return call(() =>
      this.client.plans.create({
        period: input.period,
        interval: 1,
        item: { name: input.name, amount: input.amount, currency: input.currency },
      }),
    );
  }

  createSubscription(input: {
    planId: string;
    customerId: string;
    totalCount: number;
    quantity: number;
    notes: Record<string, string>;
    /** Razorpay's start_at: the first charge then, not at checkout (which only authorises the card). */
    startAt?: Date | null;
  }) {
    return call(() =>
      this.client.subscriptions.create({
        plan_id: input.planId,
        total_count: input.totalCount,
        quantity: input.quantity,
        customer_notify: 1,
        notes: input.notes,
        ...(input.startAt ? { start_at: Math.floor(input.startAt.getTime() / 1000) } : {}),
        // customer_id is accepted by Razorpay's API though the SDK's request type leaves it out.
        ...({ customer_id: input.customerId } as object),
      }),
    );
  }

  fetchSubscription(id: string) {
    return call(() => this.client.subscriptions.fetch(id));
  }

  cancelSubscription(id: string, atCycleEnd: boolean) {
    return call(() => this.client.subscriptions.cancel(id, atCycleEnd));
  }

  /** Now: Razorpay changes the plan at once and charges (or credits) the prorated difference. */
  changePlan(id: string, planId: string) {
    return call(() => this.client.subscriptions.update(id, { plan_id: planId, schedule_change_at: 'now' }));
  }

  /** Razorpay's invoice for a payment: where the customer's tax is (the payment's `tax` is the fee's GST). */
  async invoiceOfPayment(subscriptionId: string, paymentId: string): Promise<RazorpayInvoice | undefined> {
    const list = await call(() => this.client.invoices.all({ subscription_id: subscriptionId, count: 100 }));
    return list.items.find((invoice) => invoice.payment_id === paymentId);
  }
}
