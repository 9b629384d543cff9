import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
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
    expect(response.json()).toEqual({ error: { code: 500, http_code: 500, message: 'Server Error' } });
    expect(response.body).not.toMatch(/ECONNREFUSED|hunter2|at /);
    await app.close();
  });
});
