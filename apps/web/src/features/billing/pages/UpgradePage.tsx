import { ComingSoon } from '../../../shared/components/ComingSoon';

/** A guarded page; its screen arrives with a later issue. */
export function UpgradePage() {
  return <ComingSoon title="Upgrade" description="Compare plans and upgrade your workspace." />;
}
