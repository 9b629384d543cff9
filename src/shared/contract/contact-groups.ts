import { z } from 'zod';
import { nameSearchQueryOf, ResourceLinksSchema, TimestampSchema, UuidSchema } from './common';
import { isStorableText, requiredString, unstorableMessage } from './fields';

export const OPTOUTS_GROUP = 'default_optouts';

const CustomFieldName = z
  .string({ error: 'Every header must be a string.' })
  .trim()
  .min(1, 'A header may not be empty.')
  .max(64, 'A header may not be greater than 64 characters.')
  .regex(/^[\p{L}\p{N}_.\- ]+$/u, 'A header may only contain letters, digits, spaces and _ . -')
  .refine((name) => name.toLowerCase() !== 'phone_number', 'phone_number is the number itself, not a custom field.');

export const ContactGroupInputSchema = z
  .object({
    name: requiredString('name', 255)
      .refine((name) => name.toLowerCase() !== OPTOUTS_GROUP, `The name ${OPTOUTS_GROUP} is reserved for the team's opt-outs.`)
      .describe('Group name.'),
    description: z
      .string({ error: 'The description must be a string.' })
      .max(1000, 'The description may not be greater than 1000 characters.')
      .refine(isStorableText, unstorableMessage('description'))
      .nullable()
      .optional()
      .describe('What the group is; null or omitted for none.'),
    headers: z
      .array(CustomFieldName, { error: 'The headers must be a list of custom field names.' })
      .max(50, 'The headers may not have more than 50 items.')
      .refine((names) => new Set(names.map((n) => n.toLowerCase())).size === names.length, 'The headers must be distinct.')
      .optional()
      .describe('Names of the custom fields its contacts carry (`{{name}}` in a template).'),
  })
  .describe('Body of create and edit.');
export type ContactGroupInput = z.infer<typeof ContactGroupInputSchema>;

export const ContactGroupSchema = z
  .object({
    uuid: UuidSchema,
    name: z.string(),
    description: z.string().nullable(),
    deletable: z.boolean().describe('False for default_optouts, which every team keeps.'),
    number_of_contacts: z.number().int(),
    status: z.enum(['Empty', 'Modifying', 'Ready']).describe('Empty: no contacts; Modifying: an import or bulk change is under way; Ready.'),
    headers: z.array(z.string()).describe('Custom field names of its contacts.'),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
    links: ResourceLinksSchema,
  })
  .meta({ id: 'ContactGroup' });
export type ContactGroup = z.infer<typeof ContactGroupSchema>;

export const ContactGroupParamsSchema = z.object({ contact_group_uuid: z.uuid().describe('Identifier of the contact group.') });

const PhoneNumberInput = z
  .string({ error: (i) => (i.input === undefined ? 'The phone number field is required.' : 'The phone number must be a string.') })
  .max(32, 'The phone number may not be greater than 32 characters.')
  .describe('A phone number: international (`+44…`, `0044…`, `44…`) or national in DEFAULT_COUNTRY (`07…`).');

export const CustomFieldsSchema = z
  .record(
    CustomFieldName,
    z
      .string({ error: 'Every custom field value must be a string.' })
      .max(1000, 'A custom field value may not be greater than 1000 characters.')
      .refine(isStorableText, 'A custom field value contains characters that cannot be stored.'),
    {
      error: 'The custom fields must be an object of field names to values.',
    },
  )
  .refine((fields) => Object.keys(fields).length <= 50, 'A contact may not have more than 50 custom fields.')
  .describe('Custom field values by name (`{{name}}` in a template).');

export const ContactInputSchema = z.object({
  phone_number: PhoneNumberInput,
  custom_fields: CustomFieldsSchema.optional(),
});

const MAX_BATCH = 10_000;

export const AddContactsSchema = z
  .object({
    contacts: z
      .array(ContactInputSchema, { error: 'The contacts must be a list.' })
      .min(1, 'The contacts field is required.')
      .max(MAX_BATCH, `At most ${MAX_BATCH} contacts at a time; import a CSV for more.`),
  })
  .describe('Contacts to add; a number already in the group has its custom fields replaced.');

/** Why numbers leave default_optouts by hand: kept with each opt-in and in the audit log. */
export const OptOutRemovalReasonSchema = z
  .string({ error: 'The reason must be a string.' })
  .trim()
  .max(500, 'The reason may not be greater than 500 characters.')
  .refine(isStorableText, unstorableMessage('reason'))
  .transform((reason) => (reason === '' ? undefined : reason))
  .optional()
  .describe(
    'Why the numbers leave the group. Kept, for default_optouts, with each opt-in in the opt-out history and in the audit log; the dashboard asks for it there.',
  );

export const RemoveContactsSchema = z
  .object({
    phone_numbers: z
      .array(PhoneNumberInput, { error: 'The phone numbers must be a list.' })
      .min(1, 'The phone numbers field is required.')
      .max(MAX_BATCH, `At most ${MAX_BATCH} phone numbers at a time.`),
    reason: OptOutRemovalReasonSchema,
  })
  .describe('Numbers to remove from the group.');

export const FlushQuerySchema = z.object({ reason: OptOutRemovalReasonSchema });

export const BulkContactsSchema = z
  .object({
    name: ContactGroupInputSchema.shape.name,
    description: ContactGroupInputSchema.shape.description,
    contacts: z
      .array(PhoneNumberInput, { error: 'The contacts must be a list of phone numbers.' })
      .min(1, 'The contacts field is required.')
      .max(MAX_BATCH, `At most ${MAX_BATCH} numbers at a time; import a CSV for more.`),
  })
  .describe('A new group made of these numbers.');

export const UniqueContactsSchema = z
  .object({
    included_contact_group_uuids: z
      .array(z.string({ error: 'Every group uuid must be a string.' }), { error: 'The included contact group uuids must be a list.' })
      .min(1, 'The included contact group uuids field is required.')
      .max(100, 'At most 100 groups.'),
    excluded_contact_group_uuids: z
      .array(z.string({ error: 'Every group uuid must be a string.' }), { error: 'The excluded contact group uuids must be a list.' })
      .max(100, 'At most 100 groups.')
      .default([]),
  })
  .describe('Groups whose distinct numbers, less the excluded groups and default_optouts, a campaign would reach.');

export const ContactSchema = z
  .object({
    phone_number: z.string().describe('E.164 digits without `+`.'),
    custom_fields: z.record(z.string(), z.string()),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .meta({ id: 'Contact' });
export type Contact = z.infer<typeof ContactSchema>;

export const RecipientSchema = z.object({ phone_number: z.string().describe('E.164 digits without `+`.') }).meta({ id: 'Recipient' });

export const ContactListQuerySchema = z.object({
  search: z.string().max(32, 'The search may not be greater than 32 characters.').optional().describe('Digits the phone number contains.'),
});

export const ContactGroupListQuerySchema = nameSearchQueryOf('name');
