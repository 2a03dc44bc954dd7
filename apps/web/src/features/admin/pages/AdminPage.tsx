import { ComingSoon } from '../../../shared/components/ComingSoon';

/** A guarded page; its screen arrives with a later issue. */
export function AdminPage() {
  return (
    <ComingSoon
      title="Admin Dashboard"
      description="Platform-wide figures for administrators: tenants, users, bots and usage."
    />
  );
}
