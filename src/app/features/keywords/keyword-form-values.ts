import type { z } from 'zod';
import type { KeywordInputSchema } from '../../../shared/contract';

/** A contact group or webhook offered by name; the form stores its uuid. */
export interface PickerOption {
  value: string;
  label: string;
}

export type KeywordFormValues = z.input<typeof KeywordInputSchema>;
