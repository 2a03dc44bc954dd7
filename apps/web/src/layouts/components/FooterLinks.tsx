import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';

/** The footer's links to the contact, privacy policy and terms pages (spec section 2). */
export function FooterLinks() {
  return (
    <Box
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        gap: 2,
        alignItems: 'center',
        justifyContent: 'space-between',
        py: 2,
      }}
    >
      <Typography variant="body2" color="text.secondary">
        © {new Date().getFullYear()} Parley
      </Typography>
      <Box component="nav" aria-label="Footer" sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        <Link component={RouterLink} to="/contact" variant="body2">
          Contact
        </Link>
        <Link component={RouterLink} to="/privacy" variant="body2">
          Privacy Policy
        </Link>
        <Link component={RouterLink} to="/terms" variant="body2">
          Terms
        </Link>
      </Box>
    </Box>
  );
}
