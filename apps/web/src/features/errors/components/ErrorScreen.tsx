import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';

type Props = { code: string; title: string; text: string };

/** A full-page error with a way back home. Plain anchors: it must work even when routing failed. */
export function ErrorScreen({ code, title, text }: Props) {
  return (
    <Box
      sx={{ flex: 1, minHeight: '60vh', display: 'grid', placeItems: 'center', textAlign: 'center', px: 2 }}
    >
      <Box>
        <Typography
          sx={{
            fontSize: { xs: '4rem', md: '6rem' },
            fontWeight: 700,
            color: 'primary.main',
            lineHeight: 1.1,
          }}
        >
          {code}
        </Typography>
        <Typography variant="h5" component="h1" fontWeight={600} gutterBottom>
          {title}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 4 }}>
          {text}
        </Typography>
        <Button href="/" variant="contained">
          Back to Home
        </Button>
      </Box>
    </Box>
  );
}
