import MenuBookOutlined from '@mui/icons-material/MenuBookOutlined';
import WhatsApp from '@mui/icons-material/WhatsApp';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { INTEGRATION_TEXTS, type IntegrationKey } from '@parley/contracts';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '../../../shared/components/PageHeader';
import { SocialChannels } from '../../social/components/SocialChannels';
import { StoresSection } from '../../stores/components/StoresSection';
import { useIntegrationStatusQuery } from '../api';
import { canConnect, IntegrationNotice } from '../components/IntegrationNotice';

/**
 * Integrations: the channels a bot answers on, the online stores and Notion it answers from. Each
 * card says before any click whether this install is set up for it and whether the plan includes it.
 */
export function IntegrationsPage() {
  const status = useIntegrationStatusQuery();
  const of = (key: IntegrationKey) => status.data?.integrations.find((i) => i.key === key);
  const whatsapp = of('whatsapp');
  const notion = of('notion');
  return (
    <>
      <PageHeader
        title="Integrations"
        subtitle="Put your bots on Instagram, Messenger and WhatsApp, connect your online store and Notion, and hand conversations to your team in the inbox."
      />
      {status.isError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          Whether this install is set up for each integration could not be loaded.
        </Alert>
      ) : null}
      <SocialChannels />
      <SimpleCard
        name="WhatsApp"
        icon={<WhatsApp sx={{ color: '#25D366' }} />}
        blurb="Connect WhatsApp Business numbers, answer customers with your bot, and send approved templates and campaigns."
      >
        <IntegrationNotice status={whatsapp} />
        <Button
          variant="contained"
          component={RouterLink}
          to="/whatsapp"
          disabled={!whatsapp || !canConnect(whatsapp)}
        >
          Open WhatsApp
        </Button>
      </SimpleCard>
      <StoresSection shopify={of('shopify')} />
      <SimpleCard
        name="Notion"
        icon={<MenuBookOutlined color="primary" />}
        blurb="Train your bots on Notion pages and databases: connect a Notion workspace from Manage Bots → Notion."
      >
        {notion && !notion.oauth ? (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {INTEGRATION_TEXTS.notionTokenOnly}{' '}
            <Link component={RouterLink} to={`/help/${notion.doc.slug}`}>
              {notion.doc.title}
            </Link>
            .
          </Typography>
        ) : null}
        <Button variant="outlined" component={RouterLink} to="/bot/knowledge/notion">
          Open Notion
        </Button>
      </SimpleCard>
    </>
  );
}

function SimpleCard({
  name,
  icon,
  blurb,
  children,
}: {
  name: string;
  icon: ReactNode;
  blurb: string;
  children: ReactNode;
}) {
  return (
    <Card variant="outlined" component="section" aria-label={name} sx={{ mt: 3 }}>
      <CardContent>
        <Stack direction="row" spacing={1.5} alignItems="center" sx={{ mb: 1 }}>
          {icon}
          <Typography variant="h6" component="h2">
            {name}
          </Typography>
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {blurb}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}
