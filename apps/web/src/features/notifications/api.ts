import {
  type EmailLog,
  type EmailLogQuery,
  NOTIFICATION_LIMITS,
  type NotificationCount,
  type NotificationList,
  type SendEmailBody,
  type SendEmailResponse,
} from '@parley/contracts';
import { api } from '../../shared/api/base-api';

const tagged = api.enhanceEndpoints({
  addTagTypes: ['NotificationCount', 'Notifications', 'NotificationEmails'],
});

/** The user and tenant the count is fetched for (spec section 7: numeric user_id and tenant_id). */
export type CountArgs = { userId: number; tenantId: number };

/**
 * The bell (console.md sections 4 and 7; contracts notifications.ts): the count of notifications not
 * yet seen, fetched on load and again when the admin channel says one was stored; the list, read and
 * unread. Failures of the count stay silent: the bell keeps what it showed.
 */
export const notificationsApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    notificationCount: build.query<NotificationCount, CountArgs>({
      query: ({ userId, tenantId }) => ({
        url: '/notification/count',
        params: { user_id: userId, tenant_id: tenantId },
      }),
      extraOptions: { silent: true },
      providesTags: ['NotificationCount'],
    }),
    /**
     * The list a page at a time, newest first: each page asks for what is older than the last one
     * shown (`before`, 0 for the newest). A refetch (after marking read) reloads every page shown.
     */
    notifications: build.infiniteQuery<NotificationList, void, number>({
      infiniteQueryOptions: {
        initialPageParam: 0,
        getNextPageParam: (lastPage) =>
          lastPage.notifications.length < NOTIFICATION_LIMITS.pageSize
            ? undefined
            : lastPage.notifications.at(-1)?.id,
      },
      query: ({ pageParam }) => ({
        url: '/notification/list',
        params: pageParam ? { before: pageParam } : undefined,
      }),
      providesTags: ['Notifications'],
    }),
    markSeen: build.mutation<NotificationCount, void>({
      query: () => ({ url: '/notification/seen', method: 'POST' }),
      // Opening the bell resets the count at once (spec section 4); the refetch confirms it.
      onQueryStarted: (_arg, { dispatch, getState }) => {
        const cached = notificationsApi.util.selectInvalidatedBy(getState(), ['NotificationCount']);
        for (const { endpointName, originalArgs } of cached) {
          if (endpointName !== 'notificationCount') continue;
          dispatch(
            notificationsApi.util.updateQueryData('notificationCount', originalArgs as CountArgs, (draft) => {
              draft.count = 0;
            }),
          );
        }
      },
      invalidatesTags: ['NotificationCount', 'Notifications'],
    }),
    markNotificationRead: build.mutation<{ message: string }, number>({
      query: (id) => ({ url: `/notification/${id}/read`, method: 'POST' }),
      invalidatesTags: ['NotificationCount', 'Notifications'],
    }),
    markAllNotificationsRead: build.mutation<{ message: string }, void>({
      query: () => ({ url: '/notification/read-all', method: 'POST' }),
      invalidatesTags: ['NotificationCount', 'Notifications'],
    }),
    /** Mails teammates (Inbox write); a failure's detail (the hourly limit's 429 too) is toasted. */
    sendEmailNotification: build.mutation<SendEmailResponse, SendEmailBody>({
      query: (body) => ({ url: '/notification/send-email', method: 'POST', body }),
      invalidatesTags: ['NotificationEmails'],
    }),
    /** The mail log (Inbox read), newest first; the server answers at most 500 and does not page. */
    emailLog: build.query<EmailLog, EmailLogQuery>({
      query: (params) => ({ url: '/notification/emails/', params }),
      providesTags: ['NotificationEmails'],
    }),
  }),
});

export const {
  useNotificationCountQuery,
  useNotificationsInfiniteQuery,
  useMarkSeenMutation,
  useMarkNotificationReadMutation,
  useMarkAllNotificationsReadMutation,
  useSendEmailNotificationMutation,
  useEmailLogQuery,
} = notificationsApi;

/** The admin channel's event: the count (and an open list) are fetched again. */
export const notificationStored = () =>
  notificationsApi.util.invalidateTags(['NotificationCount', 'Notifications']);
