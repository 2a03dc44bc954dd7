import { Outlet } from 'react-router';
import { useRouteAccess } from '../../app/route-handle';
import { NotAuthorized } from '../../features/permissions/components/NotAuthorized';
import { useAbility } from '../../features/permissions/hooks/useAbility';
import { canAccess } from '../../features/permissions/menu';

/** The page if the user's abilities satisfy its rule, else the unauthorised page (spec section 6). */
export function AccessGate() {
  const ability = useAbility();
  const access = useRouteAccess();
  return canAccess(ability, access) ? <Outlet /> : <NotAuthorized />;
}
