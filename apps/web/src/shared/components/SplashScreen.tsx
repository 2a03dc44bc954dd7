import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';

/** The spinner screen while the user loads (spec section 4, Auth). */
export function SplashScreen({ label = 'Loading' }: { label?: string }) {
  return (
    <Box
      role="status"
      aria-live="polite"
      sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}
      data-testid="splash"
    >
      <CircularProgress aria-label={label} />
    </Box>
  );
}
