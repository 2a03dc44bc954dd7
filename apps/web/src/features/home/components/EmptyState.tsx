import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

type Props = { icon: ReactNode; title: string; text: string; action?: ReactNode };

/** What a list shows before it has anything in it. */
export function EmptyState({ icon, title, text, action }: Props) {
  return (
    <Box sx={{ textAlign: 'center', py: 4, px: 2, color: 'text.secondary' }}>
      <Box sx={{ fontSize: 40, mb: 1, '& svg': { fontSize: 40 } }} aria-hidden>
        {icon}
      </Box>
      <Typography variant="subtitle1" component="p" color="text.primary" fontWeight={600}>
        {title}
      </Typography>
      <Typography variant="body2" sx={{ mb: action ? 2 : 0 }}>
        {text}
      </Typography>
      {action}
    </Box>
  );
}
