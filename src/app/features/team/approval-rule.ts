import { z } from 'zod';
import { formatCount } from '../../lib/format';

/**
 * The team's approval rule as the settings card offers it: three choices over one number, the
 * API's `approval_threshold` (null: none; 0: every campaign; N: campaigns of at least N recipients).
 */
export type ApprovalRule = 'none' | 'every' | 'threshold';

export interface ApprovalRuleValues {
  rule: ApprovalRule;
  /** The N of "at least N recipients"; '' until typed (Mantine's NumberInput gives '' when empty). */
  threshold: number | string;
}

/** The API's upper bound (TeamSettingsInputSchema). */
export const MAX_THRESHOLD = 100_000_000;

export function approvalRuleOf(threshold: number | null): ApprovalRuleValues {
  if (threshold === null) return { rule: 'none', threshold: '' };
  if (threshold === 0) return { rule: 'every', threshold: '' };
  return { rule: 'threshold', threshold };
}

export function thresholdOf({ rule, threshold }: ApprovalRuleValues): number | null {
  if (rule === 'none') return null;
  if (rule === 'every') return 0;
  return Number(threshold);
}

export function describeApprovalRule(threshold: number | null): string {
  if (threshold === null) return 'No approval needed: campaigns start at their send time.';
  if (threshold === 0) return 'Every campaign needs another admin’s approval before it starts.';
  return `Campaigns of at least ${formatCount(threshold)} recipients need another admin’s approval before they start.`;
}

const NUMBER_MESSAGE = `Enter a whole number of recipients from 1 to ${formatCount(MAX_THRESHOLD)}.`;

export const approvalRuleSchema = z
  .object({ rule: z.enum(['none', 'every', 'threshold']), threshold: z.union([z.number(), z.string()]) })
  .superRefine(({ rule, threshold }, context) => {
    if (rule !== 'threshold') return;
    // 0 would be "every campaign", the second choice: N starts at 1.
    if (typeof threshold !== 'number' || !Number.isInteger(threshold) || threshold < 1 || threshold > MAX_THRESHOLD) {
      context.addIssue({ code: 'custom', path: ['threshold'], message: NUMBER_MESSAGE });
    }
  });
