import type { AuditEvent } from '../../api/gen/types.gen';
import { paths } from '../../paths';

const REFUSED = '.refused';

/** The actions people look for, grouped as the filter offers them; the label is what the log shows. */
export const AUDIT_ACTION_GROUPS: readonly { group: string; actions: readonly (readonly [action: string, label: string])[] }[] = [
  {
    group: 'Sign-ins and account',
    actions: [
      ['login', 'Signed in'],
      ['loginFailed', 'Failed sign-in'],
      ['logout', 'Signed out'],
      ['deleteSession', 'Signed out'],
      ['updateCurrentUser', 'Updated profile'],
      ['changePassword', 'Changed password'],
      ['confirmPasswordReset', 'Reset password'],
    ],
  },
  {
    group: 'Team and access',
    actions: [
      ['createToken', 'Created API token'],
      ['revokeToken', 'Revoked API token'],
      ['createInvitation', 'Invited someone'],
      ['deleteInvitation', 'Withdrew invitation'],
      ['acceptInvitation', 'Joined the team'],
      ['updateMember', 'Changed member’s role'],
      ['removeMember', 'Removed member'],
      ['updateTeamSettings', 'Updated team settings'],
    ],
  },
  {
    group: 'Campaigns',
    actions: [
      ['createCampaign', 'Created campaign'],
      ['updateCampaign', 'Updated campaign'],
      ['updateCampaign.refused', 'Edit refused (locked)'],
      ['deleteCampaign', 'Deleted campaign'],
      ['deleteCampaign.refused', 'Deletion refused (locked)'],
      ['toggleCampaignPaused', 'Paused or resumed campaign'],
      ['approveCampaign', 'Approved campaign'],
      ['rejectCampaign', 'Rejected campaign'],
      ['sendTestCampaign', 'Sent test message'],
    ],
  },
  {
    group: 'Templates and links',
    actions: [
      ['createTemplate', 'Created template'],
      ['updateTemplate', 'Updated template'],
      ['updateTemplate.refused', 'Edit refused (locked)'],
      ['deleteTemplate', 'Deleted template'],
      ['createLink', 'Created tracked link'],
      ['updateLink', 'Updated tracked link'],
      ['deleteLink', 'Deleted tracked link'],
    ],
  },
  {
    group: 'Contacts',
    actions: [
      ['createContactGroup', 'Created contact group'],
      ['createContactGroupFromNumbers', 'Created contact group from numbers'],
      ['updateContactGroup', 'Updated contact group'],
      ['deleteContactGroup', 'Deleted contact group'],
      ['addContacts', 'Added contacts'],
      ['importContacts', 'Imported contacts'],
      ['removeContacts', 'Removed contacts'],
      ['flushContactGroup', 'Removed all contacts'],
    ],
  },
  {
    group: 'Senders, keywords and webhooks',
    actions: [
      ['createSender', 'Created sender'],
      ['updateSender', 'Updated sender'],
      ['deleteSender', 'Deleted sender'],
      ['createKeyword', 'Created keyword'],
      ['updateKeyword', 'Updated keyword'],
      ['deleteKeyword', 'Deleted keyword'],
      ['receiveInboundMessage', 'Tested keywords'],
      ['createWebhook', 'Created webhook'],
      ['updateWebhook', 'Updated webhook'],
      ['deleteWebhook', 'Deleted webhook'],
      ['rotateWebhookSecret', 'Replaced webhook secret'],
      ['testWebhook', 'Sent test webhook'],
      ['createVanityDomain', 'Added vanity domain'],
      ['updateVanityDomain', 'Updated vanity domain'],
      ['deleteVanityDomain', 'Deleted vanity domain'],
    ],
  },
  {
    group: 'Reports',
    actions: [
      ['requestDeliveryReport', 'E-mailed delivery report'],
      ['requestAltDeliveryReport', 'E-mailed alternative delivery report'],
      ['requestRecipientReport', 'E-mailed recipients report'],
      ['requestSentReport', 'E-mailed sent report'],
      ['requestUnsentReport', 'E-mailed unsent report'],
      ['requestClicksReport', 'E-mailed clicks report'],
    ],
  },
  {
    group: 'Exports',
    actions: [
      ['exportContactGroup', 'Exported contact group (CSV)'],
      ['exportContact', 'Downloaded a contact’s data'],
      ...(
        [
          ['Delivery', 'delivery'],
          ['AltDelivery', 'alternative delivery'],
          ['Recipient', 'recipients'],
          ['Sent', 'sent'],
          ['Unsent', 'unsent'],
          ['Clicks', 'clicks'],
        ] as const
      ).flatMap(([title, name]) => [
        [`stream${title}ReportCsv`, `Downloaded ${name} report (CSV)`] as const,
        [`stream${title}ReportNdjson`, `Downloaded ${name} report (NDJSON)`] as const,
      ]),
    ],
  },
];

const ACTION_LABELS = new Map(AUDIT_ACTION_GROUPS.flatMap(({ actions }) => actions));

/** `fooBarBaz` as "Foo bar baz": an action added to the API after this list still reads as words. */
function words(camelCase: string): string {
  const spaced = camelCase.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** What an action reads as in the log: "Updated campaign", "Signed in", "Edit refused (locked)"… */
export function actionLabel(action: string): string {
  const known = ACTION_LABELS.get(action);
  if (known) return known;
  if (action.endsWith(REFUSED)) {
    const base = action.slice(0, -REFUSED.length);
    if (base.startsWith('update')) return 'Edit refused (locked)';
    if (base.startsWith('delete')) return 'Deletion refused (locked)';
    return 'Refused (locked)';
  }
  // An operation without an operationId is recorded as `METHOD /path`: shown as it is.
  return /^[a-z][A-Za-z0-9]*$/.test(action) ? words(action) : action;
}

/** An event's label, told more precisely where its changes say more (a pause or a resume). */
export function eventLabel(event: Pick<AuditEvent, 'action' | 'changes'>): string {
  if (event.action === 'toggleCampaignPaused') {
    const paused = event.changes.manually_paused?.after;
    if (paused === true) return 'Paused campaign';
    if (paused === false) return 'Resumed campaign';
  }
  return actionLabel(event.action);
}

/** A refused edit: the log marks it so it stands out. */
export function isRefused(action: string): boolean {
  return action.endsWith(REFUSED);
}

const RESOURCE_LABELS: Record<string, string> = {
  campaign: 'Campaign',
  template: 'Template',
  link: 'Tracked link',
  contact_group: 'Contact group',
  sender: 'Sender',
  keyword: 'Keyword',
  webhook: 'Webhook',
  vanity_domain: 'Vanity domain',
  inbound_message: 'Inbound message',
  report: 'Campaign report',
  token: 'API token',
  member: 'Member',
  invitation: 'Invitation',
  team: 'Team settings',
  session: 'Sign-in',
  user: 'Account',
};

export function resourceLabel(resourceType: string): string {
  if (!resourceType) return '';
  const known = RESOURCE_LABELS[resourceType];
  if (known) return known;
  const spaced = resourceType.replace(/_/g, ' ');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** The dashboard's page of each kind of resource that has one (a report is its campaign's). */
const RESOURCE_PAGES: Record<string, (uuid: string) => string> = {
  campaign: (uuid) => paths.campaigns.detail.getHref(uuid),
  report: (uuid) => paths.campaigns.detail.getHref(uuid),
  template: (uuid) => paths.templates.edit.getHref(uuid),
  contact_group: (uuid) => paths.contactGroups.detail.getHref(uuid),
  sender: (uuid) => paths.senders.edit.getHref(uuid),
  keyword: (uuid) => paths.keywords.edit.getHref(uuid),
  webhook: (uuid) => paths.webhooks.deliveries.getHref(uuid),
};

/** The page of the event's resource, when the dashboard has one and the event did not delete it. */
export function resourceHref(event: Pick<AuditEvent, 'action' | 'resource_type' | 'resource_uuid'>): string | null {
  const page = RESOURCE_PAGES[event.resource_type];
  if (!page || !event.resource_uuid) return null;
  if (/^delete[A-Z]/.test(event.action) && !isRefused(event.action)) return null;
  return page(event.resource_uuid);
}

export const ACTOR_KIND_LABELS: Record<AuditEvent['actor']['kind'], string> = {
  user: 'Signed in',
  token: 'API token',
  anonymous: 'Not signed in',
};
