import { z } from 'zod';

/** `The {label} field is required.` when missing, `The {label} must be a {kind}.` when of another type (the house wording). */
export const typeError = (label: string, kind: string) => (issue: { input: unknown }) =>
  issue.input === undefined ? `The ${label} field is required.` : `The ${label} must be ${kind}.`;

// NUL and unpaired surrogates cannot be stored as text (PostgreSQL refuses NUL; UTF-8 has no surrogates).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text that survives storage unchanged. */
export const isStorableText = (text: string): boolean => !text.includes('\u0000') && !LONE_SURROGATE.test(text);
export const unstorableMessage = (label: string) => `The ${label} contains characters that cannot be stored.`;

export const requiredString = (label: string, max: number) =>
  z
    .string({ error: typeError(label, 'a string') })
    .trim()
    .min(1, `The ${label} field is required.`)
    .max(max, `The ${label} may not be greater than ${max} characters.`)
    .refine(isStorableText, unstorableMessage(label));

export const optionalString = (label: string, max: number) =>
  z
    .string({ error: typeError(label, 'a string') })
    .max(max, `The ${label} may not be greater than ${max} characters.`)
    .refine(isStorableText, unstorableMessage(label));

export const requiredBoolean = (label: string) => z.boolean({ error: typeError(label, 'true or false') });

export const uuidField = (label: string) =>
  z
    .string({ error: typeError(label, 'a string') })
    .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, `The selected ${label} is invalid.`);

export const uuidList = (label: string) =>
  z.array(uuidField(label), { error: typeError(label, 'a list') }).max(100, `The ${label} may not have more than 100 items.`);

/** An absolute http(s) URL. */
export const httpUrl = (label: string, max = 2048) =>
  z
    .string({ error: typeError(label, 'a string') })
    .trim()
    .min(1, `The ${label} field is required.`)
    .max(max, `The ${label} may not be greater than ${max} characters.`)
    .refine(isStorableText, unstorableMessage(label))
    .refine((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
      } catch {
        return false;
      }
    }, `The ${label} must be an absolute http or https URL.`);
