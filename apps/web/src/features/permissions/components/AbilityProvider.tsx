import type { ReactNode } from 'react';
import { useMemo } from 'react';
import { useAppSelector } from '../../../app/store';
import { AbilityContext, abilityFor } from '../ability';

/**
 * The signed-in user's abilities, rebuilt whenever the user (and so their roles) changes. It wraps
 * the app shell only: sign-in pages ask no permission questions, and CASL stays out of their bundle.
 */
export function AbilityProvider({ children }: { children: ReactNode }) {
  const user = useAppSelector((state) => state.session.user);
  const ability = useMemo(() => abilityFor(user), [user]);
  return <AbilityContext.Provider value={ability}>{children}</AbilityContext.Provider>;
}
