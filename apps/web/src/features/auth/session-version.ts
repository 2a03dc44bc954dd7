/**
 * The server's version of the signed-in user: SESSION_VERSION_HEADER on every signed-in answer and
 * the help-desk socket's `session` frame. The first one seen is the user's as loaded; a different
 * one later means their roles, grants or profile changed, so the user is read again and the menu
 * and route guards follow at once, gains included (losses also show as a 403).
 */
let known: string | null = null;

/** Notes `version`; true when it differs from the one seen before (read the user again). */
export function sessionVersionChanged(version: string): boolean {
  const changed = known !== null && known !== version;
  known = version;
  return changed;
}

/** For tests: as if no answer had been seen yet. */
export function forgetSessionVersion(): void {
  known = null;
}
