import NotificationsOutlined from '@mui/icons-material/NotificationsOutlined';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import { useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { notificationsReset } from '../../app/ui-slice';

/** Opening the bell resets the count and goes to /inbox (spec section 4). */
export function NotificationBell() {
  const count = useAppSelector((state) => state.ui.notificationCount);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const open = () => {
    dispatch(notificationsReset());
    navigate('/inbox');
  };
  return (
    <IconButton color="inherit" aria-label={`Notifications (${count})`} onClick={open}>
      <Badge badgeContent={count} color="error">
        <NotificationsOutlined />
      </Badge>
    </IconButton>
  );
}
