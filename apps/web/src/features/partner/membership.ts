import type { User } from '@parley/contracts';

type Who = Pick<User, 'user_type' | 'is_partner'>;

/**
 * A partner-only account (user type partner, spec section 6): no workspace, only the partner area.
 * Since issue 31 becoming a partner no longer makes one, but the type still exists.
 */
export const isPartnerOnly = (user: Who): boolean => user.user_type.toLowerCase() === 'partner';

/**
 * Whether the person has the partner area: a workspace member who joined the affiliate programme
 * (`is_partner`, they keep their workspace) or a partner-only account. The same rule as
 * defineAbilityFor's read on Partner.
 */
export const hasPartnerArea = (user: Who): boolean => user.is_partner === true || isPartnerOnly(user);
