import { describe, expect, it } from 'vitest';
import { listSenders, showCurrentUser } from './gen/sdk.gen';
import { ApiError } from './api-error';
import { getSession } from '../lib/session';
import { apiError, json, mockApi, page, signIn, TEST_TOKEN } from '../testing/mock-api';

describe('the API client', () => {
  it('sends the session’s bearer token to the session’s service', async () => {
    signIn();
    const fetchMock = mockApi(() => json(page([])));

    await listSenders({ query: { page: 2, per_page: 25 }, throwOnError: true });

    const [request] = fetchMock.mock.calls[0] ?? [];
    expect(request?.url).toBe(`${window.location.origin}/api/2.0/senders/?page=2&per_page=25`);
    expect(request?.headers.get('Authorization')).toBe(`Bearer ${TEST_TOKEN}`);
  });

  it('turns the house error body into an ApiError with status, message and field errors', async () => {
    signIn();
    mockApi(() => apiError(422, 'The given data was invalid.', { per_page: ['The per page may not be greater than 100.'] }));

    const failure = listSenders({ query: { per_page: 500 }, throwOnError: true });

    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({
      status: 422,
      message: 'The given data was invalid.',
      fieldErrors: { per_page: ['The per page may not be greater than 100.'] },
    });
  });

  it('ends the session when the service refuses its token', async () => {
    signIn();
    mockApi(() => apiError(401, 'Unauthenticated.'));

    await expect(showCurrentUser({ throwOnError: true })).rejects.toMatchObject({ status: 401 });
    expect(getSession()).toBeNull();
  });

  it('keeps the session when a different token is refused (a token being tried at sign-in)', async () => {
    signIn();
    mockApi(() => apiError(401, 'Unauthenticated.'));

    await expect(showCurrentUser({ headers: { Authorization: 'Bearer hrld_other' }, throwOnError: true })).rejects.toMatchObject({ status: 401 });
    expect(getSession()).not.toBeNull();
  });

  it('reports an unreachable service as status 0 with a readable sentence', async () => {
    signIn();
    mockApi(() => {
      throw new TypeError('fetch failed');
    });

    await expect(listSenders({ throwOnError: true })).rejects.toMatchObject({
      status: 0,
      message: 'The service could not be reached. Check your connection and try again.',
    });
  });
});
