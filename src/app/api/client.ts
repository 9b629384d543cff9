import { client } from './gen/client.gen';
import { currentOrigin, endSession, getSession, subscribeToSession } from '../lib/session';
import { toApiError } from './api-error';

export { ApiError, describeError, isApiError, type FieldErrors } from './api-error';

/**
 * The generated client's base URL for a service's base URL. The generated operation URLs already
 * start with `/api/2.0` (openapi.json documents the full paths), so the service base URL is used as is.
 */
export function apiBaseUrl(serviceBaseUrl: string): string {
  return serviceBaseUrl;
}

function pointAtSessionService() {
  client.setConfig({ baseUrl: apiBaseUrl(getSession()?.baseUrl ?? currentOrigin()), throwOnError: true });
}

/**
 * Points the generated client at the signed-in service and follows the session as it changes;
 * adds the bearer token per request; turns every failure into an ApiError.
 */
export function configureApiClient(): () => void {
  pointAtSessionService();
  const unsubscribe = subscribeToSession(pointAtSessionService);

  const requestInterceptor = client.interceptors.request.use((request) => {
    const session = getSession();
    if (session && !request.headers.has('Authorization')) {
      request.headers.set('Authorization', `Bearer ${session.token}`);
    }
    request.headers.set('Accept', 'application/json');
    return request;
  });

  const errorInterceptor = client.interceptors.error.use((body, response, request) => {
    const error = toApiError(body, response);
    // A 401 on the session's own token means it was revoked or expired: the session is over.
    const session = getSession();
    if (error.status === 401 && session && request.headers.get('Authorization') === `Bearer ${session.token}`) {
      endSession();
    }
    return error;
  });

  return () => {
    unsubscribe();
    client.interceptors.request.eject(requestInterceptor);
    client.interceptors.error.eject(errorInterceptor);
  };
}
