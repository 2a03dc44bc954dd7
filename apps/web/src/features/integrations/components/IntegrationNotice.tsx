import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import { INTEGRATION_TEXTS, type IntegrationStatus } from '@parley/contracts';
import { Link as RouterLink } from 'react-router';

/** Connecting can work: this install is set up for it and the workspace's plan includes it. */
export const canConnect = (status: IntegrationStatus | undefined): boolean =>
  status === undefined || (status.enabled && status.in_plan);

/**
 * The lasting notice of a card that cannot connect: the install is not set up for it (with a link
 * to the operator's guide), or the plan does not include it (naming the plan that does).
 */
export function IntegrationNotice({ status }: { status: IntegrationStatus | undefined }) {
  if (!status) return null;
  if (!status.enabled) {
    const text = INTEGRATION_TEXTS.notEnabled(status.name, status.doc.title);
    const [before] = text.split(status.doc.title);
    return (
      <Alert severity="info" sx={{ mb: 2 }} aria-label={`${status.name} is not enabled`}>
        {before}
        <Link component={RouterLink} to={`/help/${status.doc.slug}`}>
          {status.doc.title}
        </Link>
        .
      </Alert>
    );
  }
  if (!status.in_plan) {
    return (
      <Alert
        severity="warning"
        sx={{ mb: 2 }}
        action={
          <Link
            component={RouterLink}
            to="/upgrade"
            sx={{ whiteSpace: 'nowrap', alignSelf: 'center', mr: 1 }}
          >
            See plans
          </Link>
        }
      >
        {INTEGRATION_TEXTS.notInPlan(status.name, status.plan_with)}
      </Alert>
    );
  }
  return null;
}
