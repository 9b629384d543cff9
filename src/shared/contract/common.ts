import { z } from 'zod';
import { isStorableText, unstorableMessage } from './fields';
import { PER_PAGE_DEFAULT, PER_PAGE_MAX } from './page-size';

export { PER_PAGE_DEFAULT, PER_PAGE_MAX };

export const UuidSchema = z.uuid().describe('Identifier (UUID).');

export const TimestampSchema = z.string().describe('`YYYY-MM-DD HH:MM:SS` in the service time zone (APP_TIMEZONE); an empty string when not set.');

export const ResourceLinkSchema = z
  .object({
    rel: z.string().describe('Relation; `self` points at the resource itself.'),
    uri: z.string().describe('Absolute URL.'),
  })
  .meta({ id: 'ResourceLink' });

export const ResourceLinksSchema = z.array(ResourceLinkSchema).describe('Links of the resource; contains `self`.');

export const PageQuerySchema = z.object({
  page: z.coerce
    .number({ error: 'The page must be an integer.' })
    .int('The page must be an integer.')
    .min(1, 'The page must be at least 1.')
    .default(1)
    .describe('Page number, from 1.'),
  per_page: z.coerce
    .number({ error: 'The per page must be an integer.' })
    .int('The per page must be an integer.')
    .min(1, 'The per page must be at least 1.')
    .max(PER_PAGE_MAX, `The per page may not be greater than ${PER_PAGE_MAX}.`)
    .default(PER_PAGE_DEFAULT)
    .describe(`Page size, 1 to ${PER_PAGE_MAX}; ${PER_PAGE_DEFAULT} when omitted.`),
});
export type PageQuery = z.infer<typeof PageQuerySchema>;

export const SEARCH_MAX = 100;

/**
 * The `search` of a list (Herald extension): the items whose `what` contains the text, ignoring case;
 * `%`, `_` and `\` match themselves. A client that omits it gets the whole list, as before.
 */
export function nameSearchQueryOf(what: string) {
  return z.object({
    search: z
      .string()
      .max(SEARCH_MAX, `The search may not be greater than ${SEARCH_MAX} characters.`)
      // A NUL or half an emoji cannot be compared in PostgreSQL: refused, not a 500.
      .refine(isStorableText, unstorableMessage('search'))
      .optional()
      .describe(
        `Herald extension. Only items whose ${what} contains this text, ignoring case (\`%\`, \`_\` and the backslash match themselves); at most ${SEARCH_MAX} characters. The order and pages are those of the whole list.`,
      ),
  });
}

/** A value of a list's `sort`: a field, ascending, or `-` and the field, descending. */
export type SortValue<F extends string> = F | `-${F}`;

/** What a list can be ordered by (Herald extension): its fields, and the order it has without `sort`. */
export type ListSort<F extends string = string> = { readonly fields: readonly [F, ...F[]]; readonly byDefault: SortValue<F> };

/** The fields of a list's sort, as a type: `SortFieldOf<typeof CAMPAIGN_SORT>`. */
export type SortFieldOf<S extends ListSort> = S['fields'][number];

/** A list's sort, checked: its `fields` and `byDefault` stay one of them. */
export const listSort = <const F extends string>(fields: readonly [F, ...F[]], byDefault: SortValue<F>): ListSort<F> => ({ fields, byDefault });

/**
 * The `sort` of a list (Herald extension), the same on every list that takes it: one of the list's
 * fields for ascending order, or the field after `-` for descending (`sort=name`, `sort=-created_at`).
 * Ties keep the order of creation in the same direction, so pages neither overlap nor skip. Any
 * other value, a parameter given twice included, is 422 naming `sort`; without it, the list keeps
 * its order (`byDefault`), so a client that never sends it sees no change.
 */
export function sortQueryOf<F extends string>(sort: ListSort<F>) {
  const values = sort.fields.flatMap((field) => [field, `-${field}`]) as [SortValue<F>, ...SortValue<F>[]];
  const named = values.map((value) => `\`${value}\``).join(', ');
  return z.object({
    sort: z
      .enum(values, { error: `The sort must be one of ${values.join(', ')}.` })
      .optional()
      .describe(
        `Herald extension. The order of the list: a field for ascending order, or \`-\` and the field for descending (${named}). Without it: \`${sort.byDefault}\`. Ties keep the order of creation, so pages neither overlap nor skip.`,
      ),
  });
}

/** The query of a list that takes `sort`: `page`, `per_page` and `sort` (extend it with the list's filters). */
export const pageQueryOf = <F extends string>(sort: ListSort<F>) => PageQuerySchema.extend(sortQueryOf(sort).shape);

export const PageLinksSchema = z
  .object({
    first: z.string().describe('Absolute URL of the first page.'),
    last: z.string().describe('Absolute URL of the last page.'),
    prev: z.string().nullable().describe('Absolute URL of the previous page; null on the first page.'),
    next: z.string().nullable().describe('Absolute URL of the next page; null on the last page.'),
  })
  .meta({ id: 'PageLinks' });

export const PageMetaSchema = z
  .object({
    current_page: z.number().int().describe('The page returned.'),
    from: z.number().int().nullable().describe('Position (from 1) of the first item on the page; null on an empty page.'),
    last_page: z.number().int().describe('Number of the last page (at least 1).'),
    path: z.string().describe('Absolute URL of the list, without query.'),
    per_page: z.number().int().describe('Page size.'),
    to: z.number().int().nullable().describe('Position (from 1) of the last item on the page; null on an empty page.'),
    total: z.number().int().describe('Number of items in the whole list.'),
  })
  .meta({ id: 'PageMeta' });

/** The list envelope of docs/interface.md §2.1. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), links: PageLinksSchema, meta: PageMetaSchema });
}

/** A single resource wrapped as `{ data }`. */
export function dataOf<T extends z.ZodType>(item: T) {
  return z.object({ data: item });
}

export const ErrorBodySchema = z
  .object({
    error: z.object({
      code: z.number().int().describe('HTTP status code.'),
      http_code: z.number().int().describe('HTTP status code (repeated, as the original service does).'),
      message: z.string().describe('A human sentence saying what went wrong.'),
      errors: z.record(z.string(), z.array(z.string())).optional().describe('Only on 422: messages per request field, keyed by the field name.'),
      request_id: z
        .string()
        .optional()
        .describe(
          "The request's id (Herald's extension): the `X-Request-Id` the client sent when it is 1–128 letters, digits or `._:-`, else one Herald made; also in the response's `X-Request-Id` header and on the request's log line.",
        ),
    }),
  })
  .meta({ id: 'Error', description: 'The error body of every failed request.' });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** The error answers a route documents, each in the house shape: `...errorsOf(401, 404, 422)` in its `response` map. */
export function errorsOf<const C extends number>(...codes: C[]): Record<C, typeof ErrorBodySchema> {
  return Object.fromEntries(codes.map((code) => [code, ErrorBodySchema])) as Record<C, typeof ErrorBodySchema>;
}

export const UuidParamsSchema = z.object({ uuid: z.string().describe('Identifier (UUID) of the resource.') });
