import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import HandshakeOutlined from '@mui/icons-material/HandshakeOutlined';
import Logout from '@mui/icons-material/Logout';
import PersonOutline from '@mui/icons-material/PersonOutline';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { type MouseEvent, useState } from 'react';
import { Link } from 'react-router';
import { useAppSelector } from '../../app/store';
import { useLogout } from '../../features/auth/hooks/useLogout';
import { hasPartnerArea, isPartnerOnly } from '../../features/partner/membership';

function initials(first: string, last: string): string {
  return `${first.charAt(0)}${last.charAt(0)}`.toUpperCase() || '?';
}

type Props = {
  /** Where the menu shows: the workspace console (the shell) or the partner area (/partner). */
  area?: 'workspace' | 'partner';
};

/**
 * The avatar menu: Profile, Settings and Logout (spec section 2), and for a workspace member who is
 * also a partner the switch between the workspace console and the partner area (issue 31).
 */
export function UserMenu({ area = 'workspace' }: Props) {
  const user = useAppSelector((state) => state.session.user);
  const logout = useLogout();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  if (!user) return null;
  const name = `${user.first_name} ${user.last_name}`.trim();
  // A partner-only account has no workspace to go back to; a member who joined has both areas.
  const switchTo =
    area === 'partner'
      ? isPartnerOnly(user)
        ? null
        : { to: '/home', label: 'Workspace console', icon: <DashboardOutlined fontSize="small" /> }
      : hasPartnerArea(user)
        ? { to: '/partner', label: 'Partner area', icon: <HandshakeOutlined fontSize="small" /> }
        : null;
  return (
    <>
      <IconButton
        aria-label="Account menu"
        aria-haspopup="menu"
        aria-controls={anchor ? 'account-menu' : undefined}
        onClick={(event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget)}
      >
        <Avatar sx={{ width: 36, height: 36, bgcolor: 'primary.main', fontSize: 15 }}>
          {initials(user.first_name, user.last_name)}
        </Avatar>
      </IconButton>
      <Menu id="account-menu" anchorEl={anchor} open={Boolean(anchor)} onClose={close} onClick={close}>
        <Box sx={{ px: 2, py: 1, maxWidth: 260 }}>
          <Typography fontWeight={600} noWrap>
            {name}
          </Typography>
          <Typography variant="body2" color="text.secondary" noWrap>
            {user.email}
          </Typography>
        </Box>
        <Divider />
        {switchTo ? (
          <MenuItem component={Link} to={switchTo.to}>
            <ListItemIcon>{switchTo.icon}</ListItemIcon>
            {switchTo.label}
          </MenuItem>
        ) : null}
        {switchTo ? <Divider /> : null}
        <MenuItem component={Link} to="/profile">
          <ListItemIcon>
            <PersonOutline fontSize="small" />
          </ListItemIcon>
          Profile
        </MenuItem>
        <MenuItem component={Link} to="/settings">
          <ListItemIcon>
            <SettingsOutlined fontSize="small" />
          </ListItemIcon>
          Settings
        </MenuItem>
        <Divider />
        <MenuItem onClick={logout}>
          <ListItemIcon>
            <Logout fontSize="small" />
          </ListItemIcon>
          Logout
        </MenuItem>
      </Menu>
    </>
  );
}
