import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { MESSAGES } from '@parley/contracts';
import { Link } from 'react-router';

/** Shown in place of a page the user lacks permission for (spec sections 2 and 8). */
export function NotAuthorized() {
  return (
    <Box sx={{ textAlign: 'center', py: { xs: 6, md: 10 }, px: 2 }} data-testid="not-authorized">
      <Typography
        variant="h1"
        sx={{ fontSize: { xs: '4rem', md: '6rem' }, fontWeight: 700, color: 'primary.main' }}
      >
        401
      </Typography>
      <Typography variant="h5" component="h1" sx={{ mb: 1.5, fontWeight: 600 }}>
        {MESSAGES.unauthorized.title}
      </Typography>
      <Typography color="text.secondary">{MESSAGES.unauthorized.body}</Typography>
      <Typography color="text.secondary" sx={{ mb: 4 }}>
        {MESSAGES.unauthorized.contact}
      </Typography>
      <Button component={Link} to="/" variant="contained">
        {MESSAGES.unauthorized.back}
      </Button>
    </Box>
  );
}
