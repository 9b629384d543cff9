import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './client';

// What counts as "the database is away" (answered 503 with Retry-After) rather than a fault of the
// statement (500): the errors node-postgres gives when the server is down, restarting or refusing, as
// Drizzle wraps them. The outage itself is exercised for real in http/observability.test.ts
// (a refused connection) and observability/processes.test.ts (PostgreSQL stopped and started again).
const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: select 1'), { cause });

describe('isDatabaseUnavailable', () => {
  it('recognises a refused, cut or timed-out connection and a server shutting down, also when wrapped', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isDatabaseUnavailable(wrapped(new Error('Connection terminated unexpectedly')))).toBe(true);
    expect(isDatabaseUnavailable(wrapped(new Error('timeout exceeded when trying to connect')))).toBe(true);
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })))).toBe(true);
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error('the database system is starting up'), { code: '57P03' })))).toBe(true);
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error('connection failure'), { code: '08006' })))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' })]))).toBe(true);
  });

  it('leaves every other database error a fault (500): a bad statement, a constraint, a timeout of the statement itself', () => {
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error('syntax error at or near "selec"'), { code: '42601' })))).toBe(false);
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error('duplicate key value'), { code: '23505' })))).toBe(false);
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' })))).toBe(false);
    expect(isDatabaseUnavailable(new Error('Server Error'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
