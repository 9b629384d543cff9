import { z } from 'zod';
import { ResourceLinksSchema, TimestampSchema, UuidSchema } from './common';
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
