import { WHATSAPP_TEXTS } from '@parley/contracts';

/**
 * What an agent reads under a message WhatsApp did not deliver: Meta's titles ("Re-engagement
 * message", "Message undeliverable") do not say what happened or what to do, so the codes an
 * inbox meets are said plainly; Meta's code stays at the end for looking it up.
 */
const REASONS: Record<number, string> = {
  131047: WHATSAPP_TEXTS.windowClosed,
  131026:
    'WhatsApp could not deliver it: the number may not be on WhatsApp, or the customer has not accepted WhatsApp’s latest terms or uses an old version of the app.',
  131021: 'WhatsApp does not deliver a message from a number to itself.',
  131042: 'WhatsApp refused it because of a payment problem on the WhatsApp Business Account.',
  131048: 'WhatsApp held it back: too many messages from this number were blocked or reported as spam.',
  131049:
    'WhatsApp did not deliver this marketing message, to limit how many one customer receives. Try later.',
  131050: 'The customer has stopped marketing messages from this business.',
  131051: 'WhatsApp does not support this kind of message.',
  131052: 'WhatsApp could not download the file the customer sent.',
  131053: 'WhatsApp could not take the file: check its type and size.',
  131056: 'Too many messages to this customer in a short time. Try again shortly.',
  130472:
    'WhatsApp did not deliver this marketing message: the customer’s number is part of a Meta experiment.',
};

export type CloudErrorDetail = {
  code?: number;
  title?: string;
  message?: string;
  error_data?: { details?: string };
};

/** The plain reason for a code the inbox meets, with the code; null for others. */
export function knownFailure(code: number | null): string | null {
  const known = code === null ? undefined : REASONS[code];
  return known ? `${known} (WhatsApp error ${code})` : null;
}

/** A failure as the inbox shows it: the plain reason for a known code, else Meta's own words. */
export function failureReason(error: CloudErrorDetail | undefined): string {
  const code = error?.code;
  const known = code === undefined ? undefined : REASONS[code];
  const said = [error?.title ?? error?.message, error?.error_data?.details].filter(Boolean).join(': ');
  const reason = known ?? (said || 'WhatsApp could not deliver it.');
  return code === undefined ? reason : `${reason} (WhatsApp error ${code})`;
}
