import { useEffect } from 'react';
import { useStore } from 'react-redux';
import type { AppStore } from '../../app/store';
import { useAppSelector } from '../../app/store';
import { useAbility } from '../../features/permissions/hooks/useAbility';

/**
 * For users who answer in the support inbox: loads and opens the admin channel once the shell shows,
 * so new messages ring the bell on any page. Renders nothing.
 */
export function AgentChannel() {
  const store = useStore() as AppStore;
  const user = useAppSelector((state) => state.session.user);
  const ability = useAbility();
  // A member who is also a partner still answers (a partner-only account reads no Inbox).
  const agent = Boolean(user) && ability.can('read', 'Inbox');
  const userId = user?.id;
  const tenantId = user?.tenant_id;
  useEffect(() => {
    if (!agent || userId === undefined || tenantId === undefined) return;
    let cancelled = false;
    void import('../../features/inbox/agent-channel').then(({ startAgentChannel }) => {
      if (!cancelled) startAgentChannel(store, { id: userId, tenant_id: tenantId });
    });
    return () => {
      cancelled = true;
    };
  }, [agent, store, userId, tenantId]);
  return null;
}
