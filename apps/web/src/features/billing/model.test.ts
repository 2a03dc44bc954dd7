import {
  PLAN_FEATURES,
  type Plan,
  type PlanConsumption,
  type Subscription,
  type SubscriptionAddon,
} from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { memoryStore, STORAGE_KEYS } from '../../shared/lib/storage';
import {
  addonAdds,
  addonsCarryText,
  addonsContinueText,
  beyondPlan,
  boughtAddons,
  canCancel,
  characterSources,
  checkoutTarget,
  clearStoredAddon,
  clearStoredPlan,
  comparisonRows,
  findPaid,
  formatMoney,
  formatPeriod,
  invoiceDescription,
  minorDigits,
  minorToDecimal,
  moneyInput,
  newPlanStart,
  parseCount,
  parseMoney,
  parseQuantity,
  percentUsed,
  planAction,
  planToInput,
  readStoredChoice,
  refundText,
  renewalText,
  retentionText,
  returnUrlFor,
  scheduledChange,
  scheduledText,
  usageColor,
  usageRows,
  yearlySaving,
} from './model';

const noFeatures = Object.fromEntries(PLAN_FEATURES.map((f) => [f, false])) as Record<
  (typeof PLAN_FEATURES)[number],
  boolean
>;

function plan(overrides: Partial<Plan> = {}): Plan {
  return {
    ...noFeatures,
    id: 2,
    name: 'Starter',
    description: '',
    currency: 'USD',
    price_monthly: 1900,
    price_yearly: 19000,
    max_chatbots: 3,
    max_team_members: 3,
    messages_credits_per_month: 2000,
    trained_characters_per_chatbot: 2_000_000,
    chat_history_retention: 90,
    is_default: false,
    is_active: true,
    sort_order: 1,
    ...overrides,
  };
}
const free = plan({ id: 1, name: 'Free', price_monthly: 0, price_yearly: 0, is_default: true });

function subscription(overrides: Partial<Subscription> = {}): Subscription {
  return {
    id: 7,
    tenant_id: 1,
    plan_id: 2,
    billing_cycle: 'monthly',
    start_date: '2026-03-01T00:00:00.000Z',
    end_date: '2026-03-31T00:00:00.000Z',
    is_active: true,
    scheduled: false,
    auto_renew: true,
    status: 'active',
    razorpay_subscription_id: 'sub_abc',
    shopify_subscription_id: null,
    complimentary: false,
    custom_limits: null,
    plan: plan(),
    subscription_addons: [],
    ...overrides,
  };
}

describe('money from minor units', () => {
  it('writes the integer as a decimal string without dividing', () => {
    expect(minorToDecimal(1999, 2)).toBe('19.99');
    expect(minorToDecimal(5, 2)).toBe('0.05');
    expect(minorToDecimal(0, 2)).toBe('0.00');
    expect(minorToDecimal(-150, 2)).toBe('-1.50');
    expect(minorToDecimal(1234, 0)).toBe('1234');
    expect(minorToDecimal(1, 3)).toBe('0.001');
    expect(() => minorToDecimal(1.5, 2)).toThrow(RangeError);
  });

  it('knows how many minor digits a currency has', () => {
    expect(minorDigits('USD')).toBe(2);
    expect(minorDigits('INR')).toBe(2);
    expect(minorDigits('JPY')).toBe(0);
    expect(minorDigits('KWD')).toBe(3);
  });

  it('formats money exactly, large amounts included', () => {
    expect(formatMoney(1900, 'USD')).toBe('$19.00');
    expect(formatMoney(1900, 'USD', { trimZeros: true })).toBe('$19');
    expect(formatMoney(1999, 'USD', { trimZeros: true })).toBe('$19.99');
    expect(formatMoney(29, 'USD')).toBe('$0.29');
    expect(formatMoney(123_456_789_01, 'USD')).toBe('$123,456,789.01');
    expect(formatMoney(500, 'JPY')).toBe('¥500');
    expect(formatMoney(199_900, 'INR')).toBe('₹1,999.00');
  });

  it('parses typed prices as text into minor units', () => {
    expect(parseMoney('19')).toEqual({ ok: true, minor: 1900 });
    expect(parseMoney('19.9')).toEqual({ ok: true, minor: 1990 });
    expect(parseMoney(' 0.29 ')).toEqual({ ok: true, minor: 29 });
    expect(parseMoney('1,299.00')).toEqual({ ok: true, minor: 129_900 });
    expect(parseMoney('.5')).toEqual({ ok: true, minor: 50 });
    expect(parseMoney('0')).toEqual({ ok: true, minor: 0 });
    expect(parseMoney('500', 0)).toEqual({ ok: true, minor: 500 });
    expect(parseMoney('1.999').ok).toBe(false);
    expect(parseMoney('5.5', 0).ok).toBe(false);
    expect(parseMoney('-1').ok).toBe(false);
    expect(parseMoney('1e3').ok).toBe(false);
    expect(parseMoney('12,34').ok).toBe(false);
    expect(parseMoney('').ok).toBe(false);
    expect(parseMoney('.').ok).toBe(false);
    expect(parseMoney('100000000.00')).toEqual({ ok: true, minor: 100_000_000_00 });
    expect(parseMoney('100000000.01').ok).toBe(false);
    expect(parseMoney('99999999999999999999').ok).toBe(false);
  });

  it('round-trips a price through the admin form', () => {
    for (const minor of [0, 1, 29, 1900, 19_000, 123_456_78]) {
      expect(parseMoney(moneyInput(minor, 'USD'))).toEqual({ ok: true, minor });
    }
  });

  it('tells what a yearly price saves', () => {
    expect(yearlySaving(plan())).toEqual({ amount: 3800, percent: 16 });
    expect(yearlySaving(free)).toEqual({ amount: 0, percent: 0 });
    expect(yearlySaving(plan({ price_yearly: 30_000 }))).toEqual({ amount: 0, percent: 0 });
  });
});

describe('usage', () => {
  it('gives whole percentages for bars', () => {
    expect(percentUsed(0, 3)).toBe(0);
    expect(percentUsed(2, 3)).toBe(66);
    expect(percentUsed(3, 3)).toBe(100);
    expect(percentUsed(5, 3)).toBe(100);
    expect(percentUsed(1, 1000)).toBe(1);
    expect(percentUsed(1, 0)).toBe(100);
    expect(usageColor(79)).toBe('primary');
    expect(usageColor(80)).toBe('warning');
    expect(usageColor(100)).toBe('error');
  });

  const consumption: PlanConsumption = {
    characters_fileSpace: 1200,
    characters_websource: 300,
    characters_notion: 0,
    characters_qna: 40,
    unlimited: false,
    max_chatbots: 2,
    max_team_members: 1,
    messages_per_month: 12,
    limits: {
      max_chatbots: 3,
      max_team_members: 3,
      messages_credits_per_month: 2000,
      trained_characters_per_chatbot: 2_000_000,
      chat_history_retention: 90,
    },
    plan: 'Starter',
  };

  it('measures bots, team and messages, the message limit preferred when known', () => {
    expect(usageRows(consumption).map((r) => [r.key, r.used, r.limit, r.percent])).toEqual([
      ['bots', 2, 3, 66],
      ['team', 1, 3, 33],
      ['messages', 12, 2000, 1],
    ]);
    const rows = usageRows(consumption, {
      used: 1500,
      limit: 3000,
      remaining: 1500,
      period_start: '',
      period_end: '',
    });
    expect(rows[2]).toMatchObject({ used: 1500, limit: 3000, percent: 50 });
  });

  it('lists trained characters by source with their total', () => {
    const { sources, total } = characterSources(consumption);
    expect(total).toBe(1540);
    expect(sources.map((s) => s.label)).toEqual(['Files', 'Websites', 'Notion', 'Q&A']);
  });

  it('words history retention', () => {
    expect(retentionText(0)).toBe('Kept for ever');
    expect(retentionText(30)).toBe('30 days');
    expect(retentionText(365)).toBe('1 year');
    expect(retentionText(730)).toBe('2 years');
    expect(retentionText(1)).toBe('1 day');
  });
});

describe('plans', () => {
  it('compares limits, then the features any plan has', () => {
    const pro = plan({ id: 3, name: 'Pro', whatsapp_integration: true, capture_leads: true });
    const rows = comparisonRows([free, plan({ capture_leads: true }), pro]);
    expect(rows[0]).toEqual({
      kind: 'limit',
      key: 'max_chatbots',
      label: 'Chatbots',
      values: ['3', '3', '3'],
    });
    expect(rows.find((r) => r.key === 'chat_history_retention')?.values).toEqual([
      '90 days',
      '90 days',
      '90 days',
    ]);
    const features = rows.filter((r) => r.kind === 'feature');
    expect(features.map((r) => [r.label, r.values])).toEqual([
      ['Lead capture', [false, true, true]],
      ['WhatsApp', [false, false, true]],
    ]);
  });

  it('decides what a plan button does', () => {
    const onFree = { planId: free.id, subscription: null };
    expect(planAction(free, 'monthly', onFree)).toEqual({ kind: 'current' });
    expect(planAction(plan(), 'monthly', onFree)).toEqual({ kind: 'subscribe' });
    const paying = { planId: 2, subscription: subscription() };
    expect(planAction(plan(), 'monthly', paying)).toEqual({ kind: 'current' });
    expect(planAction(plan(), 'yearly', paying)).toEqual({ kind: 'change', subscriptionId: 7 });
    expect(planAction(plan({ id: 3 }), 'monthly', paying)).toEqual({ kind: 'change', subscriptionId: 7 });
    expect(planAction(free, 'monthly', paying)).toEqual({ kind: 'free' });
    // Cancelled at the end of the period: a new plan is a new subscription.
    const cancelling = { planId: 2, subscription: subscription({ auto_renew: false }) };
    expect(planAction(plan({ id: 3 }), 'monthly', cancelling)).toEqual({ kind: 'subscribe' });
  });

  it('turns a plan back into the admin body', () => {
    const body = planToInput(plan({ white_labeling: true }));
    expect(body).toMatchObject({
      name: 'Starter',
      price_monthly: 1900,
      white_labeling: true,
      is_active: true,
    });
    expect(body).not.toHaveProperty('id');
  });
});

describe('subscriptions', () => {
  it('words renewal and cancellation', () => {
    const s = subscription();
    expect(renewalText(s, '2026-03-31T00:00:00.000Z', 'UTC')).toBe('Renews on 31 March 2026');
    expect(renewalText(subscription({ auto_renew: false }), null, 'UTC')).toBe('Cancels on 31 March 2026');
    expect(renewalText(null, null)).toBe('');
    expect(canCancel(s)).toBe(true);
    expect(canCancel(subscription({ auto_renew: false }))).toBe(false);
    expect(canCancel(subscription({ status: 'created' }))).toBe(false);
  });

  it('finds what checkout paid for, plan or add-on, once it grants', () => {
    const addon = {
      id: 4,
      tenant_id: 1,
      addon_id: 1,
      quantity: 2,
      start_date: null,
      end_date: null,
      is_active: true,
      status: 'active' as const,
      auto_renew: true,
      razorpay_subscription_id: 'sub_addon',
      addon: {
        id: 1,
        name: '1,000 messages',
        description: '',
        kind: 'messages' as const,
        units: 1000,
        currency: 'USD',
        price_monthly: 1000,
        is_active: true,
      },
    };
    const list = { subscriptions: [subscription({ subscription_addons: [addon] })], addons: [addon] };
    expect(findPaid(list, 'sub_abc')?.kind).toBe('plan');
    // An add-on bought on the free plan has no plan subscription around it.
    expect(findPaid({ subscriptions: [], addons: [addon] }, 'sub_addon')?.kind).toBe('addon');
    expect(
      findPaid({ subscriptions: [subscription({ status: 'created' })], addons: [] }, 'sub_abc'),
    ).toBeNull();
    expect(boughtAddons(list.addons).map((a) => a.id)).toEqual([4]);
    expect(boughtAddons([{ ...addon, status: 'cancelled' }])).toEqual([]);
    expect(addonAdds(addon.addon, 2)).toBe('+2,000 messages a month');
    expect(addonAdds({ kind: 'chatbots', units: 1 }, 1)).toBe('+1 chatbot');
  });

  it('says when a plan chosen after cancelling starts, and finds it once Razorpay authorised it', () => {
    const big = subscription({ id: 7, auto_renew: false, plan: plan({ name: 'Big' }) });
    const small = subscription({
      id: 8,
      plan_id: 3,
      plan: plan({ id: 3, name: 'Small' }),
      status: 'authenticated',
      scheduled: true,
      is_active: false,
      start_date: '2027-01-12T09:30:00.000Z',
      end_date: null,
      razorpay_subscription_id: 'sub_small',
    });
    expect(scheduledText(small, big.plan, 'UTC')).toBe(
      'Small starts on 12 January 2027, when your Big plan ends.',
    );
    expect(scheduledText({ ...small, start_date: null }, big.plan, 'UTC')).toBe(
      'Small starts at the end of the period, when your Big plan ends.',
    );
    // Chosen again after cancelling it: the same plan goes on.
    expect(scheduledText({ ...small, plan: big.plan }, big.plan, 'UTC')).toBe(
      'Big continues on 12 January 2027, when your current period ends.',
    );
    expect(scheduledChange([small, big])?.id).toBe(8);
    // Checkout not completed yet: nothing is scheduled.
    expect(scheduledChange([{ ...small, status: 'created' }, big])).toBeNull();
    expect(findPaid({ subscriptions: [small, big], addons: [] }, 'sub_small')?.kind).toBe('scheduled');
    // A plan bought now starts when a non-renewing one ends, at once otherwise.
    const now = new Date('2026-03-15T00:00:00.000Z');
    expect(newPlanStart(big, null, now)).toBe('2026-03-31T00:00:00.000Z');
    expect(newPlanStart(subscription(), null, now)).toBeNull();
    expect(newPlanStart(big, null, new Date('2026-04-01T00:00:00.000Z'))).toBeNull();
    expect(newPlanStart(null, '2026-06-01T00:00:00.000Z', now)).toBe('2026-06-01T00:00:00.000Z');
    expect(newPlanStart(null, null, now)).toBeNull();
  });

  it('names the bots and seats a smaller plan would leave over its limits, add-ons counted', () => {
    const small = plan({ name: 'Solo', max_chatbots: 1, max_team_members: 2 });
    const none = { max_chatbots: 0, max_team_members: 0 };
    expect(beyondPlan(small, { max_chatbots: 3, max_team_members: 2 }, none)).toEqual([
      '3 chatbots where Solo allows 1',
    ]);
    expect(beyondPlan(small, { max_chatbots: 1, max_team_members: 5 }, none)).toEqual([
      '5 team members where Solo allows 2',
    ]);
    // Two extra chatbots bought as add-ons stay with the workspace on the new plan.
    expect(beyondPlan(small, { max_chatbots: 3, max_team_members: 2 }, { ...none, max_chatbots: 2 })).toEqual(
      [],
    );
    expect(beyondPlan(small, { max_chatbots: 1, max_team_members: 2 }, none)).toEqual([]);
  });

  it('describes invoices and periods', () => {
    expect(
      invoiceDescription({
        lines: [
          { description: 'Starter (monthly)', quantity: 1, amount: 1900 },
          { description: 'Extra chatbot', quantity: 2, amount: 1800 },
        ],
      }),
    ).toBe('Starter (monthly), Extra chatbot × 2');
    expect(formatPeriod('2026-03-01T00:00:00Z', '2026-03-31T00:00:00Z', 'UTC')).toBe(
      '1 March 2026 – 31 March 2026',
    );
    expect(formatPeriod(null, null)).toBe('');
  });

  it('says how much of an invoice was refunded, in part or in full', () => {
    const invoice = { amount: 11_800, currency: 'INR' };
    expect(refundText({ ...invoice, amount_refunded: 0 })).toBe('');
    expect(refundText({ ...invoice, amount_refunded: 3000 })).toBe('Refunded ₹30.00 of ₹118.00');
    expect(refundText({ ...invoice, amount_refunded: 11_800 })).toBe('Refunded in full (₹118.00)');
  });
});

describe('add-ons when the plan changes or ends', () => {
  const link = (overrides: Partial<SubscriptionAddon> = {}): SubscriptionAddon => ({
    id: 4,
    tenant_id: 1,
    addon_id: 1,
    quantity: 2,
    start_date: '2026-03-01T00:00:00.000Z',
    end_date: '2026-04-01T00:00:00.000Z',
    is_active: true,
    status: 'active',
    auto_renew: true,
    razorpay_subscription_id: 'sub_addon',
    addon: {
      id: 1,
      name: 'Messages',
      description: '',
      kind: 'messages',
      units: 1000,
      currency: 'USD',
      price_monthly: 1050,
      is_active: true,
    },
    ...overrides,
  });
  const seats = link({
    id: 5,
    quantity: 1,
    addon: { ...link().addon, id: 2, name: 'Seat', kind: 'team_members', units: 1, price_monthly: 500 },
  });

  it('says, with the figures, that the add-ons carry over to a plan that follows', () => {
    expect(addonsCarryText([link(), seats], 'Small', '2026-03-31T00:00:00.000Z', 'UTC')).toBe(
      'Your add-ons carry over to Small as they are, renewing on their own dates: Seat (+1 team member, $5.00 a month); Messages × 2 (+2,000 messages a month, $21.00 a month). Cancel any you no longer need under Add-ons on the Subscriptions page.',
    );
    // One cancelled at the end of its period carries over until then, and only if it lasts that long.
    const ending = link({ auto_renew: false });
    expect(addonsCarryText([ending], 'Small', '2026-03-31T00:00:00.000Z', 'UTC')).toContain(
      'Messages × 2 (+2,000 messages a month, until 1 April 2026)',
    );
    expect(addonsCarryText([ending], 'Small', '2026-04-02T00:00:00.000Z', 'UTC')).toBe('');
    // Unpaid or ended ones are not the customer's add-ons.
    expect(addonsCarryText([link({ status: 'created' }), link({ status: 'cancelled' })], 'Small', null)).toBe(
      '',
    );
  });

  it('warns that add-ons keep renewing when the plan is cancelled', () => {
    expect(addonsContinueText([link()], 'UTC')).toBe(
      'Your add-on is billed apart from the plan and keeps renewing: Messages × 2 (+2,000 messages a month, $21.00 a month). Cancel it under Add-ons if you no longer need it.',
    );
    expect(addonsContinueText([link(), seats])).toMatch(/^Your add-ons are billed apart .* Cancel them/);
    expect(addonsContinueText([link({ auto_renew: false })])).toBe('');
    expect(addonsContinueText([])).toBe('');
  });
});

describe('the plan chosen in a URL', () => {
  it('reads the stored plan and add-on, then clears each once used', () => {
    const store = memoryStore({
      [STORAGE_KEYS.planId]: '3',
      [STORAGE_KEYS.planFrequency]: 'year',
      [STORAGE_KEYS.addOnId]: '2',
      [STORAGE_KEYS.addOnPlan]: 'monthly',
      [STORAGE_KEYS.addOnQuant]: '4',
      [STORAGE_KEYS.settings]: '{}',
    });
    expect(readStoredChoice(store)).toEqual({
      planId: 3,
      cycle: 'yearly',
      addOnId: 2,
      addOnCycle: 'monthly',
      quantity: 4,
    });
    clearStoredPlan(store);
    expect(readStoredChoice(store)).toMatchObject({ planId: null, cycle: null, addOnId: 2 });
    clearStoredAddon(store);
    expect(readStoredChoice(store)).toEqual({
      planId: null,
      cycle: null,
      addOnId: null,
      addOnCycle: null,
      quantity: null,
    });
    expect(store.getItem(STORAGE_KEYS.settings)).toBe('{}');
  });

  it('ignores values that are not ids, cycles or quantities', () => {
    const store = memoryStore({
      [STORAGE_KEYS.planId]: 'abc',
      [STORAGE_KEYS.planFrequency]: 'weekly',
      [STORAGE_KEYS.addOnQuant]: '0',
    });
    expect(readStoredChoice(store)).toMatchObject({ planId: null, cycle: null, quantity: null });
    expect(parseQuantity('1000')).toBe(1000);
    expect(parseQuantity('1001')).toBeNull();
    expect(parseQuantity('2.5')).toBeNull();
    expect(parseCount('1,000')).toBe(1000);
    expect(parseCount('-1')).toBeNull();
  });
});

describe('checkout', () => {
  const checkout = {
    key_id: 'rzp_test',
    subscription_id: 'sub_123',
    name: 'Parley',
    description: 'Starter (monthly)',
    prefill: { email: 'a@example.com', name: 'A' },
    checkout_url: 'https://checkout.razorpay.com/v1/checkout.js',
  };

  it('loads the script in production and opens a checkout page when given one', () => {
    const back = returnUrlFor('http://127.0.0.1:5000');
    expect(back).toBe('http://127.0.0.1:5000/upgrade');
    expect(checkoutTarget(checkout, back)).toEqual({ kind: 'script', url: checkout.checkout_url });
    expect(
      checkoutTarget({ ...checkout, checkout_url: 'http://127.0.0.1:9000/checkout/sub_123' }, back),
    ).toEqual({
      kind: 'page',
      url: 'http://127.0.0.1:9000/checkout/sub_123?return_url=http%3A%2F%2F127.0.0.1%3A5000%2Fupgrade',
    });
    expect(returnUrlFor('http://x.test', 'sub_1', 'paid')).toBe(
      'http://x.test/upgrade?razorpay_subscription_id=sub_1&status=paid',
    );
  });
});
