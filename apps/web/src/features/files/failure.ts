import { type DeleteGroupConflict, MESSAGES } from '@parley/contracts';

/**
 * The text for a refused group delete (spec section 8 Files): 'An error occurred while deleting the
 * file group', followed by ' Associated bots: ' and their names when the server names bots.
 */
export function deleteGroupFailure(error: unknown): string {
  const data =
    error && typeof error === 'object' && 'data' in error
      ? (error.data as Partial<DeleteGroupConflict>)
      : null;
  const bots = Array.isArray(data?.associated_bots) ? data.associated_bots : [];
  if (bots.length > 0)
    return MESSAGES.files.deleteGroupFailed + MESSAGES.files.associatedBots + bots.join(', ');
  return MESSAGES.files.deleteGroupFailed;
}
