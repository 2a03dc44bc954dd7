import { useAbility as useCaslAbility } from '@casl/react';
import type { AppAbility } from '@parley/contracts';
import { AbilityContext } from '../ability';

/** The one place the UI asks permission questions: `useAbility().can('create', 'Roles')`. */
export function useAbility(): AppAbility {
  return useCaslAbility(AbilityContext);
}
