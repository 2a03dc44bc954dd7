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

/**
 * Meta's answers that are about the number, its business account or the template rather than the
 * recipient: every later send would fail the same way, so the campaign pauses with the reason and
 * keeps its unsent recipients for a resume, instead of failing each of them.
 */
const HALTS: Record<number, string> = {
  131031: 'Meta has locked this WhatsApp Business Account',
  131042:
    'Meta reports a payment issue on this WhatsApp Business Account; fix its payment method in Meta Business Manager',
  131045: 'This number is not registered for the WhatsApp Cloud API; connect it again',
  133010: 'This number is not registered for the WhatsApp Cloud API; connect it again',
  131048: 'Meta limited this number because of spam reports; wait until the limit is lifted',
  368: 'Meta has temporarily blocked this number for a policy violation',
  10: 'Meta refused the permission to send from this number; connect it again',
  200: 'Meta refused the permission to send from this number; connect it again',
  132000: 'The template no longer matches the one Meta approved (its variables changed)',
  132001: 'The template no longer exists at Meta, or not in this language',
  132015: 'Meta paused this template for low quality; resume the campaign once Meta reactivates it',
  132016: 'Meta disabled this template; this campaign can no longer be sent with it',
};

/** Why the whole campaign must stop on this error, or null when it concerns one recipient only. */
export function haltReasonOf(error: GraphError): string | null {
  if (error.kind === 'token') return WHATSAPP_TEXTS.tokenExpired;
  if (error.kind === 'window' || error.code === null) return null;
  const reason = HALTS[error.code];
  return reason ? `Paused: ${reason} (Meta error ${error.code}).` : null;
}

type Claimed = {
  id: number;
  phone: string;
  fields: Record<string, string>;
  attempts: number;
  opted_out: boolean;
};
/**
 * What became of one claimed recipient: sent; failed for good; 'retry' after a back-off; or
 * 'requeue', never sent (the campaign paused or halted first), back in the queue as it was.
 */
type Outcome = {
  id: number;
  action: 'sent' | 'failed' | 'retry' | 'requeue';
  wamid: string | null;
  code: number | null;
  error: string | null;
};
/** The run's state its sends share: set by the first send that must stop the campaign. */
type RunState = { runId: string; halt: { reason: string; token: boolean } | null };

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
    if (!account) return this.finish(campaign.id, runId, 'failed', WHATSAPP_TEXTS.accountNotFound);
    // Kept for a resume once the number is connected again (a scheduled campaign too).
    if (!account.isActive)
      return this.pauseFor(campaign.id, runId, account.inactiveReason ?? WHATSAPP_TEXTS.tokenExpired);
    const token = this.accounts.tokenOf(account);
    const rate = this.deps.config.WHATSAPP_SEND_RATE;
    const limit = pLimit(IN_FLIGHT);
    const state: RunState = { runId, halt: null };
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
            return this.sendOne(campaign, account.phoneNumberId, token, recipient, state);
          });
        }),
      );
      await this.record(outcomes, runId);
      if (state.halt) {
        if (state.halt.token) await this.accounts.deactivate(account, WHATSAPP_TEXTS.tokenExpired);
        return this.pauseFor(campaign.id, runId, state.halt.reason);
      }
      await job.progress(...(await this.progressOf(campaign.id)));
      if (outcomes.some((o) => o.code === 130429)) nextSendAt = performance.now() + 1000; // throttled: back off a second
    }
  }

  private async sendOne(
    campaign: typeof whatsappCampaigns.$inferSelect,
    phoneNumberId: string,
    token: string,
    recipient: Claimed,
    state: RunState,
  ): Promise<Outcome> {
    const outcome = (action: Outcome['action'], error: string | null = null, code: number | null = null) => ({
      id: recipient.id,
      action,
      wamid: null,
      code,
      error,
    });
    if (recipient.opted_out) return outcome('failed', 'Opted out');
    const { message, text } = campaignMessage(
      campaign.template as CampaignTemplate,
      campaign.variables as VariableSource[],
      recipient.fields,
    );
    if (!message) return outcome('failed', text);
    if (state.halt || !(await this.attempting(campaign.id, recipient.id, state.runId)))
      return outcome('requeue');
    try {
      const wamid = await this.cloud.send(
        phoneNumberId,
        token,
        recipient.phone.replace(/^\+/, ''),
        message,
        `${CALLBACK_PREFIX}${recipient.id}`,
      );
      return { id: recipient.id, action: 'sent', wamid, code: null, error: null };
    } catch (error) {
      const graph = error instanceof GraphError ? error : null;
      // A timeout may have reached Meta: only errors Meta answered are safe to retry.
      if (graph === null || graph.status === 0)
        return outcome('failed', WHATSAPP_TEXTS.interrupted, INTERRUPTED_CODE);
      const reason = haltReasonOf(graph);
      if (reason) {
        state.halt ??= { reason, token: graph.kind === 'token' };
        return outcome('requeue');
      }
      const retry = graph.kind === 'transient' && recipient.attempts < SEND_TRIES;
      return outcome(retry ? 'retry' : 'failed', graph.message, graph.code);
    }
  }

  /**
   * Marks the recipient as being sent, if the campaign is still this run's and sending and the
   * recipient still claimed by it: a pause stops at once, and a claim never attempted (claimed_at
   * still null) is known to be safe to send again after a crash.
   */
  private async attempting(campaignId: number, recipientId: number, runId: string): Promise<boolean> {
    const rows = await queryPrepared<{ id: number }>(
      this.db,
      sql`UPDATE whatsapp_campaign_recipients SET claimed_at = now()
           WHERE id = ${recipientId} AND claimed_by = ${runId} AND status = 'sending'
             AND EXISTS (SELECT 1 FROM whatsapp_campaigns
                          WHERE id = ${campaignId} AND status = 'sending' AND run_id = ${runId})
       RETURNING id`,
    );
    return rows.length > 0;
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

  /**
   * Claims of dead runs not settled by a status webhook: those never attempted go back to the
   * queue; those attempted (Meta may have sent them) are interrupted, not sent again.
   */
  private async settleStale(campaignId: number, runId: string): Promise<void> {
    await queryPrepared(
      this.db,
      sql`UPDATE whatsapp_campaign_recipients SET
             status = CASE WHEN claimed_at IS NULL THEN 'queued' ELSE 'failed' END,
             attempts = CASE WHEN claimed_at IS NULL THEN greatest(attempts - 1, 0) ELSE attempts END,
             claimed_by = CASE WHEN claimed_at IS NULL THEN NULL ELSE claimed_by END,
             error_code = CASE WHEN claimed_at IS NULL THEN error_code ELSE ${INTERRUPTED_CODE} END,
             error = CASE WHEN claimed_at IS NULL THEN error ELSE ${WHATSAPP_TEXTS.interrupted} END,
             updated_at = now()
           WHERE campaign_id = ${campaignId} AND status = 'sending' AND claimed_by <> ${runId}
             AND coalesce(claimed_at, updated_at) < now() - make_interval(secs => ${STALE_CLAIM_MS / 1000})`,
    );
  }

  /** A second's worth of recipients, committed as 'sending' (not yet attempted) before any is sent. */
  private async claim(campaignId: number, runId: string, count: number): Promise<Claimed[]> {
    return queryPrepared<Claimed>(
      this.db,
      sql`UPDATE whatsapp_campaign_recipients r
             SET status = 'sending', claimed_by = ${runId}, claimed_at = NULL, attempts = attempts + 1, updated_at = now()
           WHERE r.id IN (SELECT id FROM whatsapp_campaign_recipients
                           WHERE campaign_id = ${campaignId} AND status = 'queued'
                             AND (retry_after IS NULL OR retry_after <= now())
                           ORDER BY id LIMIT ${count} FOR UPDATE SKIP LOCKED)
       RETURNING r.id, r.phone, r.fields, r.attempts,
                 EXISTS (SELECT 1 FROM whatsapp_contacts k WHERE k.id = r.contact_id AND k.opted_out_at IS NOT NULL) AS opted_out`,
    );
  }

  /**
   * Sent (unless a webhook already said more), back in the queue (after a back-off for a retry),
   * or failed; one statement for the batch, on the recipients this run still holds.
   */
  private async record(outcomes: Outcome[], runId: string): Promise<void> {
    await queryPrepared(
      this.db,
      sql`UPDATE whatsapp_campaign_recipients r SET
             status = CASE x.action WHEN 'sent' THEN 'sent' WHEN 'failed' THEN 'failed' ELSE 'queued' END,
             wa_message_id = coalesce(r.wa_message_id, x.wamid),
             sent_at = CASE WHEN x.action = 'sent' THEN coalesce(r.sent_at, now()) ELSE r.sent_at END,
             attempts = CASE WHEN x.action = 'requeue' THEN greatest(r.attempts - 1, 0) ELSE r.attempts END,
             retry_after = CASE WHEN x.action = 'retry' THEN now() + make_interval(secs => power(2, r.attempts)) ELSE NULL END,
             claimed_by = CASE WHEN x.action IN ('retry', 'requeue') THEN NULL ELSE r.claimed_by END,
             claimed_at = CASE WHEN x.action IN ('retry', 'requeue') THEN NULL ELSE r.claimed_at END,
             error_code = CASE WHEN x.action = 'failed' THEN x.code ELSE r.error_code END,
             error = CASE WHEN x.action = 'failed' THEN x.error ELSE r.error END,
             updated_at = now()
        FROM jsonb_to_recordset(${JSON.stringify(outcomes)}::jsonb)
             AS x(id bigint, action text, wamid text, code int, error text)
       WHERE r.id = x.id AND r.status = 'sending' AND r.claimed_by = ${runId}`,
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

  /** Paused with the reason shown on the campaign; its queued recipients wait for a resume. */
  private async pauseFor(campaignId: number, runId: string, reason: string) {
    await this.db
      .update(whatsappCampaigns)
      .set({ status: 'paused', error: reason })
      .where(
        and(
          eq(whatsappCampaigns.id, campaignId),
          eq(whatsappCampaigns.runId, runId),
          eq(whatsappCampaigns.status, 'sending'),
        ),
      );
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
