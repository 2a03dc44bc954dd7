import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { Link as RouterLink } from 'react-router';
import { ComingSoon } from '../../../shared/components/ComingSoon';

/** The admin console: plans and add-ons today; platform-wide figures arrive with the analytics issue. */
export function AdminPage() {
  return (
    <Stack spacing={2}>
      <Stack direction="row" justifyContent="flex-end">
        <Button variant="contained" component={RouterLink} to="/admin/plans">
          Plans and add-ons
        </Button>
      </Stack>
      <ComingSoon
        title="Admin Dashboard"
        description="Platform-wide figures for administrators: tenants, users, bots and usage."
      />
    </Stack>
  );
}
