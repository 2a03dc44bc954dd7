import type {
  AdminPartnerPage,
  BecomePartnerResponse,
  CommissionPage,
  CreateLinkBody,
  LinkResponse,
  MessageResponse,
  PartnerProfile,
  PartnerProfileResponse,
  PayoutBody,
  PayoutResponse,
  ReferralAnalytics,
  ReferralLinkPage,
  ReferralPage,
  UpdateLinkBody,
  UpdatePartnerBody,
} from '@parley/contracts';
import { api } from '../../shared/api/base-api';

const tagged = api.enhanceEndpoints({
  addTagTypes: ['PartnerProfile', 'PartnerLinks', 'PartnerReferrals', 'PartnerCommissions', 'AdminPartners'],
});

export type Paging = { page: number; size: number };
const paged = (path: string, { page, size }: Paging) => `${path}?page=${page}&size=${size}`;

/**
 * The affiliate programme (spec console.md section 7, Affiliation). Failures show the spec's own
 * texts on the screen (section 8), so the requests are silent and the pages say what failed.
 */
export const partnerApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    partnerProfile: build.query<PartnerProfile, void>({
      query: () => '/affiliation/partners/me',
      extraOptions: { silent: true },
      providesTags: ['PartnerProfile'],
    }),
    becomePartner: build.mutation<BecomePartnerResponse, void>({
      query: () => ({ url: '/affiliation/partners/become', method: 'POST' }),
      extraOptions: { silent: true },
      // 'Me': a session load sent before joining would otherwise take the partner area away again.
      invalidatesTags: ['PartnerProfile', 'Me'],
    }),
    updatePartner: build.mutation<PartnerProfileResponse, UpdatePartnerBody>({
      query: (body) => ({ url: '/affiliation/partners/me', method: 'PUT', body }),
      extraOptions: { silent: true },
      invalidatesTags: ['PartnerProfile'],
    }),
    referralAnalytics: build.query<ReferralAnalytics, number>({
      query: (days) => `/affiliation/partners/analytics?days=${days}`,
      extraOptions: { silent: true },
      providesTags: ['PartnerLinks', 'PartnerReferrals'],
    }),
    referralLinks: build.query<ReferralLinkPage, Paging>({
      query: (paging) => paged('/affiliation/partners/links', paging),
      extraOptions: { silent: true },
      providesTags: ['PartnerLinks'],
    }),
    createLink: build.mutation<LinkResponse, CreateLinkBody>({
      query: (body) => ({ url: '/affiliation/partners/links', method: 'POST', body }),
      extraOptions: { silent: true },
      invalidatesTags: ['PartnerLinks', 'PartnerProfile'],
    }),
    updateLink: build.mutation<LinkResponse, { id: number; body: UpdateLinkBody }>({
      query: ({ id, body }) => ({ url: `/affiliation/partners/links/${id}`, method: 'PUT', body }),
      extraOptions: { silent: true },
      invalidatesTags: ['PartnerLinks'],
    }),
    deleteLink: build.mutation<MessageResponse, number>({
      query: (id) => ({ url: `/affiliation/partners/links/${id}`, method: 'DELETE' }),
      extraOptions: { silent: true },
      invalidatesTags: ['PartnerLinks', 'PartnerProfile'],
    }),
    referrals: build.query<ReferralPage, Paging>({
      query: (paging) => paged('/affiliation/partners/referrals', paging),
      extraOptions: { silent: true },
      providesTags: ['PartnerReferrals'],
    }),
    commissions: build.query<CommissionPage, Paging>({
      query: (paging) => paged('/affiliation/partners/commissions', paging),
      extraOptions: { silent: true },
      providesTags: ['PartnerCommissions'],
    }),
    adminPartners: build.query<AdminPartnerPage, Paging>({
      query: (paging) => paged('/admin/affiliation/partners', paging),
      providesTags: ['AdminPartners'],
    }),
    markPayout: build.mutation<PayoutResponse, { partnerId: number; body: PayoutBody }>({
      query: ({ partnerId, body }) => ({
        url: `/admin/affiliation/partners/${partnerId}/payouts`,
        method: 'POST',
        body,
      }),
      // Also when refused because the balance moved: the list reloads with the new amount.
      invalidatesTags: ['AdminPartners'],
    }),
  }),
});

export const {
  usePartnerProfileQuery,
  useBecomePartnerMutation,
  useUpdatePartnerMutation,
  useReferralAnalyticsQuery,
  useReferralLinksQuery,
  useCreateLinkMutation,
  useUpdateLinkMutation,
  useDeleteLinkMutation,
  useReferralsQuery,
  useCommissionsQuery,
  useAdminPartnersQuery,
  useMarkPayoutMutation,
} = partnerApi;
