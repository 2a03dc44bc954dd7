import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorScreen } from '../components/ErrorScreen';

/** Anything a route throws (a chunk that failed to load after a deploy, a render error) lands here. */
export function RouteErrorPage() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <ErrorScreen code="404" title="Page Not Found" text="We couldn't find the page you are looking for." />
    );
  }
  return (
    <ErrorScreen
      code="500"
      title="Something went wrong"
      text="This page failed to load. Reloading usually fixes it; if not, please try again later."
    />
  );
}
