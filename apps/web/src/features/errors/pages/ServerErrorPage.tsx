import { MESSAGES } from '@parley/contracts';
import { ErrorScreen } from '../components/ErrorScreen';

/** /500 */
export function ServerErrorPage() {
  return <ErrorScreen code="500" title="Internal server error" text={MESSAGES.generic.internal} />;
}
