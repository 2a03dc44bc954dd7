import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Logo } from '../../../layouts/components/Logo';

/** A policy text: heading and paragraph pairs. */
export type Sections = ReadonlyArray<readonly [heading: string, text: string]>;

type Props = { title: string; intro?: ReactNode; sections?: Sections; children?: ReactNode };

/** A public page: logo, heading and readable text width; policy pages pass their sections. */
export function PublicPage({ title, intro, sections = [], children }: Props) {
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
      {sections.map(([heading, text]) => (
        <section key={heading}>
          <Typography variant="h6" component="h2" sx={{ mt: 3, mb: 1 }}>
            {heading}
          </Typography>
          <Typography color="text.secondary">{text}</Typography>
        </section>
      ))}
      {children}
    </Container>
  );
}
