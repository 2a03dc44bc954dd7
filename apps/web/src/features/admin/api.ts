import type {
  AdminHealth,
  AdminJob,
  AdminJobsPage,
  AdminJobsQuery,
  AdminMail,
  AdminMailPage,
  AdminMailQuery,
  AdminPlanGrant,
  AdminPlanGrantResult,
  AdminWorkspaceDetail,
  AdminWorkspacePage,
  AdminWorkspacesQuery,
  Demo,
  DemoKind,
  DemoList,
} from '@parley/contracts';
import { api } from '../../shared/api/base-api';

const tagged = api.enhanceEndpoints({ addTagTypes: ['AdminJobs', 'AdminMail', 'Demos', 'AdminWorkspaces'] });

/** Only the parameters that are set, so the URL carries no `status=undefined`. */
const params = (query: object) =>
  Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined && value !== ''));

/** The platform admins' console (contracts admin.ts): workspaces, jobs, mail, health and demos. */
export const adminApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    adminWorkspaces: build.query<AdminWorkspacePage, AdminWorkspacesQuery>({
      query: (query) => ({ url: '/admin/workspaces', params: params(query) }),
      providesTags: ['AdminWorkspaces'],
    }),
    adminWorkspace: build.query<AdminWorkspaceDetail, number>({
      query: (id) => `/admin/workspaces/${id}`,
      providesTags: ['AdminWorkspaces'],
    }),
    /** Puts a workspace on a plan without payment (complimentary), or ends that. */
    grantPlan: build.mutation<AdminPlanGrantResult, { id: number; body: AdminPlanGrant }>({
      query: ({ id, body }) => ({ url: `/admin/workspaces/${id}/plan`, method: 'PUT', body }),
      extraOptions: { silent: true },
      invalidatesTags: ['AdminWorkspaces'],
    }),
    endGrant: build.mutation<AdminPlanGrantResult, number>({
      query: (id) => ({ url: `/admin/workspaces/${id}/plan`, method: 'DELETE' }),
      extraOptions: { silent: true },
      invalidatesTags: ['AdminWorkspaces'],
    }),
    adminJobs: build.query<AdminJobsPage, AdminJobsQuery>({
      query: (query) => ({ url: '/admin/jobs', params: params(query) }),
      providesTags: ['AdminJobs'],
    }),
    retryJob: build.mutation<AdminJob, string>({
      query: (id) => ({ url: `/admin/jobs/${id}/retry`, method: 'POST' }),
      invalidatesTags: ['AdminJobs'],
    }),
    adminMail: build.query<AdminMailPage, AdminMailQuery>({
      query: (query) => ({ url: '/admin/mail', params: params(query) }),
      providesTags: ['AdminMail'],
    }),
    resendMail: build.mutation<AdminMail, number>({
      query: (id) => ({ url: `/admin/mail/${id}/resend`, method: 'POST' }),
      invalidatesTags: ['AdminMail', 'AdminJobs'],
    }),
    adminHealth: build.query<AdminHealth, void>({ query: () => '/admin/health' }),
    demos: build.query<DemoList, void>({ query: () => '/admin/demos', providesTags: ['Demos'] }),
    setUpDemo: build.mutation<Demo, DemoKind>({
      query: (kind) => ({ url: `/admin/demos/${kind}`, method: 'POST' }),
      invalidatesTags: ['Demos'],
    }),
  }),
});

export const {
  useAdminWorkspacesQuery,
  useAdminWorkspaceQuery,
  useGrantPlanMutation,
  useEndGrantMutation,
  useAdminJobsQuery,
  useRetryJobMutation,
  useAdminMailQuery,
  useResendMailMutation,
  useAdminHealthQuery,
  useDemosQuery,
  useSetUpDemoMutation,
} = adminApi;
