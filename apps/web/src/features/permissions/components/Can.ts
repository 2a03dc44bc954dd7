import { createContextualCan } from '@casl/react';
import { AbilityContext } from '../ability';

/** `<Can I="create" a="Roles">...</Can>`, bound to the signed-in user's abilities. */
export const Can = createContextualCan(AbilityContext.Consumer);
