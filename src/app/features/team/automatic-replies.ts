import { z } from 'zod';
import type { TeamSettings, TeamSettingsInput } from '../../../shared/contract';
import { measure } from '../../../shared/sms';

export const REPLY_MAX = 612;

export type ReplyField = 'opt_out_reply' | 'opt_in_reply' | 'help_reply';
export type AutomaticRepliesValues = Pick<TeamSettings, ReplyField>;

export const REPLIES: { field: ReplyField; label: string; description: string }[] = [
  {
    field: 'opt_out_reply',
    label: 'Reply to STOP',
    description: 'Sent once to a number that opts out with STOP (or STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT).',
  },
  { field: 'opt_in_reply', label: 'Reply to START', description: 'Sent to a number that opts back in with START or UNSTOP.' },
  { field: 'help_reply', label: 'Reply to HELP', description: 'Sent to a number that texts HELP: say who you are and how to stop.' },
];

export function automaticRepliesOf(settings: AutomaticRepliesValues): AutomaticRepliesValues {
  return { opt_out_reply: settings.opt_out_reply, opt_in_reply: settings.opt_in_reply, help_reply: settings.help_reply };
}

export function automaticRepliesInput(values: AutomaticRepliesValues): Pick<TeamSettingsInput, ReplyField> {
  return { opt_out_reply: values.opt_out_reply.trim(), opt_in_reply: values.opt_in_reply.trim(), help_reply: values.help_reply.trim() };
}

/** "No reply is sent." or "1 SMS part · 42/160 characters" (Unicode parts hold fewer). */
export function replyLengthHint(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return 'Empty: no reply is sent.';
  const { segments, length, per_segment, encoding } = measure(trimmed);
  const parts = `${segments} SMS ${segments === 1 ? 'part' : 'parts'} · ${length}/${segments * per_segment} characters`;
  return encoding === 'UTF16' ? `${parts} (Unicode: ${per_segment} a part)` : parts;
}

const reply = z.string().refine((text) => text.trim().length <= REPLY_MAX, `A reply may have at most ${REPLY_MAX} characters.`);

export const automaticRepliesSchema = z.object({ opt_out_reply: reply, opt_in_reply: reply, help_reply: reply });
