import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { useAdminIntegrationsQuery } from '../../integrations/api';

/**
 * Admin Dashboard → Integrations: whether this install is set up for each integration, which
 * settings are set (never their values) and the addresses to register with Meta, Shopify and Notion.
 */
export function IntegrationsPanel() {
  const list = useAdminIntegrationsQuery();
  if (list.isLoading) return <CircularProgress aria-label="Loading integrations" />;
  if (list.isError || !list.data)
    return <Alert severity="error">The integrations could not be loaded.</Alert>;
  return (
    <>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Addresses are built from PUBLIC_URL ({list.data.public_url}). Settings are environment variables: set
        them and restart Parley.
      </Typography>
      <Table size="small" aria-label="Integrations">
        <TableHead>
          <TableRow>
            <TableCell>Integration</TableCell>
            <TableCell>State</TableCell>
            <TableCell>Settings</TableCell>
            <TableCell>Register with the provider</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {list.data.integrations.map((integration) => (
            <TableRow key={integration.key} aria-label={integration.name} sx={{ verticalAlign: 'top' }}>
              <TableCell>
                <Typography variant="body2" fontWeight={600}>
                  {integration.name}
                </Typography>
                <Link component={RouterLink} to={`/help/${integration.doc.slug}`} variant="caption">
                  {integration.doc.title}
                </Link>
              </TableCell>
              <TableCell>
                {integration.enabled ? (
                  <Chip size="small" color="success" label="Enabled" />
                ) : (
                  <Chip size="small" label="Not enabled" />
                )}
                {integration.key === 'notion' ? (
                  <Typography variant="caption" display="block" sx={{ mt: 0.5 }}>
                    {integration.oauth ? 'OAuth set up' : 'Integration tokens only'}
                  </Typography>
                ) : null}
              </TableCell>
              <TableCell>
                {integration.settings.length === 0 ? (
                  <Typography variant="body2" color="text.secondary">
                    Nothing to set
                  </Typography>
                ) : (
                  integration.settings.map((setting) => (
                    <Box key={setting.name} sx={{ display: 'flex', gap: 1, alignItems: 'center', mb: 0.5 }}>
                      <Box component="code" sx={{ fontSize: 13 }}>
                        {setting.name}
                      </Box>
                      <Chip
                        size="small"
                        variant="outlined"
                        color={setting.set ? 'success' : setting.required ? 'warning' : 'default'}
                        label={setting.set ? 'set' : setting.required ? 'missing' : 'not set (optional)'}
                      />
                    </Box>
                  ))
                )}
              </TableCell>
              <TableCell>
                <Typography variant="caption" color="text.secondary" display="block">
                  {integration.provider}
                </Typography>
                {integration.addresses.map((address) => (
                  <Box key={address.url} sx={{ mb: 0.75 }}>
                    <Typography variant="caption" display="block">
                      {address.label}
                    </Typography>
                    <Box component="code" sx={{ fontSize: 13, wordBreak: 'break-all' }}>
                      {address.url}
                    </Box>
                  </Box>
                ))}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </>
  );
}
