import { client } from './gen/client.gen';
import { currentOrigin, endSession, getSession, sessionHeaders, subscribeToSession } from '../lib/session';
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
 * authenticates each request (a token session's bearer token; a password session's cookie goes by
 * itself, with its CSRF secret on changes); turns every failure into an ApiError.
 */
export function configureApiClient(): () => void {
  pointAtSessionService();
  const unsubscribe = subscribeToSession(pointAtSessionService);

  const requestInterceptor = client.interceptors.request.use((request) => {
    if (!request.headers.has('Authorization')) {
      for (const [name, value] of Object.entries(sessionHeaders(getSession(), request.method))) request.headers.set(name, value);
    }
    request.headers.set('Accept', 'application/json');
    return request;
  });

  const errorInterceptor = client.interceptors.error.use((body, response, request) => {
    const error = toApiError(body, response);
    // A 401 on the session's own credentials (its token, or its cookie) means it was revoked or expired: the session is over.
    const session = getSession();
    const own = session?.token ? request.headers.get('Authorization') === `Bearer ${session.token}` : !request.headers.has('Authorization');
    if (error.status === 401 && session && own) {
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
