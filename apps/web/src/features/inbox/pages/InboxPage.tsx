import { ComingSoon } from '../../../shared/components/ComingSoon';

/** A guarded page; its screen arrives with a later issue. */
export function InboxPage() {
  return (
    <ComingSoon
      title="Support Inbox"
      description="Conversations that need a human will appear here. No conversations yet."
    />
  );
}
