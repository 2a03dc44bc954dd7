import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { WhatsAppAccount } from '@parley/contracts';
import { useState } from 'react';
import { Link, Navigate, Route, Routes, useLocation } from 'react-router';
import { PageHeader } from '../../../shared/components/PageHeader';
import { useWhatsappAccountsQuery } from '../api';
import { AccountsPanel } from '../components/AccountsPanel';
import { CampaignsPanel } from '../components/CampaignsPanel';
import { ConnectNumber } from '../components/ConnectNumber';
import { ContactsPanel } from '../components/ContactsPanel';
import { TemplatesPanel } from '../components/TemplatesPanel';
import { selectedAccount } from '../model';

const TABS = [
  { path: 'accounts', label: 'Accounts' },
  { path: 'templates', label: 'Templates' },
  { path: 'contacts', label: 'Contacts' },
  { path: 'campaigns', label: 'Campaigns' },
] as const;

/** WhatsApp: numbers, templates, contacts and campaigns of the chosen number (one tab each). */
export function WhatsAppPage() {
  const accounts = useWhatsappAccountsQuery();
  const [chosenId, setChosenId] = useState<number | null>(null);
  const list = accounts.data ?? [];
  const account = selectedAccount(list, chosenId);
  const { pathname } = useLocation();
  const current = TABS.find((tab) => pathname.startsWith(`/whatsapp/${tab.path}`))?.path ?? false;

  return (
    <>
      <PageHeader
        title="WhatsApp"
        subtitle="Connect your WhatsApp Business numbers, write message templates, keep contacts and send campaigns."
        actions={
          <>
            {list.length > 0 ? (
              <AccountSelector accounts={list} value={account?.id ?? null} onChange={setChosenId} />
            ) : null}
            <ConnectNumber onConnected={(a) => (list.length === 0 ? setChosenId(a.id) : undefined)} />
          </>
        }
      />
      <Tabs value={current} aria-label="WhatsApp sections" variant="scrollable" sx={{ mb: 3 }}>
        {TABS.map((tab) => (
          <Tab
            key={tab.path}
            value={tab.path}
            label={tab.label}
            component={Link}
            to={`/whatsapp/${tab.path}`}
          />
        ))}
      </Tabs>
      {accounts.isLoading ? <CircularProgress aria-label="Loading WhatsApp accounts" /> : null}
      {accounts.isError ? <Alert severity="error">Your WhatsApp numbers could not be loaded.</Alert> : null}
      {accounts.isSuccess ? (
        <Routes>
          <Route index element={<Navigate to="accounts" replace />} />
          <Route
            path="accounts"
            element={
              <AccountsPanel accounts={list} selectedId={account?.id ?? null} onSelect={setChosenId} />
            }
          />
          <Route
            path="templates"
            element={<NeedsAccount account={account} render={(a) => <TemplatesPanel account={a} />} />}
          />
          <Route
            path="contacts"
            element={<NeedsAccount account={account} render={(a) => <ContactsPanel account={a} />} />}
          />
          <Route
            path="campaigns"
            element={<NeedsAccount account={account} render={(a) => <CampaignsPanel account={a} />} />}
          />
          <Route path="*" element={<Navigate to="/whatsapp/accounts" replace />} />
        </Routes>
      ) : null}
    </>
  );
}

function NeedsAccount({
  account,
  render,
}: {
  account: WhatsAppAccount | null;
  render: (account: WhatsAppAccount) => React.ReactNode;
}) {
  if (!account)
    return <Typography color="text.secondary">Connect a WhatsApp number first (Accounts tab).</Typography>;
  // Keyed by account: switching numbers starts each panel afresh (paging, dialogs).
  return <div key={account.id}>{render(account)}</div>;
}

function AccountSelector({
  accounts,
  value,
  onChange,
}: {
  accounts: WhatsAppAccount[];
  value: number | null;
  onChange: (id: number) => void;
}) {
  return (
    <TextField
      select
      size="small"
      label="WhatsApp number"
      value={value ?? ''}
      onChange={(event) => onChange(Number(event.target.value))}
      sx={{ minWidth: 240 }}
    >
      {accounts.map((a) => (
        <MenuItem key={a.id} value={a.id}>
          {a.display_phone_number}
          {a.verified_name ? ` · ${a.verified_name}` : ''}
        </MenuItem>
      ))}
    </TextField>
  );
}
