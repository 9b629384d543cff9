import { z } from 'zod';
import { PageQuerySchema, ResourceLinksSchema, TimestampSchema, UuidSchema } from './common';
import { isStorableText, requiredString, typeError, unstorableMessage, uuidField } from './fields';
import { RFC3339_PATTERN, TIMESTAMP_PATTERN } from '../time/local-timestamps';

/** Where a conversion came from: the API, or a shop's order webhook. */
export const CONVERSION_SOURCES = ['api', 'shopify', 'woocommerce'] as const;
export type ConversionSource = (typeof CONVERSION_SOURCES)[number];

/** How a conversion was credited to a campaign: its recipient's human click, or its delivered message seen. */
export const ATTRIBUTIONS = ['click', 'view'] as const;
export type Attribution = (typeof ATTRIBUTIONS)[number];

/** `numeric(14, 2)`: at most 999999999999.99. */
export const CONVERSION_VALUE_MAX = 999_999_999_999.99;
const DECIMAL = /^\d{1,12}(\.\d{1,2})?$/;

/** A money amount: a JSON number or a decimal string (what shops send), at least 0, with at most 2 decimals; read as a number. */
export const moneyField = (label: string) =>
  z
    .union([z.number(), z.string()], { error: typeError(label, 'a number') })
    .superRefine((value, context) => {
      const text = typeof value === 'number' ? String(value) : value.trim();
      if (typeof value === 'number' && !Number.isFinite(value)) context.addIssue({ code: 'custom', message: `The ${label} must be a number.` });
      else if (typeof value === 'number' ? value < 0 : text.startsWith('-')) context.addIssue({ code: 'custom', message: `The ${label} must be at least 0.` });
      else if (typeof value === 'number' ? Math.abs(Math.round(value * 100) - value * 100) > 1e-6 : !DECIMAL.test(text))
        context.addIssue({
          code: 'custom',
          message:
            typeof value === 'number'
              ? `The ${label} may have at most 2 decimals.`
              : `The ${label} must be a decimal number with at most 2 decimals, such as 19.99.`,
        });
      else if (Number(text) > CONVERSION_VALUE_MAX)
        context.addIssue({ code: 'custom', message: `The ${label} may not be greater than ${CONVERSION_VALUE_MAX}.` });
    })
    .transform((value) => Math.round(Number(value) * 100) / 100);

export const currencyField = (label = 'currency') =>
  z
    .string({ error: typeError(label, 'a string') })
    .regex(/^[A-Z]{3}$/, `The ${label} must be a three-letter ISO 4217 code in capitals, such as EUR.`)
    .describe('ISO 4217 alpha-3 code, in capitals (`EUR`).');

const CLICK_ID = /^[0-9A-Za-z]{4,16}$/;

export const ConversionInputSchema = z
  .object({
    phone_number: z
      .string({ error: typeError('phone number', 'a string') })
      .max(32, 'The phone number may not be greater than 32 characters.')
      .refine(isStorableText, unstorableMessage('phone number'))
      .optional()
      .describe("The buyer's number; national numbers are read in the team's default country. Either this or `click_id`."),
    click_id: z
      .string({ error: typeError('click id', 'a string') })
      .regex(CLICK_ID, 'The click id must be the code of a short link (4 to 16 letters and digits).')
      .optional()
      .describe('The code of the short link the buyer came by (`/l/{code}`): its message gives the number. Either this or `phone_number`.'),
    order_id: requiredString('order id', 255).describe("The shop's order identifier: a conversion is recorded once per order id and team."),
    value: moneyField('value').describe('The order total, at least 0, with at most 2 decimals (a number, or a decimal string).'),
    currency: currencyField().describe('ISO 4217 alpha-3 code of `value`, in capitals. Never converted.'),
    occurred_at: z
      .string({ error: typeError('occurred at', 'a string') })
      .refine(
        (text) => TIMESTAMP_PATTERN.test(text) || RFC3339_PATTERN.test(text),
        'The occurred at must be a date and time of the form YYYY-MM-DD HH:MM:SS, or RFC 3339 with an offset (2026-11-24T09:00:00Z).',
      )
      .optional()
      .describe(
        'When the order was placed: `YYYY-MM-DD HH:MM:SS` in the service time zone (APP_TIMEZONE), or RFC 3339 with its offset; now when left out. Not in the future.',
      ),
  })
  .describe('An order to record: `phone_number` or `click_id`, and `order_id`, `value`, `currency`.');
export type ConversionInput = z.infer<typeof ConversionInputSchema>;

export const ConversionSchema = z
  .object({
    uuid: UuidSchema,
    order_id: z.string(),
    phone_number: z.string().nullable().describe('E.164 digits without `+`; null when the order carried no readable number (a shop order).'),
    click_id: z.string().nullable().describe('The short link code given, if any.'),
    value: z.number().describe('The order total in `currency`.'),
    currency: z.string(),
    occurred_at: TimestampSchema.describe('When the order was placed (`YYYY-MM-DD HH:MM:SS`, APP_TIMEZONE).'),
    source: z.enum(CONVERSION_SOURCES).describe('`api`, or the shop platform whose webhook reported it.'),
    campaign_uuid: UuidSchema.nullable().describe('The campaign credited with it; null: none.'),
    attributed_by: z
      .enum(ATTRIBUTIONS)
      .nullable()
      .describe(
        "`click`: the number's last human click on a tracked link within the team's click window before the order; `view`: else its last delivered campaign message within the view window; null: neither. Fixed when recorded.",
      ),
    links: ResourceLinksSchema,
    created_at: TimestampSchema,
  })
  .meta({ id: 'Conversion' });
export type Conversion = z.infer<typeof ConversionSchema>;

export const ConversionListQuerySchema = PageQuerySchema.extend({
  campaign_uuid: uuidField('campaign uuid').optional().describe('Only the conversions credited to this campaign.'),
  phone_number: z
    .string({ error: typeError('phone number', 'a string') })
    .max(32, 'The phone number may not be greater than 32 characters.')
    .refine(isStorableText, unstorableMessage('phone number'))
    .optional()
    .describe("Only this number's conversions (national numbers are read in the team's default country)."),
});
export type ConversionListQuery = z.infer<typeof ConversionListQuerySchema>;

/** Revenue in one currency: the orders and their total. */
export const RevenueSchema = z
  .object({
    currency: z.string().describe('ISO 4217 code.'),
    value: z.number().describe('The total of the orders.'),
    orders: z.number().int().describe('How many orders.'),
  })
  .meta({ id: 'Revenue' });
export type Revenue = z.infer<typeof RevenueSchema>;

/** The figures of one segment's recipients in one campaign (issue 35: revenue per segment; docs/conversions.md). */
const segmentFigures = {
  recipients: z
    .number()
    .int()
    .describe('The recipients that matched the segment when the campaign’s list was fixed at its start (a number in two segments counts in both).'),
  orders: z.number().int().describe("Orders credited to the campaign's messages to them, in the team's currency."),
  revenue: z.number().describe("Their total, in the team's currency."),
  revenue_per_recipient: z.number().nullable().describe('`revenue` ÷ `recipients` (4 decimals); null when there are no recipients.'),
  revenue_other: z.array(RevenueSchema).describe("Orders in other currencies than the team's, by currency: shown apart, never converted."),
};

export const CampaignSegmentRevenueSchema = z
  .object({ segment_uuid: UuidSchema, name: z.string().describe("The segment's name now."), ...segmentFigures })
  .meta({ id: 'CampaignSegmentRevenue' });
export type CampaignSegmentRevenue = z.infer<typeof CampaignSegmentRevenueSchema>;

export const SegmentCampaignRevenueSchema = z
  .object({
    campaign_uuid: UuidSchema,
    name: z.string().describe("The campaign's name."),
    started_at: TimestampSchema.describe('When it started sending.'),
    ...segmentFigures,
  })
  .meta({ id: 'SegmentCampaignRevenue' });
export type SegmentCampaignRevenue = z.infer<typeof SegmentCampaignRevenueSchema>;

export const SegmentRevenueSchema = z
  .object({
    currency: z.string().describe("The team's currency (ISO 4217): that of `revenue`."),
    campaigns: z
      .array(SegmentCampaignRevenueSchema)
      .describe('The latest 20 campaigns that sent to the segment (started, newest first), each with the figures of the recipients it brought.'),
    more: z.boolean().describe('Whether older campaigns sent to it too (left out).'),
  })
  .meta({ id: 'SegmentRevenue' });
export type SegmentRevenue = z.infer<typeof SegmentRevenueSchema>;

// Shop connections: a shop whose order webhooks record conversions.

export const SHOP_PLATFORMS = ['shopify', 'woocommerce'] as const;
export type ShopPlatform = (typeof SHOP_PLATFORMS)[number];

const PlatformSchema = z
  .enum(SHOP_PLATFORMS, { error: `The platform must be one of ${SHOP_PLATFORMS.join(', ')}.` })
  .describe('`shopify` (the `orders/create` webhook) or `woocommerce` (the `order.created` webhook).');

const SecretSchema = z
  .string({ error: typeError('secret', 'a string') })
  .trim()
  .min(1, 'The secret field is required.')
  .max(4096, 'The secret may not be greater than 4096 characters.')
  .refine(isStorableText, unstorableMessage('secret'))
  .describe(
    "What the shop signs its webhooks with: Shopify, the app's client secret (or the signing secret shown under Settings › Notifications › Webhooks); WooCommerce, the webhook's Secret. Written, never read back.",
  );

export const ShopConnectionInputSchema = z
  .object({ name: requiredString('name', 255), platform: PlatformSchema, secret: SecretSchema })
  .describe('Body of create.');
export type ShopConnectionInput = z.infer<typeof ShopConnectionInputSchema>;

export const ShopConnectionPatchSchema = z
  .object({ name: requiredString('name', 255).optional(), platform: PlatformSchema.optional(), secret: SecretSchema.optional() })
  .describe('Body of edit: any of the fields; the others keep their values. A secret sent back as its hint keeps the stored one.');
export type ShopConnectionPatch = z.infer<typeof ShopConnectionPatchSchema>;

export const ShopConnectionSchema = z
  .object({
    uuid: UuidSchema,
    name: z.string(),
    platform: PlatformSchema,
    secret: z.string().describe('A masked hint of the secret (its last 4 characters when it has 12 or more); the secret itself is never shown.'),
    webhook_url: z.string().describe("The address to give the shop's webhook (`{PUBLIC_URL}/hooks/shop/{uuid}`)."),
    last_order_at: TimestampSchema.describe('When its last order was received; "" before the first.'),
    links: ResourceLinksSchema,
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .meta({ id: 'ShopConnection' });
export type ShopConnection = z.infer<typeof ShopConnectionSchema>;

export const ShopConnectionParamsSchema = z.object({ shop_connection_uuid: z.uuid().describe('Identifier of the shop connection.') });
