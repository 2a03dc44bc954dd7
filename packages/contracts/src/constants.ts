/** Business constants and limits (spec console.md section 9 and integrations-and-billing.md section 9). */
export const SOCKET = {
  maxReconnectAttempts: 10,
  backoffBaseMs: 1000,
  backoffJitterMs: 1000,
  backoffCapMs: 30_000,
  userReconnectDelayMs: 3000,
  adminOpenTimeoutMs: 10_000,
  adminConnectionWaitMs: 10_000,
  pingIntervalMs: 30_000,
  chunkBatchMs: 16,
  presencePollMs: 5000,
} as const;

export const UI_TIMING = {
  logoutRedirectMs: 300,
  toastMs: 2000,
  alertMs: 10_000,
  blobDownloadTimeoutMs: 10_000,
  scrollTopAfterPx: 400,
} as const;

export const LAYOUT = {
  navigationWidth: 208,
  collapsedNavigationWidth: 66,
  boxedMaxWidth: 1440,
  toolbarHeight: 64,
  breakpoints: { xs: 0, sm: 600, md: 900, lg: 1200, xl: 1536 },
} as const;

export const LISTS = { defaultPage: 1, defaultSize: 10 } as const;

export const BOT = {
  nameMaxLength: 50,
  defaultTemperature: 1,
  /** Sources listed under an answer: 3 unless the owner sets 1 to 5. */
  defaultCitations: 3,
  maxCitations: 5,
  /** An answer whose best passage holds less than this share of the question's words offers a person. */
  defaultHandoffConfidence: 0.34,
  defaultBrandColor: '#ffffff',
  welcomeMessage: "Welcome I'm here to help you with your queries",
  newConversationName: 'New Chat',
} as const;

export const CALENDAR_PROVIDERS = ['google', 'calendly', 'cal', 'tidycal'] as const;

export const SYNC = {
  defaultLimit: 100,
  shopifyPageSize: 50,
  shopifyCustomers: 1000,
  wooPageSize: 50,
} as const;

/** Security limits of accounts (issue "Server foundation"). */
export const AUTH_LIMITS = {
  accessTokenMaxSeconds: 900,
  otpDigits: 6,
  otpTtlMinutes: 10,
  otpMaxAttempts: 5,
  invitationTtlDays: 7,
} as const;
