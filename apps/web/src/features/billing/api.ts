import type {
  AddAddonBody,
  Addon,
  AddonCheckoutResponse,
  AddonInput,
  CheckoutResponse,
  CreateSubscriptionBody,
  InvoiceHistory,
  PendingSubscriptions,
  Plan,
  PlanConsumption,
  PlanInput,
  Subscription,
  SubscriptionAddon,
  SubscriptionsResponse,
  UpgradeSubscriptionBody,
} from '@parley/contracts';
import { api } from '../../shared/api/base-api';

const tagged = api.enhanceEndpoints({
  addTagTypes: ['Plans', 'Addons', 'Subscriptions', 'Consumption', 'Invoices', 'AdminPricing'],
});

/** What a purchase changes: the subscriptions, the limits measured against them and the invoices. */
const AFTER_PURCHASE = ['Subscriptions', 'Consumption', 'Invoices'] as const;

/**
 * Plans, add-ons, subscriptions, invoices (integrations-and-billing.md section 7; contracts
 * billing.ts and payments.ts). Failures toast the server's detail (section 8), except where a
 * screen shows its own text: the invoice history and the admin dialogs.
 */
export const billingApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    plans: build.query<Plan[], void>({ query: () => '/pricing/plans', providesTags: ['Plans'] }),
    addons: build.query<Addon[], void>({ query: () => '/pricing/addons', providesTags: ['Addons'] }),
    subscriptions: build.query<SubscriptionsResponse, number>({
      query: (tenantId) => `/pricing/subscriptions/${tenantId}`,
      providesTags: ['Subscriptions'],
    }),
    pendingSubscriptions: build.query<PendingSubscriptions, number>({
      query: (tenantId) => `/pricing/subscriptions/pending/${tenantId}`,
      providesTags: ['Subscriptions'],
    }),
    inProcessSubscriptions: build.query<PendingSubscriptions, number>({
      query: (tenantId) => `/pricing/subscriptions/inprocess/${tenantId}`,
      providesTags: ['Subscriptions'],
    }),
    consumption: build.query<PlanConsumption, number>({
      query: (tenantId) => `/pricing/consumption/${tenantId}`,
      providesTags: ['Consumption'],
    }),
    invoiceHistory: build.query<InvoiceHistory, number>({
      query: (tenantId) => `/payment/invoice-history/${tenantId}`,
      extraOptions: { silent: true },
      providesTags: ['Invoices'],
    }),

    createSubscription: build.mutation<CheckoutResponse, CreateSubscriptionBody>({
      query: (body) => ({ url: '/payment/create-subscription', method: 'POST', body }),
      invalidatesTags: ['Subscriptions'],
    }),
    addAddon: build.mutation<AddonCheckoutResponse, AddAddonBody>({
      query: (body) => ({ url: '/payment/add-addon', method: 'POST', body }),
      invalidatesTags: ['Subscriptions'],
    }),
    upgradeSubscription: build.mutation<Subscription, UpgradeSubscriptionBody>({
      query: (body) => ({ url: '/payment/subscription/upgrade', method: 'POST', body }),
      invalidatesTags: [...AFTER_PURCHASE],
    }),
    /** At the end of the period by default: the plan stays until then (spec section 4). */
    cancelSubscription: build.mutation<Subscription, { id: number; atPeriodEnd?: boolean }>({
      query: ({ id, atPeriodEnd = true }) => ({
        url: `/payment/cancel-subscription/${id}`,
        method: 'POST',
        body: { at_period_end: atPeriodEnd },
      }),
      invalidatesTags: [...AFTER_PURCHASE],
    }),
    cancelAddon: build.mutation<SubscriptionAddon, { id: number; atPeriodEnd?: boolean }>({
      query: ({ id, atPeriodEnd = true }) => ({
        url: `/payment/cancel-addon-subscription/${id}`,
        method: 'POST',
        body: { at_period_end: atPeriodEnd },
      }),
      invalidatesTags: [...AFTER_PURCHASE],
    }),

    adminPlans: build.query<Plan[], void>({
      query: () => '/admin/pricing/plans',
      providesTags: ['AdminPricing'],
    }),
    adminAddons: build.query<Addon[], void>({
      query: () => '/admin/pricing/addons',
      providesTags: ['AdminPricing'],
    }),
    savePlan: build.mutation<Plan, { id?: number; body: PlanInput }>({
      query: ({ id, body }) =>
        id === undefined
          ? { url: '/admin/pricing/plans', method: 'POST', body }
          : { url: `/admin/pricing/plans/${id}`, method: 'PUT', body },
      extraOptions: { silent: true },
      invalidatesTags: ['AdminPricing', 'Plans'],
    }),
    saveAddon: build.mutation<Addon, { id?: number; body: AddonInput }>({
      query: ({ id, body }) =>
        id === undefined
          ? { url: '/admin/pricing/addons', method: 'POST', body }
          : { url: `/admin/pricing/addons/${id}`, method: 'PUT', body },
      extraOptions: { silent: true },
      invalidatesTags: ['AdminPricing', 'Addons'],
    }),
  }),
});

export const {
  usePlansQuery,
  useAddonsQuery,
  useSubscriptionsQuery,
  usePendingSubscriptionsQuery,
  useInProcessSubscriptionsQuery,
  useConsumptionQuery,
  useInvoiceHistoryQuery,
  useCreateSubscriptionMutation,
  useAddAddonMutation,
  useUpgradeSubscriptionMutation,
  useCancelSubscriptionMutation,
  useCancelAddonMutation,
  useAdminPlansQuery,
  useAdminAddonsQuery,
  useSavePlanMutation,
  useSaveAddonMutation,
} = billingApi;
