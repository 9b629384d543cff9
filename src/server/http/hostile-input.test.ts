// Issue 8, point 2: hostile input. Every operation of the served OpenAPI document that takes a
// request body, a query or a path parameter is fed garbage; the service must answer in the house
// error shape (docs/api-conventions.md), never with a 5xx, and a refused request changes nothing.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../testing/test-app';

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  additionalProperties?: JsonSchema | boolean;
};
type Parameter = { name: string; in: 'path' | 'query' | 'header' };
type OpenApiOperation = { operationId: string; parameters?: Parameter[]; requestBody?: { content: Record<string, { schema?: JsonSchema }> } };
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Operation = {
  id: string;
  method: Method;
  path: string;
  pathParams: string[];
  query: string[];
  /** The JSON body schema, when the operation takes a JSON body. */
  body?: JsonSchema;
  /** Content types the operation documents for its body. */
  consumes: string[];
};

// Generous limits so that only validation answers: the per-token buckets of send-test, report
// requests, imports and webhook tests (10 a minute) are spread over a pool of tokens.
const t: TestApp = await createTestApp({ RATE_LIMIT_PER_MINUTE: '1000000', LOGIN_RATE_LIMIT_PER_MINUTE: '1000000' });
const openapi = (await t.request('GET', '/api/2.0/openapi.json')).json() as { paths: Record<string, Record<string, OpenApiOperation>> };

const operations: Operation[] = Object.entries(openapi.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => {
    const parameters = operation.parameters ?? [];
    const content = operation.requestBody?.content ?? {};
    return {
      id: operation.operationId,
      method: method.toUpperCase() as Method,
      path,
      pathParams: parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name),
      query: parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name),
      body: content['application/json']?.schema,
      consumes: Object.keys(content),
    };
  }),
);
const jsonBodyOperations = operations.filter((operation) => operation.body !== undefined);
const otherBodyOperations = operations.filter((operation) => operation.body === undefined && operation.consumes.length > 0);
/** Every POST and PUT: the framework reads a JSON body for all of them, documented or not. */
const writeOperations = operations.filter((operation) => operation.method === 'POST' || operation.method === 'PUT');
const listOperations = operations.filter((operation) => operation.query.includes('page') && operation.query.includes('per_page'));
const queryOperations = operations.filter((operation) => operation.query.some((name) => name !== 'page' && name !== 'per_page'));
const pathOperations = operations.filter((operation) => operation.pathParams.length > 0);

/** Whether `url`, once its dot segments are resolved as every client does, is the path of another operation of this method. */
function landsOnAnotherRoute(url: string, method: string): boolean {
  const resolved = new URL(url, 'http://herald.test').pathname;
  if (resolved === url.split('?')[0]) return false;
  return operations.some((other) => other.method === method && new RegExp(`^${other.path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`).test(resolved));
}

let user: TestUser;
const tokens: string[] = [];
let nextToken = 0;
/** Round robin over the pool, so no per-token bucket fills up. */
const poolToken = () => tokens[nextToken++ % tokens.length]!;
/** Logout revokes the token it is sent with: it gets one of its own, which a refused request leaves valid. */
let logoutToken = '';
const tokenFor = (operation: Operation) => (operation.id === 'logout' ? logoutToken : poolToken());
const fixtures: Record<string, string> = {};
/** Bodies an operation needs besides the hostile part (a list endpoint that is a POST). */
const companionBodies: Record<string, () => unknown> = {
  uniqueContacts: () => ({ included_contact_group_uuids: [fixtures.contact_group_uuid] }),
};

/** Percent-encoding that also carries lone surrogates (as the invalid UTF-8 bytes a hostile client would send). */
function encode(text: string): string {
  let encoded = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      encoded += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
    } else encoded += encodeURIComponent(char);
  }
  return encoded;
}

/** Path parameters an operation needs to find its resource: the inbox's, a number the team holds (the contact the set-up adds). */
const operationPaths: Record<string, Record<string, string>> = Object.fromEntries(
  ['showConversation', 'updateConversation', 'replyToConversation'].map((id) => [id, { phone_number: '447700900123' }]),
);

function urlOf(operation: Operation, overrides: Record<string, string> = {}, query = ''): string {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_match, name: string) =>
    encode(overrides[name] ?? operationPaths[operation.id]?.[name] ?? fixtures[name] ?? randomUUID()),
  );
  return query ? `${path}?${query}` : path;
}

function send(operation: Operation, options: { url?: string; payload?: string | Buffer; contentType?: string | null } = {}): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${tokenFor(operation)}` };
  if (options.contentType !== null) headers['content-type'] = options.contentType ?? 'application/json';
  return t.app.inject({ method: operation.method, url: options.url ?? urlOf(operation), headers, payload: options.payload });
}

const sendJson = (operation: Operation, body: unknown, url?: string) => send(operation, { url, payload: JSON.stringify(body) });

/** What a refusal looks like: the house shape, `errors` (field name to sentences) only on 422. */
function expectErrorShape(response: LightMyRequestResponse, context: string): void {
  let body: { error?: { code?: unknown; http_code?: unknown; message?: unknown; errors?: unknown } };
  try {
    body = response.json();
  } catch {
    throw new Error(`${context}: ${response.statusCode} with a body that is not JSON: ${response.body.slice(0, 300)}`);
  }
  const status = response.statusCode;
  expect(body, context).toEqual({ error: expect.objectContaining({ code: status, http_code: status, message: expect.any(String) }) });
  const keys = Object.keys(body.error!).sort();
  if (status === 422) {
    expect(keys, context).toEqual(['code', 'errors', 'http_code', 'message', 'request_id']);
    const errors = body.error!.errors as Record<string, unknown>;
    expect(Object.keys(errors).length, context).toBeGreaterThan(0);
    for (const messages of Object.values(errors)) {
      expect(Array.isArray(messages) && messages.length > 0 && messages.every((message) => typeof message === 'string' && message.length > 0), context).toBe(
        true,
      );
    }
  } else {
    expect(keys, context).toEqual(['code', 'http_code', 'message', 'request_id']);
  }
  expect(response.body, context).not.toMatch(/\bat \S+ \(|node_modules|\.ts:\d+/);
}

/** Anything may pass, but nothing may break: below 500, and every refusal in the house shape. */
function expectHandled(response: LightMyRequestResponse, context: string): void {
  expect(response.statusCode, `${context}: ${response.body.slice(0, 300)}`).toBeLessThan(500);
  if (response.statusCode >= 400) expectErrorShape(response, context);
}

/** A refusal: 4xx in the house shape (optionally one of the given statuses). */
function expectRefused(response: LightMyRequestResponse, context: string, statuses?: number[]): void {
  const detail = `${context}: ${response.statusCode} ${response.body.slice(0, 300)}`;
  if (statuses) expect(statuses, detail).toContain(response.statusCode);
  expect(response.statusCode, detail).toBeGreaterThanOrEqual(400);
  expect(response.statusCode, detail).toBeLessThan(500);
  expectErrorShape(response, context);
}

// ---------------------------------------------------------------------------------------------
// Hostile values

/** UTF-16 code units, lone surrogates and U+0000 included (JSON.stringify escapes them: `\ud800`). */
const codeUnitString = (maxLength = 40) => fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength });
const unicodeEdges = fc.constantFrom(
  '\ud800',
  'a\udfffb',
  '\ud83d',
  'x\u0000y',
  '\u0000',
  '\u202eevil\u202c',
  '\u200f\u200e\u061c',
  '😀🇬🇧👩‍👩‍👧‍👦',
  'e\u0301\u0302\u0303\u0304\u0305\u0306',
  'Z\u0335\u0321\u031b\u0347\u0344a\u0337\u0322\u034bl\u0335g\u0338o',
  '\ufeff',
  '\ufffd',
  '\uffff\ufffe',
  '\u0085\u2028\u2029',
  '\u001b[31mred',
  "'; DROP TABLE senders; --",
  '{{name}} ::NAME::',
  '../../etc/passwd',
  '%s%n%x',
  '<script>alert(1)</script>',
  '\r\n\t',
  '   ',
  '',
  '1e309',
  'NaN',
  'null',
  '-0',
);
const hugeString = fc.oneof(
  fc.integer({ min: 100_000, max: 160_000 }).map((length) => 'A'.repeat(length)),
  fc.integer({ min: 25_000, max: 40_000 }).map((count) => '😀'.repeat(count)),
  fc.integer({ min: 20_000, max: 30_000 }).map((count) => '\ud800x'.repeat(count)),
);
const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: unicodeEdges, weight: 4 },
  { arbitrary: codeUnitString(), weight: 3 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }), weight: 2 },
  { arbitrary: fc.tuple(fc.string({ maxLength: 8 }), unicodeEdges, fc.string({ maxLength: 8 })).map((parts) => parts.join('')), weight: 2 },
  { arbitrary: hugeString, weight: 1 },
);

function typesOf(schema: JsonSchema): Set<string> {
  if (schema.anyOf) return new Set(schema.anyOf.flatMap((option) => [...typesOf(option)]));
  if (schema.type === undefined) return new Set(['any']);
  const types = new Set(Array.isArray(schema.type) ? schema.type : [schema.type]);
  if (types.has('integer')) types.add('number');
  return types;
}

const unknownKey = (schema: JsonSchema) =>
  fc
    .oneof(fc.string({ maxLength: 12 }), fc.constantFrom('uuid', 'team_id', 'status', 'is_locked', 'created_at', 'constructor', 'toString', '$where'))
    .filter((key) => !(key in (schema.properties ?? {})) && key !== '__proto__');
const extraFields = (schema: JsonSchema) => fc.dictionary(unknownKey(schema), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });

/** A value of a type the schema does not accept: numbers as strings, strings as numbers, null, arrays, nested objects. */
function wrongTypeArb(schema: JsonSchema): fc.Arbitrary<unknown> {
  const types = typesOf(schema);
  const candidates: Array<[string, fc.Arbitrary<unknown>]> = [
    ['number', fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(1e308))],
    ['string', fc.oneof(fc.constantFrom('1', '0', 'true', 'false', 'null', '[]', '{}'), hostileString)],
    ['boolean', fc.boolean()],
    ['null', fc.constant(null)],
    ['array', fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 })],
    ['object', fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })],
  ];
  const wrong = candidates.filter(([type]) => !types.has(type)).map(([, arbitrary]) => arbitrary);
  // An array of the right type whose items are of the wrong type (one item at least).
  if (types.has('array') && schema.items && !typesOf(schema.items).has('any')) wrong.push(fc.array(wrongTypeArb(schema.items), { minLength: 1, maxLength: 3 }));
  return fc.oneof(...wrong);
}

/** A body with the schema's keys, each value hostile but of the right type (strings are the attack surface). */
function hostileShapedArb(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const types = typesOf(schema);
  if (types.has('object') && schema.properties) {
    const keys = Object.keys(schema.properties);
    return fc
      .tuple(
        fc.record(Object.fromEntries(keys.map((key) => [key, hostileShapedArb(schema.properties![key]!, depth + 1)])), { requiredKeys: [] }),
        extraFields(schema),
      )
      .map(([known, extra]) => ({ ...extra, ...known }));
  }
  if (types.has('object')) return fc.dictionary(hostileString, hostileString, { maxKeys: 4 });
  if (types.has('array')) return fc.array(schema.items && depth < 4 ? hostileShapedArb(schema.items, depth + 1) : hostileString, { maxLength: 4 });
  if (types.has('string')) return types.has('null') ? fc.option(hostileString) : hostileString;
  if (types.has('boolean')) return fc.boolean();
  if (types.has('number')) return fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
  return fc.jsonValue({ maxDepth: 2 });
}

/** Certainly invalid: some known fields (at least one) of the wrong type, plus unknown ones. */
function wrongTypedBodyArb(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(schema.properties ?? {});
  return fc
    .tuple(fc.subarray(keys, { minLength: 1 }), extraFields(schema))
    .chain(([chosen, extra]) =>
      fc.record(Object.fromEntries(chosen.map((key) => [key, wrongTypeArb(schema.properties![key]!)]))).map((wrong) => ({ ...extra, ...wrong })),
    );
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
/** Valid bodies are objects carrying every required key; anything else is certainly refused. */
const certainlyInvalid = (schema: JsonSchema, value: unknown) => !isPlainObject(value) || (schema.required ?? []).some((key) => !(key in value));

const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const deepObject = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
const MALFORMED_JSON = [
  '{"a":}',
  '{"name": "x",}',
  '[1, 2,]',
  '{',
  '{"name":"x"',
  "{'name':'x'}",
  '{name: "x"}',
  '{"name":"x"} trailing',
  '{"a":1}{"b":2}',
  'undefined',
  'NaN',
  '-',
  '"unterminated',
  '{"name":"\\x41"}',
  '{"name":"\\ud800\\u"}',
  '\u0000',
  deep(5_000).slice(0, -1),
];
const bodyOf = (bytes: number) => Buffer.from(`{"padding":"${'x'.repeat(bytes)}"}`);
const TEN_MEGABYTES = bodyOf(10 * 1024 * 1024);
/** Over every route's limit: the contact batch routes take up to 16 MiB (10,000 contacts a request). */
const SEVENTEEN_MEGABYTES = bodyOf(17 * 1024 * 1024);
const BATCH_OPERATIONS = new Set(['addContacts', 'removeContacts', 'createContactGroupFromNumbers']);

// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
  user = await t.user();
  const { rows } = await t.database.pool.query<{ id: string | number }>('SELECT id FROM users WHERE uuid = $1', [user.userUuid]);
  tokens.push(user.token);
  for (let i = 0; i < 200; i++) tokens.push((await t.services.tokens.issue(Number(rows[0]!.id), 'personal', `pool ${i}`)).token);
  logoutToken = (await t.services.tokens.issue(Number(rows[0]!.id), 'personal', 'logout')).token;

  const create = async (url: string, body: unknown, key: string) => {
    const response = await t.request('POST', url, { token: user.token, body });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(201);
    return (fixtures[key] = response.json().data.uuid as string);
  };
  fixtures.team_uuid = user.teamUuid;
  await create('/api/2.0/senders/', { sender: 'Herald' }, 'sender_uuid');
  await create('/api/2.0/templates/', { name: 'Fixture', body: 'Hello {{first_name}} ::promo::', sender: 'Herald' }, 'template_uuid');
  await create('/api/2.0/vanity-domains/', { domain: 'go.example.com' }, 'vanity_domain_uuid');
  await create(
    '/api/2.0/links/',
    { vanity_domain_uuid: fixtures.vanity_domain_uuid, template_uuid: fixtures.template_uuid, name: 'promo', destination: 'https://example.com/p' },
    'link_uuid',
  );
  await create('/api/2.0/webhooks/', { name: 'Fixture', url: 'https://hooks.example.com/in' }, 'webhook_uuid');
  await create('/api/2.0/event-endpoints/', { url: 'https://hooks.example.com/events', events: ['report.ready'] }, 'endpoint_uuid');
  // The simulator: a test send that gets through validation calls no one (it is for HTTP providers, 422).
  await create('/api/2.0/sms-connections/', { name: 'Fixture', provider: 'simulator' }, 'connection_uuid');
  await create('/api/2.0/contact-groups/', { name: 'Fixture', headers: ['first_name'] }, 'contact_group_uuid');
  const added = await t.request('PUT', `/api/2.0/contact-groups/${fixtures.contact_group_uuid}/add-contacts`, {
    token: user.token,
    body: { contacts: [{ phone_number: '447700900123', custom_fields: { first_name: 'Ada' } }] },
  });
  expect(added.statusCode, added.body).toBe(200);
  await create('/api/2.0/keywords/', { keyword: 'HOSTILE', message: 'Hi' }, 'keyword_uuid');
  await create('/api/2.0/flows/', { name: 'Fixture', trigger: { type: 'api' }, steps: [] }, 'flow_uuid');
  await create(
    '/api/2.0/segments/',
    { name: 'Fixture', match: 'all', conditions: [{ type: 'field', field: 'first_name', op: 'is_not_empty' }] },
    'segment_uuid',
  );
  await create(
    '/api/2.0/campaigns/',
    {
      name: 'Fixture',
      sender: 'Herald',
      scheduled_send_date: '2099-01-01 10:00:00',
      expiry_date: '2099-01-02 10:00:00',
      template_uuid: fixtures.template_uuid,
      included_contact_groups: [fixtures.contact_group_uuid],
    },
    'campaign_uuid',
  );
  const imported = await t.app.inject({
    method: 'POST',
    url: `/api/2.0/contact-groups/${fixtures.contact_group_uuid}/imports?file_name=fixture.csv`,
    headers: { authorization: `Bearer ${user.token}`, 'content-type': 'text/csv' },
    payload: 'phone_number,first_name\n447700900124,Grace\n',
  });
  expect(imported.statusCode, imported.body).toBe(201);
  fixtures.import_uuid = imported.json().data.uuid;
  const listed = (await t.request('GET', '/api/2.0/tokens/', { token: user.token })).json();
  fixtures.token_uuid = listed.data.at(-1).uuid;
  // A report job of the team's, when one can be made for a campaign that has not sent yet.
  await t.request('POST', `/api/2.0/reporting/${fixtures.campaign_uuid}/delivery`, { token: user.token });
  const jobs = (await t.request('GET', '/api/2.0/report-jobs/', { token: user.token })).json();
  if (jobs.data?.[0]?.uuid) fixtures.job_uuid = jobs.data[0].uuid;
});
afterAll(() => t.close());

describe('the operations under test, from the served OpenAPI document', () => {
  it('cover every operation with a body, a query or a path parameter', () => {
    expect(jsonBodyOperations.length).toBeGreaterThanOrEqual(25);
    expect(listOperations.length).toBeGreaterThanOrEqual(15);
    expect(pathOperations.length).toBeGreaterThanOrEqual(40);
    for (const operation of operations) {
      const covered =
        jsonBodyOperations.includes(operation) ||
        otherBodyOperations.includes(operation) ||
        listOperations.includes(operation) ||
        queryOperations.includes(operation) ||
        pathOperations.includes(operation) ||
        writeOperations.includes(operation);
      // Signing the dashboard out takes no input at all: nothing hostile can be sent to it.
      if (!covered && operation.id !== 'deleteSession') expect(operation.method, `${operation.id} has no input`).toBe('GET');
    }
  });
});

describe.each(jsonBodyOperations)('JSON body of $id ($method $path)', (operation) => {
  const schema = operation.body!;
  const context = (body: unknown) => `${operation.id} ${JSON.stringify(body).slice(0, 200)}`;

  it('answers any JSON value without breaking, and refuses what cannot be valid', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (body) => {
        const response = await sendJson(operation, body);
        if (certainlyInvalid(schema, body)) expectRefused(response, context(body));
        else expectHandled(response, context(body));
      }),
      { numRuns: 30 },
    );
  });

  it('refuses the right keys with values of the wrong type with 422', async () => {
    await fc.assert(
      fc.asyncProperty(wrongTypedBodyArb(schema), async (body) => {
        // A `__proto__` or `constructor.prototype` key anywhere is refused by the JSON parser itself (400).
        const poisoned = /"(__proto__|constructor)"/.test(JSON.stringify(body));
        expectRefused(await sendJson(operation, body), context(body), poisoned ? [400, 413, 422] : [413, 422]);
      }),
      { numRuns: 30 },
    );
  });

  it('survives hostile strings (huge, lone surrogates, U+0000, RTL, emoji, combining marks) and unknown fields', async () => {
    await fc.assert(
      fc.asyncProperty(hostileShapedArb(schema), async (body) => {
        const response = await sendJson(operation, body);
        expectHandled(response, context(body));
        if (certainlyInvalid(schema, body)) expectRefused(response, context(body));
      }),
      { numRuns: 30 },
    );
  });

  it('answers U+0000 in each string field in the house shape', async () => {
    for (const [key, property] of Object.entries(schema.properties ?? {})) {
      if (!typesOf(property).has('string')) continue;
      const body = { [key]: 'Her\u0000ald' };
      expectHandled(await sendJson(operation, body), context(body));
    }
  });

  it('refuses deep nesting (5,000 levels and more) and prototype keys', async () => {
    const firstKey = Object.keys(schema.properties ?? {})[0] ?? 'name';
    for (const payload of [
      deep(5_000),
      deep(100_000),
      `{"${firstKey}":${deep(5_000)}}`,
      `{"${firstKey}":${deepObject(5_000)}}`,
      '{"__proto__":{"is_admin":true}}',
      `{"${firstKey}":"x","constructor":{"prototype":{"is_admin":true}}}`,
    ]) {
      expectRefused(await send(operation, { payload }), `${operation.id} ${payload.slice(0, 60)}…`);
    }
    // Deep nesting under an unknown field is ignored like any unknown field: only required fields make it invalid.
    const unknownDeep = await send(operation, { payload: deepObject(5_000) });
    if ((schema.required ?? []).length > 0) expectRefused(unknownDeep, `${operation.id} deep unknown field`);
    else expectHandled(unknownDeep, `${operation.id} deep unknown field`);
  });
});

describe.each(writeOperations)('raw body of $id ($method $path)', (operation) => {
  it('refuses malformed JSON with 400', async () => {
    for (const payload of MALFORMED_JSON) {
      const response = await send(operation, { payload });
      expectRefused(response, `${operation.id} ${JSON.stringify(payload.slice(0, 60))}`, [400]);
      expect(response.json().error.message).toMatch(/not valid JSON|malformed/);
    }
  });

  it('refuses a 10 MB body with 413 (422 on the batch routes, whose limit is 16 MiB) and a 17 MB one with 413', async () => {
    const ten = await send(operation, { payload: TEN_MEGABYTES });
    expectRefused(ten, `${operation.id} 10 MB`, BATCH_OPERATIONS.has(operation.id) ? [422] : [413]);
    const seventeen = await send(operation, { payload: SEVENTEEN_MEGABYTES });
    expectRefused(seventeen, `${operation.id} 17 MB`, [413]);
    expect(seventeen.json().error.message).toBe('The request body is too large.');
  });

  // Only operations that take a body get these two (a bodiless POST such as logout treats an empty body as none).
  if (operation.body !== undefined) {
    it('refuses an empty body sent as JSON', async () => {
      for (const payload of ['', ' ', '\r\n', '\ufeff'])
        expectRefused(await send(operation, { payload }), `${operation.id} empty ${JSON.stringify(payload)}`, [400, 422]);
    });

    it('refuses a body of another content type', async () => {
      const cases: Array<[string | null, string]> = [
        ['text/plain', '{"name":"x"}'],
        ['application/x-www-form-urlencoded', 'name=x&sender=Herald'],
        ['multipart/form-data; boundary=xyz', '--xyz\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--xyz--\r\n'],
        ['application/xml', '<name>x</name>'],
        ['text/csv', 'phone_number\n447700900123\n'],
        ['application/jsonx', '{}'],
        [null, '{"name":"x"}'],
      ];
      for (const [contentType, payload] of cases) {
        // 415, or 400/422 where a parser of the framework read it (text/plain arrives as a string, not an object).
        expectRefused(await send(operation, { payload, contentType }), `${operation.id} as ${contentType}`, [400, 415, 422]);
      }
    });
  }
});

describe.each(otherBodyOperations)('file body of $id ($method $path)', (operation) => {
  it('refuses a body of another content type', async () => {
    for (const [contentType, payload] of [
      ['application/json', '{"phone_number":"447700900123"}'],
      ['text/plain', 'phone_number\n447700900123\n'],
      ['application/octet-stream', 'phone_number\n447700900123\n'],
    ] as const) {
      expectRefused(
        await send(operation, { payload, contentType, url: urlOf(operation, {}, 'file_name=x.csv') }),
        `${operation.id} as ${contentType}`,
        [400, 415, 422],
      );
    }
  });

  it('survives hostile files', async () => {
    const csv = fc.oneof(
      codeUnitString(400),
      fc.array(fc.array(hostileString, { maxLength: 4 }), { maxLength: 5 }).map((rows) => `phone_number,name\n${rows.map((row) => row.join(',')).join('\n')}`),
      fc.constantFrom(
        'phone_number\n"unterminated\n',
        'phone_number,phone_number\n1,2\n',
        '\u0000\u0000\u0000',
        'a'.repeat(200_000),
        `phone_number${',x'.repeat(5000)}\n`,
      ),
    );
    await fc.assert(
      fc.asyncProperty(csv, async (payload) => {
        const response = await send(operation, { payload, contentType: 'text/csv', url: urlOf(operation, {}, 'file_name=hostile.csv') });
        expectHandled(response, `${operation.id} ${JSON.stringify(payload.slice(0, 120))}`);
      }),
      { numRuns: 15 },
    );
  });
});

const CLEARLY_INVALID_PAGES = ['0', '-1', '-99999999999', '1.5', 'abc', 'NaN', 'Infinity', '-Infinity', '1;DROP TABLE senders', '%00', 'true', '[]'];
const CLEARLY_INVALID_PER_PAGE = [...CLEARLY_INVALID_PAGES, '101', '1000000', '99999999999999999999'];
/** May be read as a number or refused, never more. */
const ODD_PAGES = ['', ' 1', '1 ', '0x10', '1e2', '01', '+1', '１', '99999999999999999999', '9007199254740993', '2147483648'];
const hostileQueryValue = fc.oneof(
  fc.constantFrom(...CLEARLY_INVALID_PER_PAGE, ...ODD_PAGES),
  fc.integer().map(String),
  fc.double().map(String),
  codeUnitString(20),
);

describe.each(listOperations)('pagination of $id ($method $path)', (operation) => {
  const list = (query: string) => {
    // A list under a number (a contact's flow runs) lists the fixture group's number: any other is a 404.
    const url = urlOf(operation, { phone_number: '447700900123' }, query);
    return operation.method === 'GET' ? send(operation, { url }) : sendJson(operation, companionBodies[operation.id]?.() ?? {}, url);
  };

  it('refuses clearly invalid page and per_page with 422', async () => {
    for (const value of CLEARLY_INVALID_PAGES) expectRefused(await list(`page=${encode(value)}`), `${operation.id} page=${value}`, [422]);
    for (const value of CLEARLY_INVALID_PER_PAGE) expectRefused(await list(`per_page=${encode(value)}`), `${operation.id} per_page=${value}`, [422]);
  });

  it('answers odd, repeated and empty values with 200 or 422', async () => {
    const queries = [
      ...ODD_PAGES.flatMap((value) => [`page=${encode(value)}`, `per_page=${encode(value)}`]),
      'page=1&page=2',
      'per_page=10&per_page=20',
      'page[]=1',
      'page[a]=1',
      'page',
      'per_page',
      '&&&',
      'page=1&per_page=100',
      `page=${'9'.repeat(5000)}`,
    ];
    for (const query of queries) {
      const response = await list(query);
      expect([200, 422], `${operation.id} ?${query.slice(0, 80)}: ${response.body.slice(0, 200)}`).toContain(response.statusCode);
      if (response.statusCode === 422) expectErrorShape(response, `${operation.id} ?${query.slice(0, 80)}`);
    }
  });

  it('never breaks on generated values', async () => {
    await fc.assert(
      fc.asyncProperty(hostileQueryValue, hostileQueryValue, async (page, perPage) => {
        const query = `page=${encode(page)}&per_page=${encode(perPage)}`;
        const response = await list(query);
        expect([200, 422], `${operation.id} ?${query}: ${response.body.slice(0, 200)}`).toContain(response.statusCode);
        if (response.statusCode === 422) expectErrorShape(response, `${operation.id} ?${query}`);
      }),
      { numRuns: 20 },
    );
  });
});

describe.each(queryOperations)('other query parameters of $id ($method $path)', (operation) => {
  const names = operation.query.filter((name) => name !== 'page' && name !== 'per_page');

  it(`never breaks on hostile ${names.join(', ')}`, async () => {
    const value = fc.oneof(
      hostileString.filter((text) => text.length < 3000),
      fc.constantFrom('00000000-0000-0000-0000-000000000000', 'not-a-uuid', '1; DROP TABLE contacts'),
    );
    await fc.assert(
      fc.asyncProperty(fc.record(Object.fromEntries(names.map((name) => [name, value])), { requiredKeys: [] }), fc.boolean(), async (values, repeat) => {
        const query = Object.entries(values)
          .flatMap(([name, text]) => (repeat ? [text, text] : [text]).map((item) => `${name}=${encode(String(item))}`))
          .join('&');
        const url = urlOf(operation, {}, query);
        const response =
          operation.method === 'GET'
            ? await send(operation, { url })
            : operation.consumes.includes('text/csv')
              ? await send(operation, { url, contentType: 'text/csv', payload: 'phone_number\n447700900125\n' })
              : await sendJson(operation, companionBodies[operation.id]?.() ?? {}, url);
        expectHandled(response, `${operation.id} ?${query.slice(0, 200)}`);
      }),
      { numRuns: 15 },
    );
  });
});

const NOT_UUIDS = [
  'not-a-uuid',
  "1' OR '1'='1",
  '../../etc/passwd',
  '..',
  '5b0c5a8e3f7e4c1e9d550b5e0f1a2b3c',
  '5b0c5a8e-3f7e-4c1e-9d55-0b5e0f1a2b3',
  '5b0c5a8e-3f7e-4c1e-9d55-0b5e0f1a2b3g',
  '5b0c5a8e-3f7e-4c1e-9d55-0b5e0f1a2b3c0',
  '{5b0c5a8e-3f7e-4c1e-9d55-0b5e0f1a2b3c}',
  ' 5b0c5a8e-3f7e-4c1e-9d55-0b5e0f1a2b3c',
  '\u0000',
  '😀',
  '-1',
  '0',
  '1',
  'null',
  'undefined',
  '%',
  'x'.repeat(150),
];

describe.each(pathOperations)('path parameters of $id ($method $path)', (operation) => {
  const call = (overrides: Record<string, string>) => {
    const url = urlOf(operation, overrides);
    if (operation.consumes.includes('text/csv')) return send(operation, { url, contentType: 'text/csv', payload: 'phone_number\n447700900126\n' });
    return operation.method === 'POST' || operation.method === 'PUT' ? sendJson(operation, {}, url) : send(operation, { url });
  };

  it('answers identifiers that are not uuids with 404', async () => {
    for (const name of operation.pathParams) {
      for (const value of NOT_UUIDS) {
        // `..` is a dot segment: the URL resolves to the parent path, which may be another route of the
        // API (`/contact-groups/../contacts` is `GET /contacts`), answered as that route, not as this one.
        if (value === '..' && landsOnAnotherRoute(urlOf(operation, { [name]: value }), operation.method)) continue;
        const response = await call({ [name]: value });
        expectRefused(response, `${operation.id} ${name}=${JSON.stringify(value.slice(0, 40))}`, [404]);
      }
    }
  });

  it('answers generated non-uuid identifiers with 404', async () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...operation.pathParams),
        // Lone surrogates make the URL invalid UTF-8 (covered below); `.` and `..` are dot segments, resolved away.
        fc
          .oneof(codeUnitString(60), fc.string({ unit: 'grapheme', maxLength: 30 }))
          .filter((value) => value.trim() !== '' && !uuid.test(value) && !/\p{Cs}/u.test(value) && value !== '.' && value !== '..'),
        async (name, value) => {
          expectRefused(await call({ [name]: value }), `${operation.id} ${name}=${JSON.stringify(value)}`, [404]);
        },
      ),
      { numRuns: 15 },
    );
  });
});

describe('URLs the router itself refuses', () => {
  const BAD_ENCODINGS = ['%ED%A0%80', '%C0%AF', '%FF', '%E0%A4%A', '%ZZ', '%'];
  const requestTo = (operation: Operation, url: string) =>
    send(operation, { url, payload: operation.method === 'POST' || operation.method === 'PUT' ? '{}' : undefined });

  /** Runs every case and lists those that are not a refusal in the house shape with one of `statuses`. */
  async function failuresOf(cases: Array<[Operation, string]>, statuses: number[]): Promise<string[]> {
    const failures: string[] = [];
    for (const [operation, url] of cases) {
      const response = await requestTo(operation, url);
      try {
        expectRefused(response, `${operation.method} ${url.slice(0, 80)}`, statuses);
      } catch {
        failures.push(`${operation.id}: ${operation.method} ${url.slice(0, 80)} -> ${response.statusCode} ${response.body.slice(0, 160)}`);
      }
    }
    return failures;
  }

  it('answer a path parameter that is not valid UTF-8 or percent-encoding with 400 or 404 in the house shape', async () => {
    const cases = pathOperations.flatMap((operation) =>
      BAD_ENCODINGS.map((bad): [Operation, string] => [operation, operation.path.replace(/\{([^}]+)\}/g, () => `5b0c5a8e${bad}`)]),
    );
    const failures = await failuresOf(cases, [400, 404]);
    expect(failures.length, `${failures.length} of ${cases.length} failed, e.g.\n${failures.slice(0, 6).join('\n')}`).toBe(0);
  });

  it('answer a path parameter over the router limit (5,000 characters) with 404 or 414 in the house shape', async () => {
    const cases = pathOperations.map((operation): [Operation, string] => [
      operation,
      urlOf(operation, Object.fromEntries(operation.pathParams.map((name) => [name, 'x'.repeat(5000)]))),
    ]);
    const failures = await failuresOf(cases, [404, 414]);
    expect(failures.length, `${failures.length} of ${cases.length} failed, e.g.\n${failures.slice(0, 3).join('\n')}`).toBe(0);
  });

  it.each(listOperations)('answer $id with a badly encoded query in the house shape (200, 400 or 422)', async (operation) => {
    for (const bad of BAD_ENCODINGS) {
      const url = urlOf(operation, {}, `page=${bad}&per_page=1${bad}`);
      const response = operation.method === 'GET' ? await send(operation, { url }) : await sendJson(operation, companionBodies[operation.id]?.() ?? {}, url);
      expect([200, 400, 422], `${url}: ${response.body.slice(0, 200)}`).toContain(response.statusCode);
      if (response.statusCode !== 200) expectErrorShape(response, url);
    }
  });
});

describe('a refused request changes nothing', () => {
  async function snapshot(): Promise<Record<string, string>> {
    const { rows: tables } = await t.database.pool.query<{ name: string }>(
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`,
    );
    const state: Record<string, string> = {};
    for (const { name } of tables) {
      // Request counters count every request, refused or not, by design.
      if (name === 'rate_counters') continue;
      // A failed sign-in is counted for its e-mail and address (the sign-in throttle), by design.
      if (name === 'login_failures') continue;
      // Row counts of every table; the content of every table but the tokens (whose last use is recorded).
      const content = name === 'api_tokens' ? `'-'` : `md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), ''))`;
      // A failed sign-in is recorded in the audit log, by design; nothing else a refusal does is.
      const where = name === 'audit_events' ? ` WHERE x.action <> 'loginFailed'` : '';
      const { rows } = await t.database.pool.query(`SELECT count(*)::text AS rows, ${content} AS digest FROM "${name}" x${where}`);
      state[name] = `${rows[0].rows} ${rows[0].digest}`;
    }
    return state;
  }

  it('leaves every table as it was after a batch of refusals', async () => {
    const before = await snapshot();
    expect(Object.keys(before)).toEqual(
      expect.arrayContaining(['templates', 'senders', 'keywords', 'webhooks', 'contact_groups', 'contacts', 'campaigns', 'links', 'vanity_domains']),
    );
    let refused = 0;
    for (const operation of jsonBodyOperations) {
      for (const body of fc.sample(wrongTypedBodyArb(operation.body!), { numRuns: 5, seed: 8 })) {
        expectRefused(await sendJson(operation, body), `${operation.id} ${JSON.stringify(body).slice(0, 200)}`);
        refused++;
      }
      for (const payload of ['{"a":}', '', '[]', 'null', deep(5_000), TEN_MEGABYTES, SEVENTEEN_MEGABYTES]) {
        expectRefused(await send(operation, { payload }), `${operation.id} ${typeof payload === 'string' ? payload.slice(0, 40) : `${payload.length} bytes`}`);
        refused++;
      }
      expectRefused(await send(operation, { payload: '{}', contentType: 'text/plain' }), `${operation.id} text/plain`);
      refused++;
    }
    for (const operation of writeOperations) {
      expectRefused(await send(operation, { payload: '{"a":}' }), `${operation.id} malformed`);
      refused++;
    }
    for (const operation of pathOperations) {
      for (const value of ['not-a-uuid', "1' OR '1'='1", 'x'.repeat(150)]) {
        const overrides = Object.fromEntries(operation.pathParams.map((name) => [name, value]));
        const url = urlOf(operation, overrides);
        const response = operation.method === 'POST' || operation.method === 'PUT' ? await sendJson(operation, {}, url) : await send(operation, { url });
        expectRefused(response, `${operation.id} ${value}`, [404]);
        refused++;
      }
    }
    for (const operation of listOperations) {
      const url = urlOf(operation, {}, 'page=0&per_page=101');
      const response = operation.method === 'GET' ? await send(operation, { url }) : await sendJson(operation, companionBodies[operation.id]?.() ?? {}, url);
      expectRefused(response, `${operation.id} page=0`, [422]);
      refused++;
    }
    expect(refused).toBeGreaterThan(300);
    expect(await snapshot()).toEqual(before);
  });
});
