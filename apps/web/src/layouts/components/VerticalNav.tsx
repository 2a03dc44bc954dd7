import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import { ThemeProvider } from '@mui/material/styles';
import { LAYOUT } from '@parley/contracts';
import { useMemo } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { navTheme } from '../../app/theme';
import { navOpened } from '../../app/ui-slice';
import { useAbility } from '../../features/permissions/hooks/useAbility';
import { sideMenuFor } from '../../features/permissions/menu';
import { settingsChanged } from '../../features/settings/settings-slice';
import { Logo } from './Logo';
import { NavList } from './NavList';

/**
 * The vertical side menu: permanent from the lg breakpoint (208 px, or 66 collapsed), a toggle
 * drawer below it or when the menu is hidden (spec sections 2 and 9). Semi-dark mode darkens it.
 */
export function VerticalNav({ temporary }: { temporary: boolean }) {
  const settings = useAppSelector((state) => state.settings);
  const open = useAppSelector((state) => state.ui.navOpen);
  const dispatch = useAppDispatch();
  const ability = useAbility();
  const entries = useMemo(() => sideMenuFor(ability), [ability]);
  const theme = useMemo(() => navTheme(settings), [settings]);
  const collapsed = !temporary && settings.navCollapsed;
  const width = collapsed ? LAYOUT.collapsedNavigationWidth : LAYOUT.navigationWidth;
  const close = () => dispatch(navOpened(false));

  const content = (
    <Box
      sx={{ width, height: '100%', display: 'flex', flexDirection: 'column', bgcolor: 'background.paper' }}
    >
      <Box
        sx={{
          minHeight: LAYOUT.toolbarHeight,
          display: 'flex',
          alignItems: 'center',
          justifyContent: collapsed ? 'center' : 'space-between',
          px: collapsed ? 0 : 2,
        }}
      >
        <Logo compact={collapsed} />
        {temporary || collapsed ? null : (
          <IconButton
            size="small"
            aria-label="Collapse menu"
            onClick={() => dispatch(settingsChanged({ navCollapsed: true }))}
          >
            <ChevronLeft />
          </IconButton>
        )}
      </Box>
      {collapsed ? (
        <Box sx={{ display: 'flex', justifyContent: 'center' }}>
          <IconButton
            size="small"
            aria-label="Expand menu"
            onClick={() => dispatch(settingsChanged({ navCollapsed: false }))}
          >
            <ChevronRight />
          </IconButton>
        </Box>
      ) : null}
      <NavList entries={entries} collapsed={collapsed} onNavigate={temporary ? close : undefined} />
    </Box>
  );

  return (
    <ThemeProvider theme={theme}>
      {temporary ? (
        <Drawer
          variant="temporary"
          open={open}
          onClose={close}
          ModalProps={{ keepMounted: true }}
          data-testid="nav-drawer"
        >
          {content}
        </Drawer>
      ) : (
        <Drawer
          variant="permanent"
          data-testid="nav-permanent"
          sx={{
            width,
            flexShrink: 0,
            '& .MuiDrawer-paper': { width, boxSizing: 'border-box', overflowX: 'hidden' },
          }}
        >
          {content}
        </Drawer>
      )}
    </ThemeProvider>
  );
}
