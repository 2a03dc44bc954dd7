import NotificationsOutlined from '@mui/icons-material/NotificationsOutlined';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import { skipToken } from '@reduxjs/toolkit/query';
import { lazy, Suspense, useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { notificationsReset } from '../../app/ui-slice';
import { useMarkSeenMutation, useNotificationCountQuery } from '../../features/notifications/api';
import { useAbility } from '../../features/permissions/hooks/useAbility';

const NotificationsPopover = lazy(() =>
  import('../../features/notifications/components/NotificationsPopover').then((m) => ({
    default: m.NotificationsPopover,
  })),
);

/** Without the admin channel (no Inbox), the count is fetched again this often. */
const POLL_WITHOUT_CHANNEL_MS = 60_000;

/**
 * The bell: the server's count of notifications not yet seen (fetched on load and when the admin
 * channel says one was stored), plus the chat's live messages and notices counted in this tab.
 * Opening it resets the count and goes to /inbox (spec section 4), and lists the notifications.
 */
export function NotificationBell() {
  const user = useAppSelector((state) => state.session.user);
  const live = useAppSelector((state) => state.ui.notificationCount);
  const ability = useAbility();
  const agent = ability.can('read', 'Inbox');
  const server = useNotificationCountQuery(user ? { userId: user.id, tenantId: user.tenant_id } : skipToken, {
    pollingInterval: agent ? 0 : POLL_WITHOUT_CHANNEL_MS,
  });
  const [markSeen] = useMarkSeenMutation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = useCallback(() => setAnchor(null), []);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const count = (server.data?.count ?? 0) + live;
  const open = (event: React.MouseEvent<HTMLElement>) => {
    dispatch(notificationsReset());
    if (server.data?.count) void markSeen();
    // The bell toggles the list; the count resets and the inbox opens either way (spec section 4).
    setAnchor(anchor ? null : event.currentTarget);
    if (agent) navigate('/inbox');
  };
  return (
    <>
      <IconButton color="inherit" aria-label={`Notifications (${count})`} onClick={open}>
        <Badge badgeContent={count} color="error">
          <NotificationsOutlined />
        </Badge>
      </IconButton>
      {anchor ? (
        <Suspense fallback={null}>
          <NotificationsPopover anchor={anchor} onClose={close} />
        </Suspense>
      ) : null}
    </>
  );
}
