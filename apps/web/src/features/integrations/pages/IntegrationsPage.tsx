import WhatsApp from '@mui/icons-material/WhatsApp';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '../../../shared/components/PageHeader';
import { SocialChannels } from '../../social/components/SocialChannels';
import { StoresSection } from '../../stores/components/StoresSection';

/** Integrations: the channels a bot answers on and the online stores it answers from. */
export function IntegrationsPage() {
  return (
    <>
      <PageHeader
        title="Integrations"
        subtitle="Put your bots on Instagram, Messenger and WhatsApp, connect your online store, and hand conversations to your team in the inbox."
      />
      <SocialChannels />
      <Card variant="outlined" component="section" aria-label="WhatsApp" sx={{ mt: 3 }}>
        <CardContent>
          <Stack direction="row" spacing={1.5} alignItems="center" sx={{ mb: 1 }}>
            <WhatsApp sx={{ color: '#25D366' }} />
            <Typography variant="h6" component="h2">
              WhatsApp
            </Typography>
          </Stack>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            Connect WhatsApp Business numbers, answer customers with your bot, and send approved templates and
            campaigns.
          </Typography>
          <Button variant="contained" component={RouterLink} to="/whatsapp">
            Open WhatsApp
          </Button>
        </CardContent>
      </Card>
      <StoresSection />
    </>
  );
}
