import {
  CompletePasswordResetBody,
  ContactBody,
  EmailBody,
  MESSAGES,
  MessageResponse,
  VerifiedResponse,
  VerifyOtpBody,
} from '@parley/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../core/db/database.js';
import { contactMessages } from '../../core/db/schema.js';
import type { AttemptLimiter } from '../auth/attempt-limiter.js';
import type { MailService } from '../mail/mail.service.js';
import type { OtpService } from './otp.service.js';

const tags = ['Notifications'];

export const notificationsRoutes =
  (
    otp: OtpService,
    db: Db,
    mail: MailService,
    limiter: AttemptLimiter,
    contactEmail: string | undefined,
  ): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/notification/generate-otp',
      {
        schema: {
          tags,
          summary: 'Mail a six-digit code to confirm an address',
          body: EmailBody,
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        await otp.sendVerificationCode(request.ip, request.body.email);
        return { message: MESSAGES.otp.codeSent };
      },
    );
    app.post(
      '/notification/verify-otp',
      {
        schema: {
          tags,
          summary: 'Check a code and mark the address verified',
          body: VerifyOtpBody,
          response: { 200: VerifiedResponse },
        },
      },
      async (request) => {
        await otp.verifyEmail(request.ip, request.body.email, request.body.otp);
        return { verified: true as const, message: MESSAGES.otp.verified };
      },
    );
    app.post(
      '/notification/request-password-reset/',
      {
        schema: {
          tags,
          summary: 'Mail a reset code (same answer whether or not the account exists)',
          body: EmailBody,
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        await otp.requestPasswordReset(request.ip, request.body.email);
        return { message: MESSAGES.otp.sent };
      },
    );
    app.post(
      '/notification/verify-password-reset/',
      {
        schema: {
          tags,
          summary: 'Check a reset code without using it',
          body: VerifyOtpBody,
          response: { 200: VerifiedResponse },
        },
      },
      async (request) => {
        await otp.verifyPasswordReset(request.ip, request.body.email, request.body.otp);
        return { verified: true as const, message: MESSAGES.otp.verified };
      },
    );
    app.post(
      '/notification/complete-password-reset/',
      {
        schema: {
          tags,
          summary: 'Set a new password with a reset code',
          body: CompletePasswordResetBody,
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        const { email, otp: code, new_password } = request.body;
        await otp.completePasswordReset(request.ip, email, code, new_password);
        return { message: MESSAGES.otp.passwordReset };
      },
    );
    app.post(
      '/contact',
      {
        schema: {
          tags,
          summary: 'Send a message to the Parley team',
          body: ContactBody,
          response: { 201: MessageResponse },
        },
      },
      async (request, reply) => {
        await limiter.attemptFromIp(request.ip);
        const body = request.body;
        await db.transaction(async (tx) => {
          await tx
            .insert(contactMessages)
            .values({ name: body.name, email: body.email, subject: body.subject, message: body.message });
          if (contactEmail) {
            const subject = `Contact form: ${body.subject ?? body.name}`;
            await mail.send(
              { to: contactEmail, subject, text: `From ${body.name} <${body.email}>\n\n${body.message}` },
              tx,
            );
          }
        });
        return reply.status(201).send({ message: 'Thank you, your message has been sent.' });
      },
    );
  };
