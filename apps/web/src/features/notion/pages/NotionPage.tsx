import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { NOTION_TEXTS } from '@parley/contracts';
import { type FormEvent, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../shared/components/PageHeader';
import { TextInput } from '../../../shared/components/TextInput';
import { useNotify } from '../../../shared/hooks/useNotify';
import { BotPicker, useBotSelection } from '../../bots/components/BotPicker';
import { KnowledgeTabs } from '../../knowledge/components/KnowledgeTabs';
import { failureText } from '../../roles/failure';
import {
  useConnectNotionMutation,
  useNotionAuthorizeMutation,
  useNotionContentQuery,
  useNotionStatusQuery,
} from '../api';
import { WorkspaceCard } from '../components/WorkspaceCard';

/** Knowledge: Notion workspaces (connect, pages, sync, train, delete). */
export function NotionPage() {
  const notify = useNotify();
  const selection = useBotSelection();
  const [params, setParams] = useSearchParams();
  const status = useNotionStatusQuery();
  const content = useNotionContentQuery();
  const [authorize, authorizeState] = useNotionAuthorizeMutation();
  const [connect, connectState] = useConnectNotionMutation();
  const [token, setToken] = useState('');

  // Back from Notion's consent page: say how it went, then tidy the address.
  useEffect(() => {
    const connected = params.get('connected');
    const error = params.get('error');
    if (!connected && !error) return;
    if (connected) notify.success(NOTION_TEXTS.connected);
    if (error) notify.error(failureText(NOTION_TEXTS.connectFailed, { data: { detail: error } }));
    setParams({}, { replace: true });
  }, [params, setParams, notify]);

  const onOauth = async () => {
    try {
      const { url } = await authorize().unwrap();
      window.location.assign(url);
    } catch (error) {
      notify.error(failureText(NOTION_TEXTS.connectFailed, error));
    }
  };
  const onToken = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await connect(token.trim()).unwrap();
      setToken('');
      notify.success(NOTION_TEXTS.connected);
    } catch (error) {
      notify.error(failureText(NOTION_TEXTS.connectFailed, error));
    }
  };

  const workspaces = content.data?.workspaces ?? [];
  return (
    <>
      <KnowledgeTabs />
      <PageHeader
        title="Notion"
        subtitle="Connect a Notion workspace, sync the pages shared with Parley and train them into a bot."
      />
      <Stack spacing={3}>
        <Card variant="outlined" component="section" aria-label="Connect Notion">
          <CardContent>
            <Typography variant="h6" component="h2" gutterBottom>
              Connect a workspace
            </Typography>
            {status.isError ? <Alert severity="error">{NOTION_TEXTS.fetchStatusFailed}</Alert> : null}
            {status.data?.oauth_configured ? (
              <Button
                variant="contained"
                onClick={onOauth}
                disabled={authorizeState.isLoading}
                sx={{ mb: 2 }}
              >
                Connect with Notion
              </Button>
            ) : null}
            <Box
              component="form"
              onSubmit={onToken}
              sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'flex-start' }}
            >
              <Box sx={{ flex: '1 1 280px' }}>
                <TextInput
                  id="notion-token"
                  label="Internal integration token"
                  type="password"
                  autoComplete="off"
                  value={token}
                  onChange={(event) => setToken(event.target.value)}
                  helperText="From Notion's integration settings; share the pages with the integration first."
                />
              </Box>
              <Button type="submit" variant="outlined" disabled={!token.trim() || connectState.isLoading}>
                Connect with token
              </Button>
            </Box>
          </CardContent>
        </Card>

        {content.isError ? <Alert severity="error">{NOTION_TEXTS.fetchContentFailed}</Alert> : null}
        {content.isLoading ? (
          <CircularProgress aria-label="Loading Notion workspaces" />
        ) : workspaces.length === 0 && !content.isError ? (
          <Typography color="text.secondary">No Notion workspace is connected yet.</Typography>
        ) : (
          <>
            <BotPicker selection={selection} label="Train into bot" />
            {workspaces.map((workspace) => (
              <WorkspaceCard key={workspace.id} workspace={workspace} bot={selection.bot} />
            ))}
          </>
        )}
      </Stack>
    </>
  );
}
