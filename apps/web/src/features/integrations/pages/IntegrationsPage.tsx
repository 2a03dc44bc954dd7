import Typography from '@mui/material/Typography';
import { PageHeader } from '../../../shared/components/PageHeader';
import { SocialChannels } from '../../social/components/SocialChannels';

/** Integrations: the channels a bot answers on; stores arrive with their own issue. */
export function IntegrationsPage() {
  return (
    <>
      <PageHeader
        title="Integrations"
        subtitle="Put your bots on Instagram and Messenger, and hand conversations to your team in the inbox."
      />
      <SocialChannels />
      <Typography variant="body2" color="text.secondary" sx={{ mt: 3 }}>
        Shopify, WooCommerce and WhatsApp are coming soon.
      </Typography>
    </>
  );
}
