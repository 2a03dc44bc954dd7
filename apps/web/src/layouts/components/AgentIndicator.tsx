import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import { SOCKET } from '@parley/contracts';
import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { agentOnlineSet } from '../../app/ui-slice';
import { useHelpdeskPresenceQuery } from '../../features/inbox/presence-api';

/** Hidden from sight, still read out (and still the chip's text). */
const ONLY_FOR_SCREEN_READERS = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/**
 * 'Helpdesk Online' or 'Offline' (spec sections 2 and 4 Agent indicator): whether an agent of the
 * workspace is connected, polled every 5 s (the admin channel's presence frames update it between).
 */
export function AgentIndicator() {
  const dispatch = useAppDispatch();
  const tenantId = useAppSelector((state) => state.session.user?.tenant_id);
  const { data, isError } = useHelpdeskPresenceQuery(tenantId ?? 0, {
    skip: !tenantId,
    pollingInterval: SOCKET.presencePollMs,
  });
  const polled = isError ? false : data?.agents_online;
  useEffect(() => {
    if (polled !== undefined) dispatch(agentOnlineSet(polled));
  }, [polled, dispatch]);
  const online = useAppSelector((state) => state.ui.agentOnline);
  const label = online ? 'Helpdesk Online' : 'Offline';
  return (
    <Chip
      size="small"
      variant="outlined"
      label={label}
      data-testid="agent-indicator"
      data-online={online}
      title={label}
      // On a phone the dot alone says it, so the screen's title keeps the room to be read.
      sx={(theme) => ({
        [theme.breakpoints.down('sm')]: { '& .MuiChip-label': ONLY_FOR_SCREEN_READERS, pr: 1 },
      })}
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
