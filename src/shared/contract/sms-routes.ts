import { z } from 'zod';
import { PHONE_COUNTRIES } from '../phone/phone-countries';
import { typeError } from './fields';
import { connectionSenderSchema } from './sms-connections';

/** At most this many rules, and connections in one rule. */
export const SMS_ROUTES_MAX = 200;
export const SMS_ROUTE_MAX_CONNECTIONS = 10;
/** The country of a rule that covers every country (and numbers of none). */
export const ANY_COUNTRY = '*';

const COUNTRY_CODES: ReadonlySet<string> = new Set(PHONE_COUNTRIES);

const CountriesSchema = z
  .array(z.string({ error: typeError('country', 'a string') }), { error: typeError('countries', 'a list') })
  .min(1, 'The countries may not be empty: list countries, or ["*"] for any.')
  .superRefine((countries, context) => {
    const seen = new Set<string>();
    countries.forEach((country, index) => {
      if (country === ANY_COUNTRY) {
        if (countries.length > 1)
          context.addIssue({ code: 'custom', path: [index], message: '"*" covers every country: it must be the rule\'s only country (["*"]).' });
      } else if (!COUNTRY_CODES.has(country))
        context.addIssue({
          code: 'custom',
          path: [index],
          message: `${JSON.stringify(country.slice(0, 20))} is not a country: use an ISO 3166 alpha-2 code in capitals (GB), or ["*"] for any.`,
        });
      if (seen.has(country)) context.addIssue({ code: 'custom', path: [index], message: `${country} is already in this rule's countries.` });
      seen.add(country);
    });
  })
  .describe('The countries the rule covers (ISO 3166 alpha-2, in capitals), or `["*"]` for every country (and numbers of none).');

const ConnectionsSchema = z
  .array(z.uuid({ error: 'Each connection must be the uuid of one of the team’s SMS connections.' }), { error: typeError('connections', 'a list') })
  .min(1, 'The connections may not be empty.')
  .max(SMS_ROUTE_MAX_CONNECTIONS, `The connections may not have more than ${SMS_ROUTE_MAX_CONNECTIONS} items.`)
  .superRefine((connections, context) => {
    connections.forEach((connection, index) => {
      if (connections.indexOf(connection) < index)
        context.addIssue({ code: 'custom', path: [index], message: 'This connection is already in the rule: each is tried once.' });
    });
  })
  .describe('The uuids of the connections to try, in order: the next one is tried when one fails over (a transient or account error).');

const RouteRuleInputSchema = z.object(
  {
    countries: CountriesSchema,
    connections: ConnectionsSchema,
    sender: connectionSenderSchema('sender', 'The sender must be')
      .nullable()
      .optional()
      .describe(
        "The `from` through this rule's connections; it must be one of the senders of each of them that lists senders. Null or left out: the campaign's sender when the connection may send from it, else the connection's first sender.",
      ),
  },
  { error: 'Each route must be an object with countries and connections.' },
);

export const SmsRoutesInputSchema = z
  .object({
    routes: z
      .array(RouteRuleInputSchema, { error: typeError('routes', 'a list') })
      .max(SMS_ROUTES_MAX, `The routes may not have more than ${SMS_ROUTES_MAX} items.`)
      .superRefine((routes, context) => {
        // A rule after one for any country can never match (the first matching rule wins).
        const anyAt = routes.findIndex((route) => Array.isArray(route.countries) && route.countries.includes(ANY_COUNTRY));
        if (anyAt >= 0)
          for (let index = anyAt + 1; index < routes.length; index++)
            context.addIssue({
              code: 'custom',
              path: [index],
              message: `This rule can never match: rule ${anyAt + 1} before it covers every country ("*"). Move it above, or remove it.`,
            });
      }),
  })
  .describe("Body of the routes' edit: the whole ordered list, replacing the one before. An empty list removes the routes.");
export type SmsRoutesInput = z.infer<typeof SmsRoutesInputSchema>;

export const SmsRouteRuleSchema = z
  .object({
    countries: z.array(z.string()).describe('ISO 3166 alpha-2 codes, or `["*"]` for any country.'),
    connections: z.array(z.uuid()).describe('The connections to try, in order.'),
    sender: z.string().nullable().describe("The `from` through this rule's connections; null: the campaign's, or the connection's first."),
  })
  .meta({ id: 'SmsRouteRule' });
export type SmsRouteRule = z.infer<typeof SmsRouteRuleSchema>;

export const SmsRoutesSchema = z.object({ routes: z.array(SmsRouteRuleSchema) }).meta({
  id: 'SmsRoutes',
  description:
    "A team's routes (docs/providers.md, Routes): the first rule whose countries hold the recipient's country (from its number) gives the connections to try, in order. No routes: the team's enabled connections, in the order they were made, for every country.",
});
export type SmsRoutes = z.infer<typeof SmsRoutesSchema>;
