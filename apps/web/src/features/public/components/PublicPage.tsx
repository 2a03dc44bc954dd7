import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Logo } from '../../../layouts/components/Logo';

type Props = { title: string; intro?: ReactNode; children: ReactNode };

/** A public page: logo, heading and readable text width. */
export function PublicPage({ title, intro, children }: Props) {
  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, md: 6 } }}>
      <Box sx={{ mb: 4 }}>
        <Logo to="/" />
      </Box>
      <Typography variant="h4" component="h1" fontWeight={700} gutterBottom>
        {title}
      </Typography>
      {intro ? (
        <Typography color="text.secondary" sx={{ mb: 4 }}>
          {intro}
        </Typography>
      ) : null}
      {children}
    </Container>
  );
}
