import type { EventType } from '../../../shared/contract';

export interface EventTypeGroup {
  /** The group's heading in the picker, e.g. "Messages". */
  label: string;
  /** What the group's calls carry, in one line. */
  description: string;
  types: ReadonlyArray<{ type: EventType; explanation: string }>;
}

/** Every event type an endpoint can receive, grouped as the picker shows them, each with one line on when it happens. */
export const EVENT_TYPE_GROUPS: readonly EventTypeGroup[] = [
  {
    label: 'Messages',
    description: 'One call lists the messages of a campaign that changed together.',
    types: [
      { type: 'message.submitted', explanation: 'Messages were handed to the SMS network.' },
      { type: 'message.delivered', explanation: 'Messages reached the phones.' },
      { type: 'message.failed', explanation: 'Messages could not be delivered.' },
      { type: 'message.unsent', explanation: 'Messages were never sent, e.g. the campaign expired or was stopped first.' },
      { type: 'message.failed_over', explanation: 'Messages moved on to the next SMS connection of their route after an error.' },
    ],
  },
  {
    label: 'Campaigns',
    description: 'Each carries the campaign with its counts so far.',
    types: [
      { type: 'campaign.started', explanation: 'A campaign began sending.' },
      { type: 'campaign.paused', explanation: 'Someone paused a throttled campaign.' },
      { type: 'campaign.resumed', explanation: 'Someone resumed a paused campaign.' },
      { type: 'campaign.stopped', explanation: 'Someone stopped a campaign before it finished.' },
      { type: 'campaign.finished', explanation: 'A campaign finished sending.' },
    ],
  },
  {
    label: 'Contacts',
    description: 'The number, how it happened and the campaign it answered, if any.',
    types: [
      { type: 'contact.opted_out', explanation: 'A number opted out: a STOP reply, an import or by hand.' },
      { type: 'contact.opted_in', explanation: 'A number that had opted out may receive messages again.' },
    ],
  },
  {
    label: 'Inbound',
    description: 'The message with its sender and the keyword it matched.',
    types: [{ type: 'inbound.received', explanation: 'Someone texted one of the team’s keywords or numbers.' }],
  },
  {
    label: 'Imports',
    description: 'The file, its group and how many contacts it added or changed.',
    types: [{ type: 'import.finished', explanation: 'A contact import completed or failed.' }],
  },
  {
    label: 'Reports',
    description: 'The report with a link to download its CSV.',
    types: [{ type: 'report.ready', explanation: 'A report someone asked for is ready to download.' }],
  },
];
