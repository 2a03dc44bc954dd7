import DarkModeOutlined from '@mui/icons-material/DarkModeOutlined';
import LightModeOutlined from '@mui/icons-material/LightModeOutlined';
import MenuIcon from '@mui/icons-material/Menu';
import TuneOutlined from '@mui/icons-material/TuneOutlined';
import AppBar from '@mui/material/AppBar';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { LAYOUT } from '@parley/contracts';
import { useRouteTitle } from '../../app/route-handle';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { customizerOpened, navOpened } from '../../app/ui-slice';
import { isPartnerOnly } from '../../features/partner/membership';
import { settingsChanged } from '../../features/settings/settings-slice';
import { AgentChannel } from './AgentChannel';
import { AgentIndicator } from './AgentIndicator';
import { Logo } from './Logo';
import { NotificationBell } from './NotificationBell';
import { UserMenu } from './UserMenu';

type Props = { showMenuButton: boolean; showLogo: boolean };

/** The top bar: menu toggle, screen name, agent indicator, bell, mode, customizer and account menu. */
export function TopBar({ showMenuButton, showLogo }: Props) {
  const dispatch = useAppDispatch();
  const mode = useAppSelector((state) => state.settings.mode);
  const title = useRouteTitle();
  const user = useAppSelector((state) => state.session.user);
  // Partner-only accounts have no inbox, so no bell (spec section 6); a member who is also a partner keeps it.
  const isPartner = user !== null && isPartnerOnly(user);
  const dark = mode === 'dark';
  return (
    <AppBar position="static" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
      <Toolbar sx={{ minHeight: LAYOUT.toolbarHeight, gap: 1 }}>
        {showMenuButton ? (
          <IconButton edge="start" aria-label="Open menu" onClick={() => dispatch(navOpened(true))}>
            <MenuIcon />
          </IconButton>
        ) : null}
        {showLogo ? <Logo /> : null}
        <Typography variant="h6" component="p" noWrap sx={{ flex: 1, minWidth: 0, ml: showLogo ? 2 : 0 }}>
          {showLogo ? '' : title}
        </Typography>
        <AgentIndicator />
        <AgentChannel />
        {isPartner ? null : <NotificationBell />}
        <Tooltip title={dark ? 'Light mode' : 'Dark mode'}>
          <IconButton
            sx={{ display: { xs: 'none', sm: 'inline-flex' } }}
            aria-label={dark ? 'Switch to light mode' : 'Switch to dark mode'}
            onClick={() => dispatch(settingsChanged({ mode: dark ? 'light' : 'dark' }))}
          >
            {dark ? <LightModeOutlined /> : <DarkModeOutlined />}
          </IconButton>
        </Tooltip>
        <Tooltip title="Theme customizer">
          <IconButton aria-label="Open theme customizer" onClick={() => dispatch(customizerOpened(true))}>
            <TuneOutlined />
          </IconButton>
        </Tooltip>
        <UserMenu />
      </Toolbar>
    </AppBar>
  );
}
