import {
  EmailLog,
  EmailLogQuery,
  IdParams,
  MessageResponse,
  NotificationCount,
  NotificationCountQuery,
  NotificationList,
  NotificationListQuery,
  SendEmailBody,
  SendEmailResponse,
} from '@parley/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../core/errors.js';
import { requireAuth } from '../../core/http/request-context.js';
import type { FeatureModule, ModuleDeps } from '../../core/module.js';
import { EMAIL_SENT, NotificationEmailsService } from './notification-emails.service.js';
import { NotificationsService } from './notifications.service.js';

const tags = ['Notifications'];

const routes =
  (deps: ModuleDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const inbox = new NotificationsService(deps.db);
    const emails = new NotificationEmailsService(deps.db, deps.mail);

    app.get(
      '/notification/count',
      {
        schema: {
          tags,
          summary:
            "The bell's count: the caller's notifications not yet seen (user_id and tenant_id are the caller's)",
          querystring: NotificationCountQuery,
          response: { 200: NotificationCount },
        },
      },
      async (request) => {
        const auth = requireAuth(request);
        // The spec's fetch names the user and tenant; anyone else's answers as if it did not exist.
        if (request.query.user_id !== auth.userId || request.query.tenant_id !== auth.tenantId)
          throw notFound();
        return { count: await inbox.unseenCount(auth) };
      },
    );

    app.get(
      '/notification/list',
      {
        schema: {
          tags,
          summary: "The caller's notifications, newest first, with the unread and unseen counts",
          querystring: NotificationListQuery,
          response: { 200: NotificationList },
        },
      },
      async (request) => {
        const { limit, before, unread } = request.query;
        return inbox.list(requireAuth(request), { limit, before, unreadOnly: unread === 'true' });
      },
    );

    app.post(
      '/notification/seen',
      {
        schema: {
          tags,
          summary: 'The bell was opened: its count goes to 0',
          response: { 200: NotificationCount },
        },
      },
      async (request) => {
        await inbox.markSeen(requireAuth(request));
        return { count: 0 };
      },
    );

    app.post(
      '/notification/:id/read',
      {
        schema: {
          tags,
          summary: 'Marks one of the caller’s notifications read',
          params: IdParams,
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        if (!(await inbox.markRead(requireAuth(request), request.params.id)))
          throw notFound('Notification not found');
        return { message: 'Notification marked as read' };
      },
    );

    app.post(
      '/notification/read-all',
      {
        schema: {
          tags,
          summary: 'Marks all of the caller’s notifications read',
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        await inbox.markAllRead(requireAuth(request));
        return { message: 'All notifications marked as read' };
      },
    );

    app.post(
      '/notification/send-email',
      {
        schema: {
          tags,
          summary: 'Mails teammates of the workspace (optionally about a bot); rate-limited per workspace',
          body: SendEmailBody,
          response: { 201: SendEmailResponse },
        },
      },
      async (request, reply) => {
        const ids = await emails.send(requireAuth(request), request.body);
        return reply.status(201).send({ message: EMAIL_SENT, email_ids: ids });
      },
    );

    app.get(
      '/notification/emails/',
      {
        schema: {
          tags,
          summary:
            'The mail log of email notifications: dates inclusive (UTC), bot filter; tenant_id for platform admins',
          querystring: EmailLogQuery,
          response: { 200: EmailLog },
        },
      },
      async (request) => emails.log(requireAuth(request), request.query),
    );
  };

/** The bell's notifications and email notifications (OTP and password reset stay in notifications.routes.ts). */
export const notificationsModule: FeatureModule = { routes };
