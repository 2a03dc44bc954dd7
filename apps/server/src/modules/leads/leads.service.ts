import { LEAD_TEXTS, type Lead, LeadFormConfig, type LeadList, type LeadSubmission } from '@parley/contracts';
import type { Db } from '../../core/db/database.js';
import { badRequest, notFound } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import { requireWorkingBot } from '../bots/bots.queries.js';
import { requireOrigin } from '../chat/widget-origins.js';
import type { MailService } from '../mail/mail.service.js';
import { notify } from '../notifications/notifications.service.js';
import { ownerEmails } from '../roles/roles.queries.js';
import { checkLeadFields } from './lead-fields.js';
import {
  allLeads,
  botByUuid,
  conversationOfBot,
  insertLead,
  type LeadRow,
  pageOfLeads,
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

/**
 * Leads: visitors' answers to a bot's lead form. Visitors submit without login (the bot named by its
 * uuid); the bot's owners list and export them, always within their own tenant.
 */
export class LeadsService {
  constructor(
    private readonly db: Db,
    private readonly mail: MailService,
    private readonly publicUrl: string,
  ) {}

  async submit(uuid: string, body: LeadSubmission, origin?: string): Promise<Lead> {
    const bot = await botByUuid(this.db, uuid);
    if (!bot) throw notFound('Bot not found');
    requireOrigin(bot.allowedOrigins, origin, new URL(this.publicUrl).origin);
    const form = formOf(bot.leadFormConfig);
    if (!form?.enabled) throw notFound(LEAD_TEXTS.formUnavailable);
    const checked = checkLeadFields(form, body.fields);
    if (!checked.ok) throw badRequest(checked.detail);
    const conversationId = body.conversation_id ?? null;
    if (
      conversationId !== null &&
      !(await conversationOfBot(this.db, bot.tenantId, bot.id, conversationId))
    ) {
      throw notFound(LEAD_TEXTS.conversationNotFound);
    }
    // The lead and the owners' notification commit together: no lead goes unannounced.
    const row = await this.db.transaction(async (tx) => {
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
    text: [
      `A visitor left their details with ${botName}:`,
      '',
      ...lines,
      '',
      `See every lead of this bot: ${publicUrl}/leads?bot=${lead.botId}`,
    ].join('\n'),
  };
}
