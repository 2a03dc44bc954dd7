import { MESSAGES } from '@parley/contracts';
import { httpStatus, serverDetail } from '../../shared/api/errors';

/** A failed create: the server's detail when it gives one, else 'Failed to add bot' (spec section 8). */
export function addBotFailure(error: unknown): string {
  return serverDetail(error) ?? MESSAGES.bots.addFailed;
}

/** A failed update: the server's detail, else the request's outcome in plain words. */
export function updateBotFailure(error: unknown): string {
  return serverDetail(error) ?? 'Failed to update bot';
}

/**
 * A failed delete. A refusal (409: the bot still has users or chats) is the spec's warning; other
 * failures show the server's detail.
 */
export function deleteBotFailure(error: unknown): { level: 'warning' | 'error'; text: string } {
  if (httpStatus(error) === 409) return { level: 'warning', text: MESSAGES.bots.deleteBlocked };
  return { level: 'error', text: serverDetail(error) ?? 'Failed to delete bot' };
}
