import FullscreenExit from '@mui/icons-material/FullscreenExit';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { LAYOUT } from '@parley/contracts';
import type { ReactNode } from 'react';
import { useAppSelector } from '../app/store';
import { AbilityProvider } from '../features/permissions/components/AbilityProvider';
import { Customizer } from '../features/settings/components/Customizer';
import { SplashScreen } from '../shared/components/SplashScreen';
import { setChatFullScreen } from '../shared/lib/shell-events';
import { AccessGate } from './components/AccessGate';
import { FooterLinks } from './components/FooterLinks';
import { HorizontalNav } from './components/HorizontalNav';
import { ScrollToTop } from './components/ScrollToTop';
import { TopBar } from './components/TopBar';
import { VerticalNav } from './components/VerticalNav';
import { useBelowLg, useShellEvents, useViewportLayout } from './hooks';

/** The signed-in shell: menu, top bar, content (boxed or fluid), footer, customizer, scroll-to-top. */
export function AppLayout() {
  return (
    <AbilityProvider>
      <Shell />
    </AbilityProvider>
  );
}

function Shell() {
  const user = useAppSelector((state) => state.session.user);
  const settings = useAppSelector((state) => state.settings);
  const fullScreen = useAppSelector((state) => state.ui.chatFullScreen);
  const belowLg = useBelowLg();
  useViewportLayout(belowLg);
  useShellEvents();
  // The 300 ms between logout and /login: nothing of the old session is shown.
  if (!user) return <SplashScreen label="Logging out" />;

  const horizontal = settings.layout === 'horizontal' && !belowLg;
  const temporaryNav = belowLg || settings.navHidden;
  const showBar = settings.appBar !== 'hidden' && !fullScreen;
  return (
    <Box
      sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}
      data-layout={horizontal ? 'horizontal' : 'vertical'}
    >
      {horizontal || fullScreen ? null : <VerticalNav temporary={temporaryNav} />}
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        {showBar ? <TopBar showMenuButton={!horizontal && temporaryNav} showLogo={horizontal} /> : null}
        {horizontal && !fullScreen ? <HorizontalNav /> : null}
        <Content boxed={settings.contentWidth === 'boxed'}>
          <AccessGate />
        </Content>
        {settings.footer === 'hidden' || fullScreen ? null : (
          <Footer fixed={settings.footer === 'fixed'} boxed={settings.contentWidth === 'boxed'} />
        )}
      </Box>
      {fullScreen ? <ExitFullScreen /> : null}
      <ScrollToTop />
      <Customizer />
    </Box>
  );
}

function Content({ boxed, children }: { boxed: boolean; children: ReactNode }) {
  return (
    <Box
      component="main"
      id="main-content"
      sx={{
        flex: 1,
        width: '100%',
        mx: 'auto',
        maxWidth: boxed ? LAYOUT.boxedMaxWidth : 'none',
        px: { xs: 2, sm: 3 },
        py: 3,
      }}
    >
      {children}
    </Box>
  );
}

function Footer({ fixed, boxed }: { fixed: boolean; boxed: boolean }) {
  return (
    <Box
      component="footer"
      sx={{
        px: { xs: 2, sm: 3 },
        bgcolor: 'background.default',
        borderTop: 1,
        borderColor: 'divider',
        ...(fixed ? { position: 'sticky', bottom: 0, zIndex: 2 } : {}),
      }}
    >
      <Box sx={{ mx: 'auto', maxWidth: boxed ? LAYOUT.boxedMaxWidth : 'none' }}>
        <FooterLinks />
      </Box>
    </Box>
  );
}

/** Full-screen chat hides the bar and menu; this keeps a way out. */
function ExitFullScreen() {
  return (
    <Button
      variant="contained"
      size="small"
      startIcon={<FullscreenExit />}
      onClick={() => setChatFullScreen(false)}
      sx={{ position: 'fixed', top: 12, right: 12, zIndex: 1200 }}
    >
      Exit full screen
    </Button>
  );
}
