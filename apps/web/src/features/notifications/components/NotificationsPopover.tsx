import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import ClickAwayListener from '@mui/material/ClickAwayListener';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Popper from '@mui/material/Popper';
import Typography from '@mui/material/Typography';
import type { Notification } from '@parley/contracts';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import {
  useMarkAllNotificationsReadMutation,
  useMarkNotificationReadMutation,
  useNotificationsInfiniteQuery,
} from '../api';

/**
 * The bell's list, under the bell: newest first, unread in bold with a dot, older ones a page at a
 * time ("Show older"); opening one marks it read and goes to what it is about (a conversation, a
 * bot's leads, a source, the subscription).
 */
export function NotificationsPopover({ anchor, onClose }: { anchor: HTMLElement; onClose: () => void }) {
  const list = useNotificationsInfiniteQuery(undefined, { refetchOnMountOrArgChange: true });
  const [markRead] = useMarkNotificationReadMutation();
  const [markAll, marking] = useMarkAllNotificationsReadMutation();
  const navigate = useNavigate();
  const pages = list.data?.pages ?? [];
  const items = pages.flatMap((page) => page.notifications);
  // Counts of the newest page: they cover every notification, not only the page.
  const unread = pages[0]?.unread ?? 0;
  const openOne = (notification: Notification) => {
    if (!notification.read) void markRead(notification.id);
    onClose();
    if (notification.link) navigate(notification.link);
  };
  // Escape closes it, as a menu would.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);
  // Not modal: the page behind stays usable (and readable by assistive technology); a click
  // elsewhere closes it, except on the bell, which toggles it.
  return (
    <Popper open anchorEl={anchor} placement="bottom-end" sx={{ zIndex: (theme) => theme.zIndex.modal }}>
      <ClickAwayListener
        onClickAway={(event) => {
          if (!anchor.contains(event.target as Node)) onClose();
        }}
      >
        <Paper
          elevation={8}
          role="dialog"
          aria-label="Notifications"
          sx={{ width: 360, maxWidth: '95vw', mt: 1 }}
        >
          <Box sx={{ display: 'flex', alignItems: 'center', px: 2, py: 1 }}>
            <Typography variant="subtitle1" sx={{ flexGrow: 1 }}>
              Notifications
            </Typography>
            <Button size="small" onClick={() => void markAll()} disabled={marking.isLoading || unread === 0}>
              Mark all read
            </Button>
          </Box>
          {list.isLoading ? (
            <Box sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
              <CircularProgress size={24} />
            </Box>
          ) : items.length === 0 ? (
            <Typography sx={{ px: 2, pb: 2 }} color="text.secondary">
              No notifications yet
            </Typography>
          ) : (
            <List dense sx={{ maxHeight: 420, overflowY: 'auto', pt: 0 }}>
              {items.map((n) => (
                <ListItemButton
                  key={n.id}
                  onClick={() => openOne(n)}
                  data-read={n.read}
                  data-testid="notification-item"
                >
                  <Box
                    aria-hidden
                    sx={{
                      width: 8,
                      height: 8,
                      borderRadius: '50%',
                      mr: 1.5,
                      flexShrink: 0,
                      bgcolor: n.read ? 'transparent' : 'primary.main',
                    }}
                  />
                  <ListItemText
                    primary={n.title}
                    secondary={[n.body, new Date(n.created_at).toLocaleString()].filter(Boolean).join(' · ')}
                    slotProps={{ primary: { sx: { fontWeight: n.read ? 400 : 600 } } }}
                    aria-label={`${n.read ? '' : 'Unread: '}${n.title}`}
                  />
                </ListItemButton>
              ))}
              {list.hasNextPage ? (
                <Box sx={{ display: 'flex', justifyContent: 'center', py: 1 }}>
                  <Button
                    size="small"
                    onClick={() => void list.fetchNextPage()}
                    disabled={list.isFetchingNextPage}
                  >
                    {list.isFetchingNextPage ? 'Loading…' : 'Show older'}
                  </Button>
                </Box>
              ) : null}
            </List>
          )}
        </Paper>
      </ClickAwayListener>
    </Popper>
  );
}
