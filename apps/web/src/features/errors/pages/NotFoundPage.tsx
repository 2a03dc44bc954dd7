import { ErrorScreen } from '../components/ErrorScreen';

/** /404 */
export function NotFoundPage() {
  return (
    <ErrorScreen code="404" title="Page Not Found" text="We couldn't find the page you are looking for." />
  );
}
