import {
  AdminPartnerPage,
  AFFILIATE_TEXTS,
  AffiliatePageQuery,
  AffiliateTerms,
  AnalyticsQuery,
  BecomePartnerResponse,
  CommissionPage,
  CreateLinkBody,
  IdParams,
  LinkResponse,
  MessageResponse,
  PartnerCheck,
  PartnerCheckQuery,
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
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../core/http/request-context.js';
import type { ModuleDeps } from '../../core/module.js';
import { Attribution } from './attribution.js';
import { CommissionsService } from './commissions.service.js';
import { LinksService } from './links.service.js';
import { type PartnerRow, PartnersService } from './partners.service.js';

const tags = ['Affiliation'];

/** The spec's /affiliation/partners calls, and the platform admin's partners, balances and payouts. */
export const affiliateRoutes =
  (deps: ModuleDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const partners = new PartnersService(deps);
    const links = new LinksService(deps);
    const money = new CommissionsService(deps);
    /** A partner's own paged list: the caller must be a partner; `page` and `size` from the query.
     *  `S` ties each list to its response schema; Fastify itself sees a plain schema. */
    const partnerPage = <S extends z.ZodTypeAny>(
      path: string,
      summary: string,
      response: S,
      list: (partner: PartnerRow, query: { page: number; size: number }) => Promise<z.infer<S>>,
    ) =>
      app.get(
        path,
        {
          schema: {
            tags,
            summary,
            querystring: AffiliatePageQuery,
            response: { 200: response as z.ZodTypeAny },
          },
        },
        async (request) => list(await partners.require(requireAuth(request)), request.query),
      );

    app.get(
      '/affiliation/partners/terms',
      { schema: { tags, summary: 'The programme’s terms', response: { 200: AffiliateTerms } } },
      async () => ({
        commission_percent: deps.config.AFFILIATE_COMMISSION_PERCENT,
        commission_months: deps.config.AFFILIATE_COMMISSION_MONTHS,
        cookie_days: deps.config.AFFILIATE_COOKIE_DAYS,
        refund_window_days: deps.config.AFFILIATE_REFUND_WINDOW_DAYS,
      }),
    );
    app.get(
      '/affiliation/partners/check',
      {
        schema: {
          tags,
          summary: 'Whether the caller is a partner',
          querystring: PartnerCheckQuery,
          response: { 200: PartnerCheck },
        },
      },
      async (request) => partners.check(requireAuth(request), request.query.user_id),
    );
    app.post(
      '/affiliation/partners/become',
      {
        schema: {
          tags,
          summary: 'Turn the caller into a partner account (then they see only Partner)',
          response: { 200: BecomePartnerResponse },
        },
      },
      async (request) => ({
        message: AFFILIATE_TEXTS.becamePartner,
        partner: await partners.become(requireAuth(request)),
      }),
    );
    app.get(
      '/affiliation/partners/me',
      {
        schema: {
          tags,
          summary: 'The partner profile with its statistics',
          response: { 200: PartnerProfile },
        },
      },
      async (request) => partners.profile(requireAuth(request)),
    );
    app.put(
      '/affiliation/partners/me',
      {
        schema: {
          tags,
          summary: 'Change the display name or payout details (stored encrypted)',
          body: UpdatePartnerBody,
          response: { 200: PartnerProfileResponse },
        },
      },
      async (request) => ({
        message: AFFILIATE_TEXTS.profileUpdated,
        partner: await partners.update(requireAuth(request), request.body),
      }),
    );
    app.get(
      '/affiliation/partners/analytics',
      {
        schema: {
          tags,
          summary: 'Clicks and conversions per day',
          querystring: AnalyticsQuery,
          response: { 200: ReferralAnalytics },
        },
      },
      async (request) => links.analytics(await partners.require(requireAuth(request)), request.query.days),
    );
    app.post(
      '/affiliation/partners/links',
      {
        schema: {
          tags,
          summary: 'Create a referral link',
          body: CreateLinkBody,
          response: { 201: LinkResponse },
        },
      },
      async (request, reply) => {
        const partner = await partners.require(requireAuth(request));
        const link = await links.create(partner, request.body);
        return reply.code(201).send({ message: AFFILIATE_TEXTS.linkCreated, link });
      },
    );
    partnerPage(
      '/affiliation/partners/links',
      'The referral links with clicks and conversions (page, size)',
      ReferralLinkPage,
      (partner, query) => links.list(partner, query),
    );
    app.put(
      '/affiliation/partners/links/:id',
      {
        schema: {
          tags,
          summary: 'Change a referral link’s destination or campaign',
          params: IdParams,
          body: UpdateLinkBody,
          response: { 200: LinkResponse },
        },
      },
      async (request) => {
        const partner = await partners.require(requireAuth(request));
        const link = await links.update(partner, request.params.id, request.body);
        return { message: AFFILIATE_TEXTS.linkUpdated, link };
      },
    );
    app.delete(
      '/affiliation/partners/links/:id',
      {
        schema: {
          tags,
          summary: 'Delete a referral link (its referrals and commissions stay)',
          params: IdParams,
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        await links.remove(await partners.require(requireAuth(request)), request.params.id);
        return { message: AFFILIATE_TEXTS.linkDeleted };
      },
    );
    partnerPage(
      '/affiliation/partners/referrals',
      'Workspaces referred, by anonymised name (page, size)',
      ReferralPage,
      (partner, query) => links.referrals(partner, query),
    );
    partnerPage(
      '/affiliation/partners/commissions',
      'Commissions with their payout status (page, size)',
      CommissionPage,
      (partner, query) => money.forPartner(partner, query),
    );

    app.get(
      '/admin/affiliation/partners',
      {
        schema: {
          tags,
          summary: 'Every partner with balances (platform admins)',
          querystring: AffiliatePageQuery,
          response: { 200: AdminPartnerPage },
        },
      },
      async (request) => money.partners(request.query),
    );
    app.get(
      '/admin/affiliation/partners.csv',
      {
        schema: {
          tags,
          summary: 'Every partner with balances per currency, as CSV (platform admins)',
          produces: ['text/csv'],
          response: { 200: z.string() },
        },
      },
      async (_request, reply) =>
        reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header(
            'content-disposition',
            `attachment; filename="partners-${new Date().toISOString().slice(0, 10)}.csv"`,
          )
          .send(await money.csv()),
    );
    app.post(
      '/admin/affiliation/partners/:id/payouts',
      {
        schema: {
          tags,
          summary:
            'Mark a partner’s approved commissions in a currency as paid, when they still add up to `amount` (platform admins)',
          params: IdParams,
          body: PayoutBody,
          response: { 201: PayoutResponse },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await money.markPaid(requireAuth(request), request.params.id, request.body)),
    );
  };

/** /r/{code}, outside /api: count the click, set the attribution cookie, send the visitor on. */
export const referralRedirect =
  (deps: ModuleDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const attribution = new Attribution(deps);
    app.get(
      '/r/:code',
      { schema: { hide: true, params: z.object({ code: z.string() }) } },
      async (request, reply) => {
        const to = await attribution.visit(request, reply, request.params.code);
        return reply.header('cache-control', 'no-store').redirect(to, 302);
      },
    );
  };

export { Attribution };
