import { createHmac } from 'node:crypto';
import { deriveKey } from '../../core/crypto.js';

/** Who rates an answer: a widget visitor of one bot, or a signed-in user in the playground. */
export type Rater = { kind: 'visitor'; botId: number; visitorId: string } | { kind: 'user'; userId: number };

/**
 * The key a rating is stored under (`message_ratings.rater_key`): a keyed hash of who rated, so one
 * person keeps one rating per answer without the table saying who they are (the bot's `analytics`
 * flag decides only whether `visitor_id` is kept beside it). Rating and reading back both key here.
 */
export class RaterKeys {
  private readonly secret: Buffer;

  constructor(appSecret: string) {
    this.secret = deriveKey(appSecret, 'analytics-rater');
  }

  keyOf(rater: Rater): string {
    const identity = rater.kind === 'visitor' ? `v:${rater.botId}:${rater.visitorId}` : `u:${rater.userId}`;
    return createHmac('sha256', this.secret).update(identity).digest('base64url');
  }
}
