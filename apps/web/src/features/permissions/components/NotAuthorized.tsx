import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { MESSAGES } from '@parley/contracts';
import { Link } from 'react-router';

/** Shown in place of a page the person's role does not include (issue 31: friendly, no 401). */
export function NotAuthorized() {
  return (
    <Box sx={{ textAlign: 'center', py: { xs: 6, md: 10 }, px: 2 }} data-testid="not-authorized">
      <Typography variant="h5" component="h1" sx={{ mb: 1.5, fontWeight: 600 }}>
        {MESSAGES.unauthorized.title}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4 }}>
        {MESSAGES.unauthorized.body}
      </Typography>
      <Button component={Link} to="/" variant="contained">
        {MESSAGES.unauthorized.back}
      </Button>
    </Box>
  );
}
