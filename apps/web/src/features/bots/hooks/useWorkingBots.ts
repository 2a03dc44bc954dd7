import type { Bot } from '@parley/contracts';
import { useAppSelector } from '../../../app/store';
import { useAbility } from '../../permissions/hooks/useAbility';
import { useBotsAssignedQuery, useBotsOfUserQuery } from '../api';

/**
 * The bots the signed-in person works with, from the call their role allows: a bot manager's list
 * (GET /chat/bots/user/:id needs read on Manage Bots), else the bots they are assigned, every bot
 * unless the owner restricted them (an agent or a viewer). Never a refused call, so no error toast.
 */
export function useWorkingBots(): { data: Bot[] | undefined; isLoading: boolean; isError: boolean } {
  const me = useAppSelector((state) => state.session.user);
  const managesBots = useAbility().can('read', 'Create Bot');
  const managed = useBotsOfUserQuery(me?.id ?? 0, { skip: !me || !managesBots });
  const assigned = useBotsAssignedQuery(
    { userId: me?.id ?? 0, tenantId: me?.tenant_id ?? 0 },
    { skip: !me || managesBots },
  );
  const source = managesBots ? managed : assigned;
  return { data: source.data, isLoading: source.isLoading, isError: source.isError };
}
