import {
  type CampaignAnalytics,
  type CampaignCounts,
  type CampaignInput,
  type CampaignLogList,
  type RecipientStatus,
  type VariableSource,
  WHATSAPP_TEXTS,
  type WhatsAppCampaign,
} from '@parley/contracts';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { type Db, queryPrepared } from '../../core/db/database.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import type { ModuleDeps } from '../../core/module.js';
import type { WhatsAppAccountsService } from './accounts.service.js';
import { type TemplateRow, templateMessage, variablesOf } from './template-rules.js';
import type { TemplatesService } from './templates.service.js';
import { whatsappCampaigns, whatsappRecipients } from './whatsapp.schema.js';

export const CAMPAIGN_RUN_JOB = 'whatsapp.campaign.run';
type CampaignRow = typeof whatsappCampaigns.$inferSelect;
export type CampaignTemplate = Pick<TemplateRow, 'name' | 'language' | 'body' | 'header' | 'footer'> & {
  /** The header's value for every recipient (its text, or the link of its media). */
  header_value?: string | null;
};

/**
 * Campaigns: an approved template to an audience of contacts (by tags; never the opted out), with
 * variables mapped to contact fields, sent now or at a time by the campaign job (campaign.runner.ts),
 * paused and resumed, with a log row per recipient and analytics from the status webhooks.
 */
export class CampaignsService {
  constructor(
    private readonly deps: ModuleDeps,
    private readonly accounts: WhatsAppAccountsService,
    private readonly templates: TemplatesService,
  ) {}

  private get db(): Db {
    return this.deps.db;
  }

  async create(
    auth: AuthContext,
    input: CampaignInput,
  ): Promise<{ message: string; campaign: WhatsAppCampaign }> {
    const account = await this.accounts.require(auth, input.account_id);
    const template = await this.templates.requireRow(auth, input.template_id);
    if (template.accountId !== account.id) throw notFound(WHATSAPP_TEXTS.templateNotFound);
    if (template.status !== 'APPROVED') throw conflict(WHATSAPP_TEXTS.templateNotApproved);
    const needed = new Set(variablesOf(template.body)).size;
    if (input.variables.length < needed)
      throw badRequest(`Map all ${needed} variable${needed === 1 ? '' : 's'} of the template`);
    const snapshot: CampaignTemplate = {
      name: template.name,
      language: template.language,
      body: template.body,
      header: template.header,
      footer: template.footer,
      header_value: input.header_value ?? null,
    };
    // Checked once with sample values: what is missing for everyone is refused now, not per recipient.
    const { message, text } = templateMessage(snapshot, Array(needed).fill('x'), snapshot.header_value);
    if (!message) throw badRequest(text);
    const [row] = await this.db
      .insert(whatsappCampaigns)
      .values({
        tenantId: auth.tenantId,
        accountId: account.id,
        name: input.name,
        templateId: template.id,
        template: snapshot,
        audienceTags: [...new Set(input.audience_tags)],
        variables: input.variables,
        scheduledAt: input.scheduled_at ? new Date(input.scheduled_at) : null,
      })
      .returning();
    return { message: WHATSAPP_TEXTS.campaignCreated, campaign: (await this.views([row!]))[0]! };
  }

  async list(auth: AuthContext, accountId: number): Promise<WhatsAppCampaign[]> {
    const account = await this.accounts.require(auth, accountId);
    const rows = await this.db
      .select()
      .from(whatsappCampaigns)
      .where(eq(whatsappCampaigns.accountId, account.id))
      .orderBy(desc(whatsappCampaigns.id));
    return this.views(rows);
  }

  async remove(auth: AuthContext, id: number): Promise<{ message: string }> {
    const row = await this.require(auth, id);
    const [deleted] = await this.db
      .delete(whatsappCampaigns)
      .where(and(eq(whatsappCampaigns.id, row.id), sql`${whatsappCampaigns.status} <> 'sending'`))
      .returning({ id: whatsappCampaigns.id });
    if (!deleted) throw conflict(WHATSAPP_TEXTS.campaignRunning);
    return { message: WHATSAPP_TEXTS.campaignDeleted };
  }

  /**
   * Fixes the audience (a log row per contact who has not opted out) and starts the job, now or
   * at the scheduled time; in one transaction, so a campaign with no one to send to changes nothing.
   */
  async send(auth: AuthContext, id: number): Promise<{ message: string; campaign: WhatsAppCampaign }> {
    const row = await this.require(auth, id);
    if (row.status !== 'draft') throw conflict(WHATSAPP_TEXTS.campaignNotSendable);
    const later = row.scheduledAt && row.scheduledAt.getTime() > Date.now() + 1000 ? row.scheduledAt : null;
    await this.db.transaction(async (tx) => {
      const [audience] = await queryPrepared<{ count: number }>(
        tx,
        sql`WITH added AS (
              INSERT INTO whatsapp_campaign_recipients (tenant_id, campaign_id, contact_id, phone, name, fields)
              SELECT c.tenant_id, ${row.id}, c.id, c.phone, c.name,
                     c.attributes || jsonb_strip_nulls(jsonb_build_object('phone', c.phone, 'name', c.name, 'email', c.email))
                FROM whatsapp_contacts c
               WHERE c.account_id = ${row.accountId} AND c.opted_out_at IS NULL
                 AND (${row.audienceTags.length} = 0
                      OR c.tags && ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(row.audienceTags)}::jsonb)))
               ORDER BY c.id
              ON CONFLICT DO NOTHING RETURNING 1)
            SELECT count(*)::int AS count FROM added`,
      );
      if (!audience?.count) throw badRequest(WHATSAPP_TEXTS.campaignNoRecipients);
      const [started] = await tx
        .update(whatsappCampaigns)
        .set(later ? { status: 'scheduled' } : { status: 'sending', startedAt: new Date() })
        .where(and(eq(whatsappCampaigns.id, row.id), eq(whatsappCampaigns.status, 'draft')))
        .returning({ id: whatsappCampaigns.id });
      if (!started) throw conflict(WHATSAPP_TEXTS.campaignNotSendable);
      await this.deps.jobs.enqueue(
        CAMPAIGN_RUN_JOB,
        { campaignId: row.id },
        { tx, tenantId: auth.tenantId, delayMs: later ? later.getTime() - Date.now() : undefined },
      );
    });
    return {
      message: later ? WHATSAPP_TEXTS.campaignScheduled : WHATSAPP_TEXTS.campaignStarted,
      campaign: (await this.views([await this.require(auth, id)]))[0]!,
    };
  }

  /** The running job sends no one else: its recipients not yet sent go back to the queue. */
  async pause(auth: AuthContext, id: number): Promise<{ message: string }> {
    const row = await this.require(auth, id);
    const [paused] = await this.db
      .update(whatsappCampaigns)
      .set({ status: 'paused' })
      .where(
        and(eq(whatsappCampaigns.id, row.id), inArray(whatsappCampaigns.status, ['sending', 'scheduled'])),
      )
      .returning({ id: whatsappCampaigns.id });
    if (!paused) throw conflict(WHATSAPP_TEXTS.campaignNotRunning);
    return { message: WHATSAPP_TEXTS.campaignPaused };
  }

  /**
   * A new run takes over: recipients already sent or claimed are never claimed again. Refused
   * while the number is disconnected (the reason a campaign may have paused on its own).
   */
  async resume(auth: AuthContext, id: number): Promise<{ message: string }> {
    const row = await this.require(auth, id);
    const account = await this.accounts.require(auth, row.accountId);
    if (!account.isActive) throw conflict(account.inactiveReason ?? WHATSAPP_TEXTS.tokenExpired);
    await this.db.transaction(async (tx) => {
      const [resumed] = await tx
        .update(whatsappCampaigns)
        .set({
          status: 'sending',
          error: null,
          startedAt: sql`coalesce(${whatsappCampaigns.startedAt}, now())`,
        })
        .where(and(eq(whatsappCampaigns.id, row.id), eq(whatsappCampaigns.status, 'paused')))
        .returning({ id: whatsappCampaigns.id });
      if (!resumed) throw conflict(WHATSAPP_TEXTS.campaignNotPaused);
      await this.deps.jobs.enqueue(CAMPAIGN_RUN_JOB, { campaignId: row.id }, { tx, tenantId: auth.tenantId });
    });
    return { message: WHATSAPP_TEXTS.campaignResumed };
  }

  async logs(
    auth: AuthContext,
    id: number,
    query: { status?: RecipientStatus; skip: number; limit: number },
  ): Promise<CampaignLogList> {
    const row = await this.require(auth, id);
    const conditions = [eq(whatsappRecipients.campaignId, row.id)];
    if (query.status) conditions.push(eq(whatsappRecipients.status, query.status));
    const where = and(...conditions);
    const [rows, [count]] = await Promise.all([
      this.db
        .select()
        .from(whatsappRecipients)
        .where(where)
        .orderBy(asc(whatsappRecipients.id))
        .offset(query.skip)
        .limit(query.limit),
      this.db.select({ total: sql<number>`count(*)::int` }).from(whatsappRecipients).where(where),
    ]);
    return {
      total: count?.total ?? 0,
      logs: rows.map((r) => ({
        contact_id: r.contactId,
        phone: r.phone,
        name: r.name,
        status: r.status,
        error_code: r.errorCode,
        error: r.error,
        wa_message_id: r.waMessageId,
        sent_at: r.sentAt?.toISOString() ?? null,
        delivered_at: r.deliveredAt?.toISOString() ?? null,
        read_at: r.readAt?.toISOString() ?? null,
        replied_at: r.repliedAt?.toISOString() ?? null,
      })),
    };
  }

  /** Counts and rates, the errors by code, and sent/delivered/read/failed per minute (per hour past a day). */
  async analytics(auth: AuthContext, id: number): Promise<CampaignAnalytics> {
    const row = await this.require(auth, id);
    const counts = (await this.countsOf([row]))[0]!;
    const [span] = await queryPrepared<{ seconds: number | null }>(
      this.db,
      sql`SELECT extract(epoch FROM max(updated_at) - min(sent_at))::float AS seconds
            FROM whatsapp_campaign_recipients WHERE campaign_id = ${row.id}`,
    );
    const unit = sql.raw((span?.seconds ?? 0) > 86_400 ? `'hour'` : `'minute'`);
    const timeline = await queryPrepared<{
      at: string;
      sent: number;
      delivered: number;
      read: number;
      failed: number;
    }>(
      this.db,
      sql`SELECT at, sum(sent)::int AS sent, sum(delivered)::int AS delivered, sum(read)::int AS read, sum(failed)::int AS failed
            FROM (SELECT date_trunc(${unit}, sent_at) AS at, 1 AS sent, 0 AS delivered, 0 AS read, 0 AS failed
                    FROM whatsapp_campaign_recipients WHERE campaign_id = ${row.id} AND sent_at IS NOT NULL
                  UNION ALL SELECT date_trunc(${unit}, delivered_at), 0, 1, 0, 0
                    FROM whatsapp_campaign_recipients WHERE campaign_id = ${row.id} AND delivered_at IS NOT NULL
                  UNION ALL SELECT date_trunc(${unit}, read_at), 0, 0, 1, 0
                    FROM whatsapp_campaign_recipients WHERE campaign_id = ${row.id} AND read_at IS NOT NULL
                  UNION ALL SELECT date_trunc(${unit}, updated_at), 0, 0, 0, 1
                    FROM whatsapp_campaign_recipients WHERE campaign_id = ${row.id} AND status = 'failed') e
           GROUP BY at ORDER BY at`,
    );
    const errors = await queryPrepared<{ code: number | null; error: string; count: number }>(
      this.db,
      sql`SELECT error_code AS code, coalesce(error, 'Failed') AS error, count(*)::int AS count
            FROM whatsapp_campaign_recipients WHERE campaign_id = ${row.id} AND status = 'failed'
           GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 20`,
    );
    const reached = counts.sent + counts.delivered + counts.read;
    const share = (n: number, of: number) => (of > 0 ? Math.round((n / of) * 1000) / 1000 : 0);
    return {
      counts,
      rates: {
        delivery: share(counts.delivered + counts.read, reached),
        read: share(counts.read, reached),
        reply: share(counts.replied, reached),
        failure: share(counts.failed, counts.recipients),
      },
      timeline: timeline.map((t) => ({ ...t, at: new Date(t.at).toISOString() })),
      errors,
    };
  }

  private async require(auth: AuthContext, id: number): Promise<CampaignRow> {
    const [row] = await this.db
      .select()
      .from(whatsappCampaigns)
      .where(and(eq(whatsappCampaigns.id, id), eq(whatsappCampaigns.tenantId, auth.tenantId)));
    if (!row) throw notFound(WHATSAPP_TEXTS.campaignNotFound);
    return row;
  }

  /**
   * Per campaign: recipients by status (sent counts those whose delivery is not confirmed yet),
   * replies, and opt-outs since it started.
   */
  private async countsOf(rows: CampaignRow[]): Promise<CampaignCounts[]> {
    if (rows.length === 0) return [];
    const found = await queryPrepared<CampaignCounts & { campaign_id: number }>(
      this.db,
      sql`SELECT r.campaign_id,
                 count(*)::int AS recipients,
                 count(*) FILTER (WHERE r.status IN ('queued', 'sending'))::int AS queued,
                 count(*) FILTER (WHERE r.status = 'sent')::int AS sent,
                 count(*) FILTER (WHERE r.status = 'delivered')::int AS delivered,
                 count(*) FILTER (WHERE r.status = 'read')::int AS read,
                 count(*) FILTER (WHERE r.status = 'failed')::int AS failed,
                 count(r.replied_at)::int AS replied,
                 count(*) FILTER (WHERE k.opted_out_at >= c.started_at)::int AS opted_out
            FROM whatsapp_campaign_recipients r
            JOIN whatsapp_campaigns c ON c.id = r.campaign_id
            LEFT JOIN whatsapp_contacts k ON k.id = r.contact_id
           WHERE r.campaign_id IN (${sql.join(
             rows.map((r) => sql`${r.id}`),
             sql`, `,
           )})
           GROUP BY r.campaign_id`,
    );
    const byId = new Map(found.map((f) => [f.campaign_id, f]));
    const empty = {
      recipients: 0,
      queued: 0,
      sent: 0,
      delivered: 0,
      read: 0,
      failed: 0,
      replied: 0,
      opted_out: 0,
    };
    return rows.map((row) => {
      const { campaign_id: _, ...counts } = byId.get(row.id) ?? { campaign_id: row.id, ...empty };
      return counts;
    });
  }

  private async views(rows: CampaignRow[]): Promise<WhatsAppCampaign[]> {
    const counts = await this.countsOf(rows);
    return rows.map((row, n) => ({
      id: row.id,
      account_id: row.accountId,
      name: row.name,
      template_id: row.templateId,
      template_name: (row.template as { name?: string }).name ?? null,
      audience_tags: row.audienceTags,
      variables: row.variables,
      status: row.status,
      scheduled_at: row.scheduledAt?.toISOString() ?? null,
      started_at: row.startedAt?.toISOString() ?? null,
      completed_at: row.completedAt?.toISOString() ?? null,
      error: row.error,
      counts: counts[n]!,
      created_at: row.createdAt.toISOString(),
    }));
  }
}

/** A recipient's values for the template's variables, from their contact fields or fixed text. */
export function valuesFor(variables: VariableSource[], fields: Record<string, string>): string[] {
  return variables.map((v) => (v.type === 'text' ? v.text : fields[v.field]?.trim() || v.fallback || '-'));
}

/** The campaign's message for one recipient. */
export function campaignMessage(
  template: CampaignTemplate,
  variables: VariableSource[],
  fields: Record<string, string>,
) {
  return templateMessage(template, valuesFor(variables, fields), template.header_value);
}
