import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import { useAppSelector } from '../../app/store';

/** 'Helpdesk Online' or 'Offline' (spec section 2); the inbox issue connects the presence poll. */
export function AgentIndicator() {
  const online = useAppSelector((state) => state.ui.agentOnline);
  const label = online ? 'Helpdesk Online' : 'Offline';
  return (
    <Chip
      size="small"
      variant="outlined"
      label={label}
      data-testid="agent-indicator"
      icon={
        <Box
          component="span"
          aria-hidden
          sx={{
            width: 8,
            height: 8,
            borderRadius: '50%',
            bgcolor: online ? 'success.main' : 'text.disabled',
            ml: 1,
          }}
        />
      }
    />
  );
}
