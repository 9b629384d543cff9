/**
 * The OpenAPI document (issue 23, point 4): what every operation documents, decided once in
 * http/openapi.ts, and Redocly's recommended rules (redocly.yaml) with no error and no warning.
 *
 * - Redocly lints the document the service serves (the one `npm run gen:api` writes to openapi.json;
 *   CI's drift check keeps the two equal) and the committed openapi.json.
 * - Every operation of /api/2.0 documents the failures it can answer in the house error shape: 401
 *   unless public, 403 where a role or a read-only token is refused, 404 with a path parameter,
 *   413/415 with a body, 422 with input, 429 always; the document names its servers, licence and
 *   both ways to authenticate (bearer token, session cookie).
 * - Paths are documented without a trailing slash (Redocly's no-path-trailing-slash), and the
 *   interface's spelling with one still answers alike: a spec client's URLs keep working.
 *
 * - Issue 33: the calls to event endpoints are OpenAPI 3.1 `webhooks`, one per event type keyed by
 *   the type, each body the type's zod schema (src/shared/contract/events.ts) as a component, with the
 *   Standard Webhooks headers.
 *
 * Seen red: with `documentedPath` returning the URL as it is (12 no-path-trailing-slash errors, and
 * the documented-path check), with `servers` removed (no-empty-servers), with the unused-schema
 * pruning removed (the `*Input` warnings), with `errorStatusesOf` answering [] (the error answers
 * check), and with `ignoreTrailingSlash: false` in app.ts (the spelling with a slash answered 404).
 * With the webhooks left out of `transformObject` the webhooks check failed; with the pruning not
 * visiting them, their `$ref`s were unresolved (no-unresolved-refs) and the check failed.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { EVENT_SCHEMAS, EVENT_TYPES, TEST_EVENT_TYPE } from '../../shared/contract';
import { routesOfDocument, type ApiRoute, type OpenApiDocument } from '../testing/api-routes';
import { createTestApp, type TestApp } from '../testing/test-app';

const API = '/api/2.0';
const t: TestApp = await createTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
afterAll(() => t.close());
const document = (await t.request('GET', `${API}/openapi.json`)).json();
const ROUTES: ApiRoute[] = routesOfDocument(document as OpenApiDocument, `${API}/`);
const admin = await t.user({ team: 'Slashes' });

type Operation = { security?: unknown[]; parameters?: Array<{ in: string; name: string }>; requestBody?: unknown; responses: Record<string, Answer> };
type Answer = { description: string; content?: Record<string, { schema?: { $ref?: string } }>; headers?: Record<string, unknown> };
const operationOf = (route: ApiRoute): Operation => document.paths[route.path][route.method.toLowerCase()];

describe('Redocly, recommended rules', () => {
  it('finds no error and no warning in the served document nor in openapi.json', { timeout: 120_000 }, async () => {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-openapi-'));
    try {
      const served = path.join(folder, 'served.json');
      await fs.writeFile(served, JSON.stringify(document));
      const cli = path.resolve('node_modules/@redocly/cli/bin/cli.js');
      for (const file of [served, 'openapi.json']) {
        const { stdout } = await promisify(execFile)(process.execPath, [cli, 'lint', file, '--config=redocly.yaml', '--format=json'], {
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
          maxBuffer: 64 * 1024 * 1024,
        }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
        const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: Array<{ ruleId: string; message: string }> };
        expect(report.problems.map((problem) => `${file} ${problem.ruleId}: ${problem.message}`)).toEqual([]);
        expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
      }
    } finally {
      await fs.rm(folder, { recursive: true, force: true });
    }
  });
});

describe('the document', () => {
  it('names its servers, its licence and both ways to authenticate', () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(document.info.license).toEqual(expect.objectContaining({ name: expect.any(String) }));
    expect(document.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      sessionCookie: expect.objectContaining({ type: 'apiKey', in: 'cookie', name: 'herald_session' }),
    });
    expect(document.security).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }]);
  });

  it('documents every failure each operation can answer, in the house error shape', () => {
    expect(ROUTES.length).toBeGreaterThan(100);
    const missing: string[] = [];
    for (const route of ROUTES) {
      const operation = operationOf(route);
      const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
      const expected = [429];
      if (!isPublic) expected.push(401);
      if (!isPublic && route.method !== 'GET') expected.push(403);
      if (route.pathParams.length > 0) expected.push(404);
      if (route.hasBody) expected.push(413, 415, 422);
      // Input that is validated (If-None-Match is not: a tag that does not match is a whole answer).
      const validated = (operation.parameters ?? []).filter(
        (parameter) => parameter.in === 'query' || (parameter.in === 'header' && parameter.name !== 'if-none-match'),
      );
      if (validated.length > 0) expected.push(422);
      for (const status of expected) {
        const answer = operation.responses[status];
        if (answer?.content?.['application/json']?.schema?.$ref !== '#/components/schemas/Error' || answer.description === 'Default Response')
          missing.push(`${route.key} ${status}`);
      }
      if (!operation.responses[429]?.headers?.['Retry-After']) missing.push(`${route.key} 429 Retry-After`);
    }
    expect(missing).toEqual([]);
  });

  it('writes no path with a trailing slash', () => {
    expect(Object.keys(document.paths).filter((documented) => documented.endsWith('/'))).toEqual([]);
    expect(Object.keys(document.paths)).toContain(`${API}/campaigns`);
  });
});

describe('the event webhooks', () => {
  type Webhook = {
    post: Operation & { operationId: string; summary: string; requestBody: { content: Record<string, { schema: { $ref: string } }> } };
  };
  type Component = { properties: Record<string, unknown>; required: string[]; additionalProperties: unknown };

  it('publishes one webhook per event type, its body that type’s schema, signed with the Standard Webhooks headers', () => {
    expect(document.openapi).toBe('3.1.0');
    const webhooks = document.webhooks as Record<string, Webhook>;
    expect(Object.keys(webhooks).sort()).toEqual([...EVENT_TYPES, TEST_EVENT_TYPE].sort());
    for (const [type, { post }] of Object.entries(webhooks)) {
      const ref = post.requestBody.content['application/json']!.schema.$ref;
      expect(ref).toBe(`#/components/schemas/${EVENT_SCHEMAS[type as keyof typeof EVENT_SCHEMAS].meta()!.id}`);
      const body = document.components.schemas[ref.split('/').pop()!] as Component;
      expect(body.properties.type).toEqual({ type: 'string', const: type });
      expect(body.required).toEqual(['type', 'timestamp', 'data']);
      expect(body.additionalProperties).toBe(false);
      expect(post.summary).toEqual(expect.any(String));
      expect(post.security).toEqual([]);
      expect(post.parameters).toEqual(
        ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => expect.objectContaining({ in: 'header', name, required: true })),
      );
      expect(Object.keys(post.responses)).toContain('2XX');
    }
  });
});

describe('a path with and without its trailing slash', () => {
  // Reads, and bodies that do not validate: nothing changes, and both spellings must answer alike.
  const safe = ROUTES.filter((route) => route.method === 'GET' || (route.method === 'POST' && route.hasBody));

  it.each(safe.map((route) => [route.key, route] as const))('%s answers alike', async (_key, route) => {
    const url = route.path.replace(/\{[^}]+\}/g, () => randomUUID());
    const body = route.hasBody ? {} : undefined;
    const plain = await t.request(route.method, url, { token: admin.token, body });
    const slashed = await t.request(route.method, `${url}/`, { token: admin.token, body });
    expect(plain.statusCode).not.toBe(405);
    expect(slashed.statusCode, slashed.body).toBe(plain.statusCode);
    if (plain.statusCode >= 400) expect(slashed.json().error.message).toBe(plain.json().error.message);
  });
});
