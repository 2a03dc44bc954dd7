import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import { Outlet } from 'react-router';
import { FooterLinks } from './components/FooterLinks';

/** Sign-in, public and error pages: no menu, just the page and the footer links. */
export function BlankLayout() {
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <Box component="main" sx={{ flex: 1, display: 'flex', flexDirection: 'column' }}>
        <Outlet />
      </Box>
      <Container maxWidth="lg" component="footer">
        <FooterLinks />
      </Container>
    </Box>
  );
}
