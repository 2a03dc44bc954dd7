import type { CampaignCounts, WhatsAppAccount } from '@parley/contracts';

/** The numbered variables ({{1}}, {{2}}...) a text uses, each once, in ascending order. */
export function variablesOf(text: string): number[] {
  const found = new Set<number>();
  for (const match of text.matchAll(/\{\{\s*(\d+)\s*\}\}/g)) found.add(Number(match[1]));
  return [...found].filter((n) => n > 0).sort((a, b) => a - b);
}

/** The text with {{n}} replaced by values[n - 1]; a missing value keeps the placeholder. */
export function fillVariables(text: string, values: readonly string[]): string {
  return text.replace(/\{\{\s*(\d+)\s*\}\}/g, (whole, n: string) => {
    const value = values[Number(n) - 1];
    return value ? value : whole;
  });
}

/**
 * The account shown: the one chosen while it still exists, else the first (spec: onboarding
 * selects the first account; removal selects the first remaining or none).
 */
export function selectedAccount(
  accounts: readonly WhatsAppAccount[],
  chosenId: number | null,
): WhatsAppAccount | null {
  return accounts.find((a) => a.id === chosenId) ?? accounts[0] ?? null;
}

/** The export's name when the server gives none: the account id and the date. */
export function exportFileName(accountId: number, now = new Date()): string {
  const day = [
    now.getFullYear(),
    String(now.getMonth() + 1).padStart(2, '0'),
    String(now.getDate()).padStart(2, '0'),
  ].join('-');
  return `whatsapp-contacts-${accountId}-${day}.csv`;
}

export const QUALITY_COLORS: Record<string, 'success' | 'warning' | 'error' | 'default'> = {
  GREEN: 'success',
  YELLOW: 'warning',
  RED: 'error',
};

export const TEMPLATE_STATUS_COLORS: Record<string, 'default' | 'info' | 'success' | 'error' | 'warning'> = {
  DRAFT: 'default',
  PENDING: 'info',
  APPROVED: 'success',
  REJECTED: 'error',
  PAUSED: 'warning',
  DISABLED: 'error',
  IN_APPEAL: 'warning',
};

export const CAMPAIGN_STATUS_COLORS: Record<string, 'default' | 'info' | 'success' | 'error' | 'warning'> = {
  draft: 'default',
  scheduled: 'info',
  sending: 'info',
  paused: 'warning',
  completed: 'success',
  failed: 'error',
};

/** A share 0..1 as a percentage with one decimal. */
/**
 * A campaign's funnel as people read it (and Meta's own tools show it): every delivered message
 * was sent, every read one delivered. The API counts recipients by their current status, so a
 * campaign whose two messages were delivered has "sent" 0 there.
 */
export function funnelOf(counts: Pick<CampaignCounts, 'sent' | 'delivered' | 'read'>) {
  return {
    sent: counts.sent + counts.delivered + counts.read,
    delivered: counts.delivered + counts.read,
    read: counts.read,
  };
}

export function percent(share: number): string {
  return `${(Math.round(share * 1000) / 10).toString()}%`;
}

/** Campaign lists, analytics and logs are polled every 2 s while a campaign sends. */
export const CAMPAIGN_POLL_MS = 2000;

/** Delivery and read receipts keep arriving for a while after the last send. */
const RECEIPTS_AFTER_MS = 2 * 60_000;

/** Whether a campaign's figures still move: sending, or finished moments ago (receipts trickle in). */
export function isLive(campaign: { status: string; completed_at: string | null }, now = Date.now()): boolean {
  if (campaign.status === 'sending') return true;
  if (!campaign.completed_at) return false;
  return now - Date.parse(campaign.completed_at) < RECEIPTS_AFTER_MS;
}

/**
 * What the template's header needs when sent: its {{1}} text (the example by default), or the https
 * link of its image, video or document (the upload handle only served Meta's review).
 */
export function headerFieldOf(
  template: { header: { format: string; text?: string } | null } | null,
): { kind: 'text' | 'link'; media: string } | null {
  const header = template?.header;
  if (!header) return null;
  if (header.format === 'TEXT')
    return variablesOf(header.text ?? '').length ? { kind: 'text', media: '' } : null;
  return { kind: 'link', media: header.format.toLowerCase() };
}
