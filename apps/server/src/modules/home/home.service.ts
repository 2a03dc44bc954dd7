import {
  type Action,
  BOTS_SUBJECT,
  CHECKLIST_STEPS,
  type ChecklistItem,
  type ChecklistStep,
  HOME_LEAD_DAYS,
  type HomeAnalytics,
  type HomeLeads,
  type HomeSummary,
  type MessageLimit,
  type Subject,
} from '@parley/contracts';
import type { Db } from '../../core/db/database.js';
import type { AuthContext } from '../../core/http/request-context.js';
import { botMessagesThisMonth } from '../chat/chat.queries.js';
import {
  assignedBots,
  checklistState,
  leadFormEnabled,
  leadsPerDay,
  managedBots,
  newestLeads,
  recentConversations,
  waitingQuestions,
} from './home.queries.js';

/** What doing each step takes: the permission of the route that does it. */
const STEP_NEEDS: Record<ChecklistStep, readonly [Action, Subject]> = {
  create_bot: ['create', BOTS_SUBJECT], // POST /chat/bots
  add_knowledge: ['create', BOTS_SUBJECT], // uploads, crawls, Notion and Q&A all create on Manage Bots
  try_bot: ['read', BOTS_SUBJECT], // the playground's chat, POST /chat/chats
  embed_widget: ['read', BOTS_SUBJECT], // the embed code on the bot's page
  invite_teammate: ['create', 'Roles'], // POST /auth/invite-user
};

const isOwner = (auth: AuthContext) => auth.user.roles.some((role) => role.is_owner);

/**
 * Home in one answer, each part behind the permission of the route that serves it on its own, so
 * the summary never shows more than those routes would: bots (managers see what GET
 * /chat/bots/user/:id gives them, others their assigned bots), conversations (Inbox), this month's
 * usage (Manage Bots, as GET /chat/message-limit), the questions waiting in those bots' unanswered
 * queues (Manage Bots), new leads (Leads) and the getting-started checklist.
 */
export class HomeService {
  constructor(
    private readonly db: Db,
    private readonly monthlyLimit: (tenantId: number) => Promise<number>,
    /** The last 30 days' analytics summary of the bots the caller reads (null: no analytics in the plan). */
    private readonly analytics: (auth: AuthContext) => Promise<HomeAnalytics | null> = async () => null,
  ) {}

  async summary(auth: AuthContext): Promise<HomeSummary> {
    const managesBots = auth.ability.can('read', BOTS_SUBJECT);
    const everyBot = isOwner(auth) || auth.user.all_bots !== false;
    const [botList, conversations, usage, checklist, analytics, questions, leads] = await Promise.all([
      managesBots
        ? managedBots(this.db, auth.tenantId, auth.userId, everyBot)
        : assignedBots(this.db, auth.tenantId, auth.userId, auth.user.all_bots !== false),
      auth.ability.can('read', 'Inbox') ? recentConversations(this.db, auth) : null,
      managesBots ? this.usage(auth.tenantId) : null,
      this.checklist(auth),
      // As GET /analytics/overview: read on Analytics.
      auth.ability.can('read', 'Analytics') ? this.analytics(auth) : null,
      managesBots ? waitingQuestions(this.db, auth.tenantId, auth.userId, everyBot) : null,
      auth.ability.can('read', 'Leads') ? this.leads(auth) : null,
    ]);
    return {
      bots_scope: managesBots ? 'workspace' : 'assigned',
      bots: botList.bots,
      bot_count: botList.total,
      conversations,
      usage,
      checklist,
      analytics,
      questions,
      leads,
    };
  }

  /** New leads (as GET /chat/bots/:id/leads lets the caller read them): the week's count by day, the newest. */
  private async leads(auth: AuthContext): Promise<HomeLeads> {
    const [days, items, formEnabled] = await Promise.all([
      leadsPerDay(this.db, auth),
      newestLeads(this.db, auth),
      leadFormEnabled(this.db, auth),
    ]);
    const perDay = new Array<number>(HOME_LEAD_DAYS).fill(0);
    for (const { days_ago, count } of days) {
      // Oldest first; a clock a moment behind the row's (days_ago -1) is still the last 24 hours.
      perDay[HOME_LEAD_DAYS - 1 - Math.max(0, days_ago)]! += count;
    }
    return {
      last_7_days: perDay.reduce((sum, count) => sum + count, 0),
      per_day: perDay,
      items,
      form_enabled: formEnabled,
    };
  }

  private async usage(tenantId: number): Promise<MessageLimit> {
    const [{ used, start, end }, limit] = await Promise.all([
      botMessagesThisMonth(this.db, tenantId),
      this.monthlyLimit(tenantId),
    ]);
    return {
      used,
      limit,
      remaining: Math.max(0, limit - used),
      period_start: start.toISOString(),
      period_end: end.toISOString(),
    };
  }

  /**
   * The steps with their state. Someone who may do none of them (a Member with Home and Profile)
   * gets no checklist: setting up the workspace is not their job, and a list they cannot act on
   * would only tell them to ask someone. Anyone who may do one step sees all five, so the progress
   * it shows is the workspace's, and Home links only the steps they may do.
   */
  private async checklist(auth: AuthContext): Promise<ChecklistItem[] | null> {
    const allowed = (step: ChecklistStep) => auth.ability.can(...STEP_NEEDS[step]);
    if (!CHECKLIST_STEPS.some(allowed)) return null;
    const state = await checklistState(this.db, auth.tenantId);
    return CHECKLIST_STEPS.map((step) => ({ step, done: state[step], allowed: allowed(step) }));
  }
}
