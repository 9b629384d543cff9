import { describe, expect, it } from 'vitest';
import { listSenders, showCurrentUser } from './gen/sdk.gen';
import { ApiError, describeError } from './api-error';
import { getSession } from '../lib/session';
import { createTemplate } from './gen/sdk.gen';
import { apiError, json, mockApi, page, signIn, TEST_CSRF } from '../testing/mock-api';
import { startSession } from '../lib/session';

describe('the API client', () => {
  it('leaves a password session to its cookie, echoing the CSRF secret on changes only', async () => {
    signIn();
    const fetchMock = mockApi(() => json(page([])));

    await listSenders({ query: { page: 2, per_page: 25 }, throwOnError: true });
    const [read] = fetchMock.mock.calls[0] ?? [];
    expect(read?.url).toBe(`${window.location.origin}/api/2.0/senders?page=2&per_page=25`);
    expect(read?.headers.get('Authorization')).toBeNull();
    expect(read?.headers.get('X-CSRF-Token')).toBeNull();

    await createTemplate({ body: { name: 'T', body: 'Hi', sender: 'Acme' } }).catch(() => undefined);
    const [change] = fetchMock.mock.calls[1] ?? [];
    expect(change?.headers.get('Authorization')).toBeNull();
    expect(change?.headers.get('X-CSRF-Token')).toBe(TEST_CSRF);
    // No token is kept where a script could read it later.
    expect(window.localStorage.getItem('herald.session')).toBe(JSON.stringify({ baseUrl: window.location.origin, kind: 'password' }));
  });

  it('sends a token session’s bearer token, kept in memory only', async () => {
    startSession({ baseUrl: window.location.origin, token: 'hrld_pasted', kind: 'token' });
    const fetchMock = mockApi(() => json(page([])));
    await listSenders({ throwOnError: true });
    expect(fetchMock.mock.calls[0]?.[0]?.headers.get('Authorization')).toBe('Bearer hrld_pasted');
    expect(window.localStorage.getItem('herald.session')).toBeNull();
  });

  it('drops a token an older dashboard stored', () => {
    window.localStorage.setItem('herald.session', JSON.stringify({ baseUrl: window.location.origin, token: 'hrld_old', kind: 'password' }));
    expect(getSession()).toBeNull();
    expect(window.localStorage.getItem('herald.session')).toBeNull();
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

  it('keeps the request id of a failure, and shows it with a fault of the service', async () => {
    signIn();
    mockApi(() => new Response(JSON.stringify({ error: { code: 500, http_code: 500, message: 'Server Error', request_id: 'req-7f3a' } }), { status: 500 }));
    const failure = listSenders({ throwOnError: true });
    await expect(failure).rejects.toMatchObject({ status: 500, requestId: 'req-7f3a' });
    expect(describeError(await failure.catch((error: unknown) => error))).toBe('Server Error (reference req-7f3a)');
    // A refusal is the person's to mend: no reference.
    mockApi(() => apiError(409, 'It changed.'));
    expect(describeError(await listSenders({ throwOnError: true }).catch((error: unknown) => error))).toBe('It changed.');
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
