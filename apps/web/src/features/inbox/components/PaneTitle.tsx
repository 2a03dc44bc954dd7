import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

export function PaneTitle({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        px: 2,
        py: 1,
        minHeight: 52,
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      <Typography variant="subtitle1" component="h2" fontWeight={600} noWrap sx={{ flex: 1, minWidth: 0 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}
