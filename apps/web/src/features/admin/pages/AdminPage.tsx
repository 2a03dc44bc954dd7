import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '../../../shared/components/PageHeader';
import { useAbility } from '../../permissions/hooks/useAbility';
import { HealthPanel } from '../components/HealthPanel';
import { IntegrationsPanel } from '../components/IntegrationsPanel';
import { JobsPanel } from '../components/JobsPanel';
import { MailPanel } from '../components/MailPanel';
import { WorkspacesPanel } from '../components/WorkspacesPanel';

const TABS = ['Workspaces', 'Jobs', 'Mail', 'System health', 'Integrations'] as const;

/**
 * /admin, the Admin Dashboard for platform admins: workspaces, jobs, the mail outbox, health, and
 * each integration's state with the addresses to register.
 */
export function AdminPage() {
  const canWrite = useAbility().can('write', 'Admin');
  const [tab, setTab] = useState(0);
  return (
    <>
      <PageHeader
        title="Admin Dashboard"
        subtitle="Every workspace, the background jobs, the mail outbox, the system's health and the integrations."
        actions={
          <>
            <Button variant="outlined" component={RouterLink} to="/capability">
              Capability Demos
            </Button>
            <Button variant="outlined" component={RouterLink} to="/admin/partners">
              Partners
            </Button>
            <Button variant="contained" component={RouterLink} to="/admin/plans">
              Plans and add-ons
            </Button>
          </>
        }
      />
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Tabs
          value={tab}
          onChange={(_event, next: number) => setTab(next)}
          sx={{ mb: 2 }}
          variant="scrollable"
        >
          {TABS.map((label) => (
            <Tab key={label} label={label} />
          ))}
        </Tabs>
        {tab === 0 ? <WorkspacesPanel /> : null}
        {tab === 1 ? <JobsPanel canWrite={canWrite} /> : null}
        {tab === 2 ? <MailPanel canWrite={canWrite} /> : null}
        {tab === 3 ? <HealthPanel /> : null}
        {tab === 4 ? <IntegrationsPanel /> : null}
      </Paper>
    </>
  );
}
