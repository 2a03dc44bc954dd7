import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useSearchParams } from 'react-router';
import { useAppSelector } from '../../../app/store';
import { PageHeader } from '../../../shared/components/PageHeader';
import { useFeaturesQuery, useRolesQuery } from '../api';
import { FeaturesPanel } from '../components/FeaturesPanel';
import { PendingInvitationsPanel } from '../components/PendingInvitationsPanel';
import { RolesPanel } from '../components/RolesPanel';
import { UsersPanel } from '../components/UsersPanel';

const TABS = [
  { id: 'users', label: 'Users' },
  { id: 'roles', label: 'Roles & permissions' },
  { id: 'features', label: 'Features' },
] as const;
type TabId = (typeof TABS)[number]['id'];

/** /roles: the tenant's users, roles and features. The tab lives in the URL so it survives reload. */
export function RolesPage() {
  const me = useAppSelector((state) => state.session.user);
  const [params, setParams] = useSearchParams();
  const tab: TabId = TABS.find((t) => t.id === params.get('tab'))?.id ?? 'users';
  const roles = useRolesQuery(me?.tenant_id ?? 0, { skip: !me });
  const features = useFeaturesQuery();
  if (!me) return null;
  return (
    <>
      <PageHeader
        title="Users & Roles"
        subtitle="Invite teammates, give them roles and decide what each role may do."
      />
      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}>
        <Tabs
          value={tab}
          onChange={(_e, next: TabId) => setParams(next === 'users' ? {} : { tab: next }, { replace: true })}
          variant="scrollable"
          allowScrollButtonsMobile
          aria-label="Users and roles sections"
        >
          {TABS.map((t) => (
            <Tab key={t.id} value={t.id} label={t.label} id={`tab-${t.id}`} aria-controls={`panel-${t.id}`} />
          ))}
        </Tabs>
      </Box>
      <Box role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab === 'users' ? (
          <Stack spacing={2}>
            <UsersPanel me={me} roles={roles.data ?? []} />
            <PendingInvitationsPanel />
          </Stack>
        ) : null}
        {tab === 'roles' ? (
          <RolesPanel roles={roles.data ?? []} features={features.data ?? []} failed={roles.isError} />
        ) : null}
        {tab === 'features' ? <FeaturesPanel features={features.data ?? []} /> : null}
      </Box>
    </>
  );
}
