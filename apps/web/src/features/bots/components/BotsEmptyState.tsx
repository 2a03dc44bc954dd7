import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Link } from 'react-router';

/** The list before any bot exists: what a bot is, and the way to create one. */
export function BotsEmptyState({ canCreate }: { canCreate: boolean }) {
  return (
    <Paper variant="outlined" sx={{ textAlign: 'center', py: 6, px: 2 }}>
      <SmartToyOutlined sx={{ fontSize: 48, color: 'text.secondary' }} aria-hidden />
      <Typography variant="h6" component="p" sx={{ mt: 1 }}>
        No bots yet
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        A bot answers your visitors from your files, websites, Notion pages and Q&amp;A.
      </Typography>
      {canCreate ? (
        <Button variant="contained" component={Link} to="/bot/new">
          Create bot
        </Button>
      ) : null}
    </Paper>
  );
}
