import { ComingSoon } from '../../../shared/components/ComingSoon';

/** A guarded page; its screen arrives with a later issue. */
export function BotsPage() {
  return (
    <ComingSoon
      title="Manage Bots"
      description="Create bots, train them on your files, websites and Q&A, and connect them to your channels. Bot management arrives in the next release."
    />
  );
}
