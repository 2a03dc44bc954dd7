import { LEAD_TEXTS, type Lead, LeadFormConfig, type LeadList, type LeadSubmission } from '@parley/contracts';
import type { Db } from '../../core/db/database.js';
import { badRequest, notFound } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import { requireWorkingBot } from '../bots/bots.queries.js';
import type { VisitorTokens } from '../chat/visitor.js';
import { requireOrigin } from '../chat/widget-origins.js';
import type { MailService } from '../mail/mail.service.js';
import { notify } from '../notifications/notifications.service.js';
import { ownerEmails } from '../roles/roles.queries.js';
import { checkLeadFields } from './lead-fields.js';
import {
  allLeads,
  botByUuid,
  conversationOfBot,
  deleteLead,
  deleteLeadNotifications,
  insertLead,
  type LeadRow,
  lockSubmission,
  pageOfLeads,
  sameLeadSince,
} from './leads.queries.js';
import { leadsCsv, leadsFileName } from './leads-csv.js';

const toLead = (row: LeadRow): Lead => ({
  id: row.id,
  bot_id: row.botId,
  conversation_id: row.conversationId,
  name: row.name,
  email: row.email,
  fields: row.fields,
  source: row.source,
  created_at: row.createdAt.toISOString(),
});

/** The stored form of a bot, or null when it has none or it no longer reads as one. */
const formOf = (stored: unknown): LeadFormConfig | null => {
  const parsed = LeadFormConfig.safeParse(stored);
  return parsed.success ? parsed.data : null;
};

/** The same answers sent again this soon (a double click, a retry, the form shown twice) are one lead. */
const DUPLICATE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Who sends a lead: the page's origin, and the signed-in user when the console's playground sends it. */
export type LeadCaller = { origin?: string; auth: AuthContext | null };

type FormBot = NonNullable<Awaited<ReturnType<typeof botByUuid>>>;

/**
 * Leads: visitors' answers to a bot's lead form. Visitors submit without login (the bot named by its
 * uuid); the bot's owners list and export them, always within their own tenant.
 */
export class LeadsService {
  constructor(
    private readonly db: Db,
    private readonly mail: MailService,
    private readonly publicUrl: string,
    private readonly visitors: VisitorTokens,
  ) {}

  async submit(uuid: string, body: LeadSubmission, caller: LeadCaller): Promise<Lead> {
    const bot = await botByUuid(this.db, uuid);
    if (!bot) throw notFound('Bot not found');
    requireOrigin(bot.allowedOrigins, caller.origin, new URL(this.publicUrl).origin);
    const form = formOf(bot.leadFormConfig);
    if (!form?.enabled) throw notFound(LEAD_TEXTS.formUnavailable);
    const checked = checkLeadFields(form, body.fields);
    if (!checked.ok) throw badRequest(checked.detail);
    const conversationId = await this.linkedConversation(bot, uuid, body, caller.auth);
    // The lead and the owners' notification commit together: no lead goes unannounced.
    const row = await this.db.transaction(async (tx) => {
      await lockSubmission(tx, bot.id, checked.values);
      const wanted = { tenantId: bot.tenantId, botId: bot.id, conversationId, fields: checked.values };
      // Sent again: the visitor gets the same lead back, the owners no second mail.
      const same = await sameLeadSince(tx, wanted, new Date(Date.now() - DUPLICATE_WINDOW_MS));
      if (same) return same;
      const lead = await insertLead(tx, {
        tenantId: bot.tenantId,
        botId: bot.id,
        conversationId,
        name: checked.values.name ?? null,
        email: checked.values.email ?? null,
        fields: checked.values,
      });
      for (const to of await ownerEmails(tx, bot.tenantId)) {
        await this.mail.send(leadMail(to, bot.botName, form, lead, this.publicUrl), tx);
      }
      await notify(tx, {
        tenantId: bot.tenantId,
        kind: 'lead_created',
        title: `New lead from ${bot.botName}`,
        body: [lead.name, lead.email].filter(Boolean).join(' · '),
        link: `/leads?bot=${bot.id}`,
        dedupeKey: `lead:${lead.id}`,
      });
      return lead;
    });
    return toLead(row);
  }

  /**
   * The conversation the lead belongs to, when the sender proves it is theirs: the visitor's token
   * for their own conversation, or a signed-in user of the bot's workspace (the playground). Ids are
   * sequential, so an unproven id would let anyone stamp a name and email on another visitor's
   * conversation in the inbox: such a lead is kept, unlinked. A proof that fails answers 404.
   */
  private async linkedConversation(
    bot: FormBot,
    uuid: string,
    body: LeadSubmission,
    auth: AuthContext | null,
  ): Promise<number | null> {
    const id = body.conversation_id;
    if (id === undefined) return null;
    const where = { tenantId: bot.tenantId, botId: bot.id, id };
    let owned: boolean;
    if (body.visitor_token !== undefined) {
      const visitor = this.visitors.check(body.visitor_token);
      owned =
        visitor?.botUuid === uuid &&
        (await conversationOfBot(this.db, { ...where, visitorId: visitor.visitorId }));
    } else if (auth?.tenantId === bot.tenantId) {
      owned = await conversationOfBot(this.db, where);
    } else {
      return null;
    }
    if (!owned) throw notFound(LEAD_TEXTS.conversationNotFound);
    return id;
  }

  /**
   * Erases one lead (a visitor's request under GDPR, or a spam entry): the row and the bell
   * notifications that repeat its name and email. The conversation, if any, stays: it is deleted
   * on its own from the inbox.
   */
  async remove(auth: AuthContext, botId: number, leadId: number): Promise<void> {
    await requireWorkingBot(this.db, auth, botId);
    await this.db.transaction(async (tx) => {
      if (!(await deleteLead(tx, auth.tenantId, botId, leadId))) throw notFound(LEAD_TEXTS.notFound);
      await deleteLeadNotifications(tx, auth.tenantId, leadId);
    });
  }

  async list(auth: AuthContext, botId: number, page: { skip: number; limit: number }): Promise<LeadList> {
    await requireWorkingBot(this.db, auth, botId);
    const { rows, total } = await pageOfLeads(this.db, auth.tenantId, botId, page);
    return { items: rows.map(toLead), total };
  }

  async csv(auth: AuthContext, botId: number): Promise<{ fileName: string; body: string }> {
    const bot = await requireWorkingBot(this.db, auth, botId);
    const rows = await allLeads(this.db, auth.tenantId, botId);
    return { fileName: leadsFileName(botId), body: leadsCsv(formOf(bot.leadFormConfig), rows) };
  }
}

function leadMail(to: string, botName: string, form: LeadFormConfig, lead: LeadRow, publicUrl: string) {
  const labels = new Map(form.fields.map((field) => [field.name, field.label]));
  const lines = Object.entries(lead.fields).map(([name, value]) => `${labels.get(name) ?? name}: ${value}`);
  return {
    to,
    tenantId: lead.tenantId,
    subject: `New lead from ${botName}`,
    // The owner answers the visitor by replying: the form checked the address, and one with spaces
    // or line breaks (which could add headers) is never used.
    ...(lead.email && /^[^\s@]+@[^\s@]+$/.test(lead.email) ? { replyTo: lead.email } : {}),
    text: [
      `A visitor left their details with ${botName}:`,
      '',
      ...lines,
      '',
      `See every lead of this bot: ${publicUrl}/leads?bot=${lead.botId}`,
    ].join('\n'),
  };
}
