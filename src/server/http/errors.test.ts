import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ConflictError, ForbiddenError, LockedError, NotFoundError, UnauthenticatedError, ValidationError } from '../lib/errors';
import { registerErrorHandling } from './errors';

describe('server errors', () => {
  it('hide what went wrong inside: 500 with a plain message, no stack or internals', async () => {
    const app = Fastify({ logger: false });
    registerErrorHandling(app);
    app.get('/boom', async () => {
      throw new Error('connect ECONNREFUSED 10.0.0.5:5432 password=hunter2');
    });
    const response = await app.inject({ method: 'GET', url: '/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: { code: 500, http_code: 500, message: 'Server Error', request_id: expect.any(String) } });
    expect(response.body).not.toMatch(/ECONNREFUSED|hunter2|at /);
    await app.close();
  });
});

describe('domain errors', () => {
  it.each([
    [new NotFoundError(), 404],
    [new ConflictError('The campaign is not throttled.'), 409],
    [new LockedError('The campaign is locked.'), 423],
    [new UnauthenticatedError(), 401],
    [new ForbiddenError(), 403],
  ])('map %s to its status in the house shape', async (error, status) => {
    const app = Fastify({ logger: false });
    registerErrorHandling(app);
    app.get('/fail', async () => {
      throw error;
    });
    const response = await app.inject({ method: 'GET', url: '/fail' });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ error: { code: status, http_code: status, message: error.message, request_id: expect.any(String) } });
    await app.close();
  });

  it('carry field errors only on 422', async () => {
    const app = Fastify({ logger: false });
    registerErrorHandling(app);
    app.get('/invalid', async () => {
      throw ValidationError.field('template_uuid', 'The selected template uuid is invalid.');
    });
    const response = await app.inject({ method: 'GET', url: '/invalid' });
    expect(response.statusCode).toBe(422);
    expect(response.json().error.errors).toEqual({ template_uuid: ['The selected template uuid is invalid.'] });
    await app.close();
  });
});
