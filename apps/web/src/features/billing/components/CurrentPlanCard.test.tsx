// @vitest-environment jsdom
import { PLAN_FEATURES, type Plan, type Subscription, type SubscriptionAddon } from '@parley/contracts';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../../app/store';
import { BrowserRequest, json } from '../../../test/api-stubs';
import { CurrentPlanCard } from './CurrentPlanCard';

const noFeatures = Object.fromEntries(PLAN_FEATURES.map((f) => [f, false])) as Record<
  (typeof PLAN_FEATURES)[number],
  boolean
>;
const plan = (id: number, name: string, price: number): Plan => ({
  ...noFeatures,
  id,
  name,
  description: '',
  currency: 'INR',
  price_monthly: price,
  price_yearly: price * 10,
  max_chatbots: 3,
  max_team_members: 3,
  messages_credits_per_month: 100,
  trained_characters_per_chatbot: 1_000_000,
  chat_history_retention: 0,
  is_default: false,
  is_active: true,
  sort_order: 0,
});
const big: Subscription = {
  id: 7,
  tenant_id: 1,
  plan_id: 2,
  billing_cycle: 'monthly',
  start_date: '2026-12-12T12:00:00.000Z',
  end_date: '2027-01-12T12:00:00.000Z',
  is_active: true,
  scheduled: false,
  auto_renew: false,
  status: 'active',
  razorpay_subscription_id: 'sub_big',
  shopify_subscription_id: null,
  complimentary: false,
  custom_limits: null,
  plan: plan(2, 'Big', 500000),
  subscription_addons: [],
};
const small: Subscription = {
  ...big,
  id: 8,
  plan_id: 3,
  plan: plan(3, 'Small', 200000),
  start_date: big.end_date,
  end_date: null,
  is_active: false,
  scheduled: true,
  auto_renew: true,
  status: 'authenticated',
  razorpay_subscription_id: 'sub_small',
};

const messages: SubscriptionAddon = {
  id: 4,
  tenant_id: 1,
  addon_id: 1,
  quantity: 2,
  start_date: '2026-12-20T00:00:00.000Z',
  end_date: '2027-01-20T00:00:00.000Z',
  is_active: true,
  status: 'active',
  auto_renew: true,
  razorpay_subscription_id: 'sub_addon',
  addon: {
    id: 1,
    name: 'Messages',
    description: '',
    kind: 'messages',
    units: 500,
    currency: 'INR',
    price_monthly: 50000,
    is_active: true,
  },
};

function renderCard(
  next: Subscription | null,
  canManage = true,
  { subscription = big, addons = [] as SubscriptionAddon[] } = {},
) {
  return render(
    <Provider store={makeStore()}>
      <MemoryRouter>
        <CurrentPlanCard
          plan={big.plan}
          subscription={subscription}
          next={next}
          addons={addons}
          renewsAt={null}
          complimentary={false}
          endsAt={null}
          paymentsEnabled
          canChange
          canManage={canManage}
        />
      </MemoryRouter>
    </Provider>,
  );
}

describe('the current plan card with a plan scheduled to follow it', () => {
  beforeEach(() => {
    vi.stubGlobal('Request', BrowserRequest);
    localStorage.setItem('accessToken', 'token');
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('says when the new plan starts, and undoing it cancels the scheduled subscription now', async () => {
    const calls: { url: string; method: string; body: unknown }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: Request) => {
        calls.push({ url: new URL(input.url).pathname, method: input.method, body: await input.json() });
        return json({ ...small, status: 'cancelled', scheduled: false });
      }),
    );
    renderCard(small);
    // Big still applies: its end, then what follows it.
    expect(screen.getByText(/^Cancels on \d{1,2} January 2027$/)).toBeTruthy();
    expect(screen.getByRole('status').textContent).toMatch(
      /^Small starts on 1[23] January 2027, when your Big plan ends\.$/,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Undo change' }));
    const dialog = await screen.findByRole('dialog', { name: 'Undo the change to Small?' });
    expect(
      within(dialog).getByText(/Small will not start and nothing is charged for it\. Big stays yours until/),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Undo change' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toEqual({
      url: '/api/payment/cancel-subscription/8',
      method: 'POST',
      body: { at_period_end: false },
    });
  }, 20_000);

  it('says before anything changes that the add-ons carry over to Small, with their figures', async () => {
    renderCard(small, true, { addons: [messages] });
    expect(screen.getByRole('status').textContent).toMatch(
      /^Small starts on 1[23] January 2027, when your Big plan ends\. Your add-ons carry over to Small as they are, renewing on their own dates: Messages × 2 \(\+1,000 messages a month, ₹1,000\.00 a month\)\. Cancel any you no longer need under Add-ons on the Subscriptions page\.$/,
    );
    // Undoing the change leaves them renewing on the free plan: said before confirming.
    fireEvent.click(screen.getByRole('button', { name: 'Undo change' }));
    const dialog = await screen.findByRole('dialog', { name: 'Undo the change to Small?' });
    expect(dialog.textContent).toContain(
      'Your add-on is billed apart from the plan and keeps renewing: Messages × 2 (+1,000 messages a month, ₹1,000.00 a month).',
    );
  });

  it('does not promise that nothing more is charged when add-ons keep renewing after a cancellation', async () => {
    renderCard(null, true, { subscription: { ...big, auto_renew: true }, addons: [messages] });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel subscription' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel your Big subscription?' });
    expect(dialog.textContent).toContain('Nothing more will be charged for Big.');
    expect(dialog.textContent).toContain(
      'Your add-on is billed apart from the plan and keeps renewing: Messages × 2 (+1,000 messages a month, ₹1,000.00 a month). Cancel it under Add-ons if you no longer need it.',
    );
  });

  it('says nothing of a change when none is scheduled, and offers no undo to a reader', () => {
    const { unmount } = renderCard(null);
    expect(screen.queryByText(/starts on/)).toBeNull();
    unmount();
    renderCard(small, false);
    expect(screen.getByText(/Small starts on/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Undo change' })).toBeNull();
  });
});
