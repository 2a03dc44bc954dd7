import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Link } from 'react-router';

/** A bot id that names no bot of this tenant (or one since deleted). */
export function BotNotFound() {
  return (
    <Paper
      variant="outlined"
      sx={{ textAlign: 'center', py: 6, px: 2 }}
      role="region"
      aria-label="Bot not found"
    >
      <Typography variant="h6" component="h1">
        Bot not found
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        This bot does not exist or was deleted.
      </Typography>
      <Button variant="contained" component={Link} to="/bot">
        Back to bots
      </Button>
    </Paper>
  );
}
