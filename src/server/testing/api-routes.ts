import type { FastifyInstance } from 'fastify';

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One operation of the served OpenAPI document. */
export type ApiRoute = {
  method: ApiMethod;
  /** The OpenAPI path template, e.g. `/api/2.0/campaigns/{campaign_uuid}`. */
  path: string;
  /** `METHOD path`, the key every table of the isolation test uses. */
  key: string;
  pathParams: string[];
  hasBody: boolean;
  /** Names of the request body's top-level properties (after resolving `$ref`). */
  bodyProperties: string[];
};

type JsonSchema = { $ref?: string; properties?: Record<string, unknown>; allOf?: JsonSchema[]; anyOf?: JsonSchema[]; oneOf?: JsonSchema[] };
type Operation = {
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};
export type OpenApiDocument = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, JsonSchema> } };

const METHODS: Record<string, ApiMethod> = { get: 'GET', post: 'POST', put: 'PUT', delete: 'DELETE' };

function propertiesOf(schema: JsonSchema | undefined, document: OpenApiDocument, seen = new Set<string>()): string[] {
  if (!schema) return [];
  if (schema.$ref) {
    if (seen.has(schema.$ref)) return [];
    seen.add(schema.$ref);
    const name = schema.$ref.split('/').pop()!;
    return propertiesOf(document.components?.schemas?.[name], document, seen);
  }
  const own = Object.keys(schema.properties ?? {});
  const nested = [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].flatMap((part) => propertiesOf(part, document, seen));
  return [...new Set([...own, ...nested])];
}

/**
 * Every operation of the OpenAPI document under `prefix`. A method the helper does not know
 * (PATCH…) throws: the isolation test must be taught about it rather than skip it.
 */
export function routesOfDocument(document: OpenApiDocument, prefix: string): ApiRoute[] {
  const routes: ApiRoute[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    if (!path.startsWith(prefix)) continue;
    for (const [verb, operation] of Object.entries(operations)) {
      if (verb === 'parameters' || verb === 'summary' || verb === 'description') continue;
      const method = METHODS[verb];
      if (!method) throw new Error(`${verb.toUpperCase()} ${path}: a method the isolation test does not handle yet.`);
      const pathParams = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      // A template parameter the document forgot to declare still has to be filled.
      for (const match of path.matchAll(/\{([^}]+)\}/g)) if (!pathParams.includes(match[1]!)) pathParams.push(match[1]!);
      const content = operation.requestBody?.content ?? {};
      const bodyProperties = [...new Set(Object.values(content).flatMap((media) => propertiesOf(media.schema, document)))];
      routes.push({ method, path, key: `${method} ${path}`, pathParams, hasBody: operation.requestBody !== undefined, bodyProperties });
    }
  }
  return routes;
}

/**
 * Every route the Fastify router holds (`METHOD /path/:param`, HEAD left out), read from
 * `printRoutes()`: it covers routes hidden from the OpenAPI document too.
 */
export function routesOfRouter(app: FastifyInstance): string[] {
  const found: string[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    const url = stack.join('');
    for (const method of (match[3] ?? '')
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean))
      if (method !== 'HEAD') found.push(`${method} ${url}`);
  }
  return found;
}

/** `/api/2.0/x/{id}/` and `/api/2.0/x/:id` name the same route. */
export function normaliseRouteKey(key: string): string {
  return key.replace(/\{([^}]+)\}/g, ':$1').replace(/(.)\/$/, '$1');
}
