import { setTimeout as sleep } from 'node:timers/promises';
import { type VariableSource, WHATSAPP_TEXTS } from '@parley/contracts';
import { and, eq, sql } from 'drizzle-orm';
import pLimit from 'p-limit';
import { type Db, queryPrepared } from '../../core/db/database.js';
import type { JobContext } from '../../core/jobs/queue.js';
import type { ModuleDeps } from '../../core/module.js';
import { GraphError } from '../social/meta.client.js';
import type { WhatsAppAccountsService } from './accounts.service.js';
import { type CampaignTemplate, campaignMessage } from './campaigns.service.js';
import type { CloudClient } from './cloud.client.js';
import { CALLBACK_PREFIX, INTERRUPTED_CODE } from './conversations.service.js';
import { whatsappAccounts, whatsappCampaigns } from './whatsapp.schema.js';

export type CampaignJob = { campaignId: number };
/** A recipient whose send failed transiently is tried this many times in all, with back-off. */
const SEND_TRIES = 5;
/** Sends in flight at once: enough to keep the rate with Meta's latency (~100 ms a call). */
const IN_FLIGHT = 64;
/**
 * A claim older than this belongs to a dead run (a send times out after 15 s; a killed worker's
 * lease lasts 30 s): its recipients are settled as interrupted, never sent again.
 */
const STALE_CLAIM_MS = 20_000;

const CATCH_UP_MS = 100;

type Claimed = {
  id: number;
  phone: string;
  fields: Record<string, string>;
  attempts: number;
  opted_out: boolean;
};
type Outcome = {
  id: number;
  wamid: string | null;
  retry: boolean;
  code: number | null;
  error: string | null;
};

/**
 * Sends a campaign at the number's rate. Every recipient is claimed ('sending') in a committed
 * statement before its send and never claimed again, so no one gets the campaign twice, even when
 * the worker is killed mid-campaign and the job runs again: the new run settles the dead run's
 * claims from their status webhooks (the callback names the recipient) or as interrupted.
 */
export class CampaignRunner {
  constructor(
    private readonly deps: ModuleDeps,
    private readonly cloud: CloudClient,
    private readonly accounts: WhatsAppAccountsService,
  ) {}

  private get db(): Db {
    return this.deps.db;
  }

  async run(job: JobContext<CampaignJob>): Promise<void> {
    const runId = `${job.id}:${job.attempt}`;
    const campaign = await this.takeOver(job.data.campaignId, runId);
    if (!campaign) return; // paused, deleted or done meanwhile
    const [account] = await this.db
      .select()
      .from(whatsappAccounts)
      .where(eq(whatsappAccounts.id, campaign.accountId));
    if (!account?.isActive)
      return this.finish(
        campaign.id,
        runId,
        'failed',
        account?.inactiveReason ?? WHATSAPP_TEXTS.accountNotFound,
      );
    const token = this.accounts.tokenOf(account);
    const rate = this.deps.config.WHATSAPP_SEND_RATE;
    const limit = pLimit(IN_FLIGHT);
    let nextSendAt = performance.now();
    for (;;) {
      if (job.signal.aborted || !(await this.stillOurs(campaign.id, runId))) return;
      await this.settleStale(campaign.id, runId);
      const batch = await this.claim(campaign.id, runId, rate);
      if (batch.length === 0) {
        const waitMs = await this.waitBeforeMore(campaign.id);
        if (waitMs === null) return this.finish(campaign.id, runId, 'completed', null);
        await sleep(waitMs);
        continue;
      }
      const outcomes = await Promise.all(
        batch.map((recipient) => {
          // Paced: one send every 1/rate seconds, whatever the batch's size. The time spent between
          // batches (recording, claiming) is made up, up to a tenth of a second, so the rate holds.
          const at = Math.max(nextSendAt, performance.now() - CATCH_UP_MS);
          nextSendAt = at + 1000 / rate;
          return limit(async () => {
            const wait = at - performance.now();
            if (wait > 0) await sleep(wait);
            return this.sendOne(campaign, account.phoneNumberId, token, recipient);
          });
        }),
      );
      await this.record(outcomes);
      await job.progress(...(await this.progressOf(campaign.id)));
      if (outcomes.some((o) => o.code === 130429)) nextSendAt = performance.now() + 1000; // throttled: back off a second
    }
  }

  private async sendOne(
    campaign: typeof whatsappCampaigns.$inferSelect,
    phoneNumberId: string,
    token: string,
    recipient: Claimed,
  ): Promise<Outcome> {
    if (recipient.opted_out)
      return { id: recipient.id, wamid: null, retry: false, code: null, error: 'Opted out' };
    const { message, text } = campaignMessage(
      campaign.template as CampaignTemplate,
      campaign.variables as VariableSource[],
      recipient.fields,
    );
    if (!message) return { id: recipient.id, wamid: null, retry: false, code: null, error: text };
    try {
      const wamid = await this.cloud.send(
        phoneNumberId,
        token,
        recipient.phone.replace(/^\+/, ''),
        message,
        `${CALLBACK_PREFIX}${recipient.id}`,
      );
      return { id: recipient.id, wamid, retry: false, code: null, error: null };
    } catch (error) {
      const graph = error instanceof GraphError ? error : null;
      // A timeout may have reached Meta: only errors Meta answered are safe to retry.
      const answered = graph !== null && graph.status !== 0;
      return {
        id: recipient.id,
        wamid: null,
        retry: answered && graph.kind === 'transient' && recipient.attempts < SEND_TRIES,
        code: graph?.code ?? null,
        error: answered ? graph.message : WHATSAPP_TEXTS.interrupted,
      };
    }
  }

  /** This run becomes the campaign's runner (a scheduled campaign starts sending). */
  private async takeOver(campaignId: number, runId: string) {
    const [row] = await this.db
      .update(whatsappCampaigns)
      .set({ runId, status: 'sending', startedAt: sql`coalesce(${whatsappCampaigns.startedAt}, now())` })
      .where(
        and(
          eq(whatsappCampaigns.id, campaignId),
          sql`${whatsappCampaigns.status} IN ('sending', 'scheduled')`,
        ),
      )
      .returning();
    return row;
  }

  private async stillOurs(campaignId: number, runId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ status: whatsappCampaigns.status, runId: whatsappCampaigns.runId })
      .from(whatsappCampaigns)
      .where(eq(whatsappCampaigns.id, campaignId));
    return row?.status === 'sending' && row.runId === runId;
  }

  /** Claims of dead runs not settled by a status webhook: interrupted, not sent again. */
  private async settleStale(campaignId: number, runId: string): Promise<void> {
    await queryPrepared(
      this.db,
      sql`UPDATE whatsapp_campaign_recipients
             SET status = 'failed', error_code = ${INTERRUPTED_CODE}, error = ${WHATSAPP_TEXTS.interrupted}, updated_at = now()
           WHERE campaign_id = ${campaignId} AND status = 'sending' AND claimed_by <> ${runId}
             AND claimed_at < now() - make_interval(secs => ${STALE_CLAIM_MS / 1000})`,
    );
  }

  /** A second's worth of recipients, committed as 'sending' before any is sent. */
  private async claim(campaignId: number, runId: string, count: number): Promise<Claimed[]> {
    return queryPrepared<Claimed>(
      this.db,
      sql`UPDATE whatsapp_campaign_recipients r
             SET status = 'sending', claimed_by = ${runId}, claimed_at = now(), attempts = attempts + 1, updated_at = now()
           WHERE r.id IN (SELECT id FROM whatsapp_campaign_recipients
                           WHERE campaign_id = ${campaignId} AND status = 'queued'
                             AND (retry_after IS NULL OR retry_after <= now())
                           ORDER BY id LIMIT ${count} FOR UPDATE SKIP LOCKED)
       RETURNING r.id, r.phone, r.fields, r.attempts,
                 EXISTS (SELECT 1 FROM whatsapp_contacts k WHERE k.id = r.contact_id AND k.opted_out_at IS NOT NULL) AS opted_out`,
    );
  }

  /**
   * Sent (unless a webhook already said more), back in the queue after a back-off, or failed; one
   * statement for the batch.
   */
  private async record(outcomes: Outcome[]): Promise<void> {
    await queryPrepared(
      this.db,
      sql`UPDATE whatsapp_campaign_recipients r SET
             status = CASE WHEN x.wamid IS NOT NULL THEN (CASE WHEN r.status = 'sending' THEN 'sent' ELSE r.status END)
                           WHEN x.retry THEN 'queued' ELSE 'failed' END,
             wa_message_id = coalesce(r.wa_message_id, x.wamid),
             sent_at = CASE WHEN x.wamid IS NOT NULL THEN coalesce(r.sent_at, now()) ELSE r.sent_at END,
             retry_after = CASE WHEN x.retry THEN now() + make_interval(secs => power(2, r.attempts)) ELSE NULL END,
             claimed_by = CASE WHEN x.retry THEN NULL ELSE r.claimed_by END,
             error_code = CASE WHEN x.wamid IS NULL AND NOT x.retry THEN x.code ELSE r.error_code END,
             error = CASE WHEN x.wamid IS NULL AND NOT x.retry THEN x.error ELSE r.error END,
             updated_at = now()
        FROM jsonb_to_recordset(${JSON.stringify(outcomes)}::jsonb)
             AS x(id bigint, wamid text, retry boolean, code int, error text)
       WHERE r.id = x.id AND r.status = 'sending'`,
    );
  }

  /** Null when nothing is left; else how long until a retry is due or another run's claims settle. */
  private async waitBeforeMore(campaignId: number): Promise<number | null> {
    const [row] = await queryPrepared<{ queued: number; sending: number; due_ms: number | null }>(
      this.db,
      sql`SELECT count(*) FILTER (WHERE status = 'queued')::int AS queued,
                 count(*) FILTER (WHERE status = 'sending')::int AS sending,
                 extract(epoch FROM min(retry_after) FILTER (WHERE status = 'queued') - now())::float * 1000 AS due_ms
            FROM whatsapp_campaign_recipients WHERE campaign_id = ${campaignId} AND status IN ('queued', 'sending')`,
    );
    if (!row || (row.queued === 0 && row.sending === 0)) return null;
    if (row.queued > 0) return Math.min(Math.max(row.due_ms ?? 0, 50), 30_000);
    return 1000;
  }

  private async progressOf(campaignId: number): Promise<[number, number]> {
    const [row] = await queryPrepared<{ done: number; total: number }>(
      this.db,
      sql`SELECT count(*) FILTER (WHERE status NOT IN ('queued', 'sending'))::int AS done, count(*)::int AS total
            FROM whatsapp_campaign_recipients WHERE campaign_id = ${campaignId}`,
    );
    return [row?.done ?? 0, row?.total ?? 0];
  }

  private async finish(
    campaignId: number,
    runId: string,
    status: 'completed' | 'failed',
    error: string | null,
  ) {
    await this.db
      .update(whatsappCampaigns)
      .set({ status, error, completedAt: new Date() })
      .where(
        and(
          eq(whatsappCampaigns.id, campaignId),
          eq(whatsappCampaigns.runId, runId),
          eq(whatsappCampaigns.status, 'sending'),
        ),
      );
  }
}
