import { createMongoAbility } from '@casl/ability';
import { type AppAbility, defineAbilityFor, type User } from '@parley/contracts';
import { createContext } from 'react';

/** Abilities come from the shared permission map; a visitor without a session can do nothing. */
export function abilityFor(user: User | null): AppAbility {
  return user ? defineAbilityFor(user) : createMongoAbility<AppAbility>([]);
}

export const AbilityContext = createContext<AppAbility>(abilityFor(null));
