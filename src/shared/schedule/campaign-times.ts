import type { CampaignInput } from '../contract';
import { parseTimestamp } from '../time/local-timestamps';

export type CampaignTimes = { send: Date; expiry: Date; finish: Date | null; pauses: Array<{ startAt: Date; endAt: Date }> };

/** Which time rule failed, whatever its words: a form decides by it, never by the message. */
export type CampaignTimeCode =
  /** The text is not a date and time that exists in the zone (empty included). */
  | 'invalid_timestamp'
  /** Throttled without a finish date. */
  | 'finish_required'
  | 'expiry_not_after_send'
  | 'finish_not_after_send'
  | 'finish_after_expiry'
  /** Pauses, or a manual pause, on a campaign that is not throttled. */
  | 'not_throttled'
  | 'pause_not_after_start'
  | 'pause_outside_sending'
  | 'pause_overlaps';

/** One failed rule: the request field it concerns (`expiry_date`, `pauses.1`, `pauses.0.end_at`), its code and its sentence. */
export interface CampaignTimeIssue {
  field: string;
  code: CampaignTimeCode;
  message: string;
}

/**
 * The time rules of spec §2.5 and §3 (shared: the campaign form checks them as you type), each
 * failure keyed by the request field it concerns:
 * send before expiry; throttled: finish after send and not after expiry; pauses inside
 * [send, finish], each ending after it starts, none overlapping.
 * `errors` is the 422 shape (field → messages, in the order found); `issues` the same failures, in
 * the same order, with their codes.
 */
export function checkCampaignTimes(
  input: CampaignInput,
  timeZone: string,
): { times?: CampaignTimes; errors: Record<string, string[]>; issues: CampaignTimeIssue[] } {
  const errors: Record<string, string[]> = {};
  const issues: CampaignTimeIssue[] = [];
  const fail = (field: string, code: CampaignTimeCode, message: string) => {
    issues.push({ field, code, message });
    (errors[field] ??= []).push(message);
  };
  const read = (field: string, label: string, text: string) => {
    const moment = parseTimestamp(text, timeZone);
    if (!moment) fail(field, 'invalid_timestamp', `The ${label} is not a valid date and time in ${timeZone}.`);
    return moment;
  };

  const send = read('scheduled_send_date', 'scheduled send date', input.scheduled_send_date);
  const expiry = read('expiry_date', 'expiry date', input.expiry_date);
  if (send && expiry && expiry <= send) fail('expiry_date', 'expiry_not_after_send', 'The expiry date must be after the scheduled send date.');

  const throttled = input.throttled === true;
  let finish: Date | null = null;
  if (!throttled) {
    if ((input.pauses ?? []).length > 0) fail('pauses', 'not_throttled', 'Pauses are only for throttled campaigns.');
    if (input.manually_paused !== undefined) fail('manually_paused', 'not_throttled', 'Only a throttled campaign can be paused.');
  } else if (input.scheduled_finish_date === undefined) {
    fail('scheduled_finish_date', 'finish_required', 'The scheduled finish date field is required when throttled is true.');
  } else {
    finish = read('scheduled_finish_date', 'scheduled finish date', input.scheduled_finish_date);
    if (finish && send && finish <= send)
      fail('scheduled_finish_date', 'finish_not_after_send', 'The scheduled finish date must be after the scheduled send date.');
    if (finish && expiry && finish > expiry)
      fail('scheduled_finish_date', 'finish_after_expiry', 'The scheduled finish date may not be after the expiry date.');
  }

  const pauses: Array<{ startAt: Date; endAt: Date; index: number }> = [];
  (throttled ? (input.pauses ?? []) : []).forEach((pause, index) => {
    const startAt = read(`pauses.${index}.start_at`, 'pause start', pause.start_at);
    const endAt = read(`pauses.${index}.end_at`, 'pause end', pause.end_at);
    if (!startAt || !endAt) return;
    if (endAt <= startAt) fail(`pauses.${index}.end_at`, 'pause_not_after_start', 'The pause must end after it starts.');
    else if (send && finish && (startAt < send || endAt > finish))
      fail(`pauses.${index}`, 'pause_outside_sending', 'The pause must lie between the scheduled send date and the scheduled finish date.');
    pauses.push({ startAt, endAt, index });
  });
  const order = [...pauses].sort((a, b) => a.startAt.getTime() - b.startAt.getTime());
  for (let i = 1; i < order.length; i++) {
    if (order[i]!.startAt < order[i - 1]!.endAt) fail(`pauses.${order[i]!.index}`, 'pause_overlaps', `The pause overlaps pause ${order[i - 1]!.index + 1}.`);
  }

  if (issues.length > 0 || !send || !expiry) return { errors, issues };
  return { times: { send, expiry, finish, pauses: order.map(({ startAt, endAt }) => ({ startAt, endAt })) }, errors, issues };
}
