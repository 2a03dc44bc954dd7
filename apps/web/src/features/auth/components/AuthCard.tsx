import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Logo } from '../../../layouts/components/Logo';

type Props = { title: string; subtitle?: ReactNode; children: ReactNode };

/** The card every sign-in page sits in, centred, full width on phones. */
export function AuthCard({ title, subtitle, children }: Props) {
  return (
    <Box
      sx={{
        flex: 1,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        px: 2,
        py: { xs: 3, sm: 6 },
      }}
    >
      <Card sx={{ width: '100%', maxWidth: 440 }}>
        <CardContent sx={{ p: { xs: 3, sm: 4 } }}>
          <Box sx={{ mb: 3 }}>
            <Logo to="/login" />
          </Box>
          <Typography variant="h5" component="h1" fontWeight={600} gutterBottom>
            {title}
          </Typography>
          {subtitle ? (
            <Typography color="text.secondary" sx={{ mb: 3 }}>
              {subtitle}
            </Typography>
          ) : null}
          {children}
        </CardContent>
      </Card>
    </Box>
  );
}
