import { ComingSoon } from '../../../shared/components/ComingSoon';

/** A guarded page; its screen arrives with a later issue. */
export function AnalyticsPage() {
  return (
    <ComingSoon
      title="Analytics"
      description="Conversation volume, answer quality and lead capture for your bots will be charted here."
    />
  );
}
