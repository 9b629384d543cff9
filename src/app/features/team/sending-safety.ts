import { z } from 'zod';
import type { TeamSettings, TeamSettingsInput } from '../../../shared/contract';
import { approvalRuleOf, approvalRuleSchema, MAX_THRESHOLD, thresholdOf, type ApprovalRuleValues } from './approval-rule';
import { formatCount } from '../../lib/format';

/** The "Sending safety" card: when scheduling asks to type the recipient count, and which campaigns wait for approval. */
export interface SendingSafetyValues extends ApprovalRuleValues {
  /** '' until typed (Mantine's NumberInput gives '' when empty). */
  confirm_threshold: number | string;
}

export function sendingSafetyOf(settings: Pick<TeamSettings, 'confirm_threshold' | 'approval_threshold'>): SendingSafetyValues {
  return { confirm_threshold: settings.confirm_threshold, ...approvalRuleOf(settings.approval_threshold) };
}

export function sendingSafetyInput(values: SendingSafetyValues): Pick<TeamSettingsInput, 'confirm_threshold' | 'approval_threshold'> {
  return { confirm_threshold: Number(values.confirm_threshold), approval_threshold: thresholdOf(values) };
}

export function describeConfirmThreshold(threshold: number): string {
  if (threshold === 0) return 'Scheduling any campaign asks to type its number of recipients first.';
  return `Scheduling a campaign of at least ${formatCount(threshold)} recipients asks to type that number first.`;
}

const CONFIRM_MESSAGE = `Enter a whole number of recipients from 0 to ${formatCount(MAX_THRESHOLD)}.`;

export const sendingSafetySchema = z
  .object({ confirm_threshold: z.union([z.number(), z.string()]), rule: z.enum(['none', 'every', 'threshold']), threshold: z.union([z.number(), z.string()]) })
  .superRefine((values, context) => {
    const threshold = values.confirm_threshold;
    if (typeof threshold !== 'number' || !Number.isInteger(threshold) || threshold < 0 || threshold > MAX_THRESHOLD) {
      context.addIssue({ code: 'custom', path: ['confirm_threshold'], message: CONFIRM_MESSAGE });
    }
    const rule = approvalRuleSchema.safeParse(values);
    for (const issue of rule.success ? [] : rule.error.issues) context.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  });
