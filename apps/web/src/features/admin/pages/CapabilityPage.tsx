import { ComingSoon } from '../../../shared/components/ComingSoon';

/** A guarded page; its screen arrives with a later issue. */
export function CapabilityPage() {
  return (
    <ComingSoon
      title="Capability Demos"
      description="Demonstrations of what Parley bots can do, for administrators."
    />
  );
}
