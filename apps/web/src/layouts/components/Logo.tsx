import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { Link } from 'react-router';

/** The Parley mark and name, linking home. */
export function Logo({ compact = false, to = '/home' }: { compact?: boolean; to?: string }) {
  return (
    <Box
      component={Link}
      to={to}
      aria-label="Parley home"
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 1,
        color: 'text.primary',
        textDecoration: 'none',
      }}
    >
      <Box component="svg" viewBox="0 0 32 32" sx={{ width: 32, height: 32, flexShrink: 0 }} aria-hidden>
        <rect width="32" height="32" rx="8" fill="#DC143C" />
        <path d="M9 9h9a6 6 0 0 1 0 12h-4l-5 4V9z" fill="#fff" />
      </Box>
      {compact ? null : (
        <Typography variant="h6" component="span" fontWeight={700} letterSpacing={0.3}>
          Parley
        </Typography>
      )}
    </Box>
  );
}
