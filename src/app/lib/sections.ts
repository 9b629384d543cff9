import {
  IconAddressBook,
  IconBroadcast,
  IconCalendar,
  IconChartBar,
  IconFilter,
  IconGitBranch,
  IconForms,
  IconHistory,
  IconId,
  IconInbox,
  IconKey,
  IconLayoutDashboard,
  IconMessage2,
  IconMessages,
  IconRoute,
  IconSend,
  IconTemplate,
  IconUserSearch,
  IconUsers,
  IconWebhook,
  IconWorld,
  type Icon,
} from '@tabler/icons-react';
import { paths } from '../paths';
import type { Permission } from './roles';

/** A part of the product, as the navbar lists it. `available: false` until its pages are built. */
export interface Section {
  label: string;
  href: string;
  icon: Icon;
  available: boolean;
  /** Listed only for a role that may do this (the Sending page holds credentials: admins only). */
  needs?: Permission;
}

export const sections: readonly Section[] = [
  { label: 'Overview', href: paths.home.getHref(), icon: IconLayoutDashboard, available: true },
  { label: 'Campaigns', href: paths.campaigns.list.getHref(), icon: IconSend, available: true },
  { label: 'Calendar', href: paths.calendar.getHref(), icon: IconCalendar, available: true },
  { label: 'Templates', href: paths.templates.list.getHref(), icon: IconTemplate, available: true },
  { label: 'Contact groups', href: paths.contactGroups.list.getHref(), icon: IconAddressBook, available: true },
  { label: 'Contacts', href: paths.contacts.list.getHref(), icon: IconUserSearch, available: true },
  { label: 'Segments', href: paths.segments.list.getHref(), icon: IconFilter, available: true },
  { label: 'Senders', href: paths.senders.list.getHref(), icon: IconId, available: true },
  { label: 'Sending', href: paths.sending.list.getHref(), icon: IconRoute, available: true, needs: 'admin' },
  { label: 'Keywords', href: paths.keywords.list.getHref(), icon: IconMessage2, available: true },
  { label: 'Flows', href: paths.flows.list.getHref(), icon: IconGitBranch, available: true },
  { label: 'Sign-up page', href: paths.signupPage.getHref(), icon: IconForms, available: true },
  { label: 'Webhooks', href: paths.webhooks.list.getHref(), icon: IconWebhook, available: true },
  { label: 'Event endpoints', href: paths.eventEndpoints.list.getHref(), icon: IconBroadcast, available: true },
  { label: 'Inbox', href: paths.inbox.list.getHref(), icon: IconMessages, available: true },
  { label: 'Inbound messages', href: paths.inboundMessages.list.getHref(), icon: IconInbox, available: true },
  { label: 'Reports', href: paths.reports.getHref(), icon: IconChartBar, available: true },
  { label: 'Vanity domains', href: paths.vanityDomains.getHref(), icon: IconWorld, available: true },
  { label: 'Team', href: paths.team.getHref(), icon: IconUsers, available: true },
  { label: 'API tokens', href: paths.apiTokens.getHref(), icon: IconKey, available: true },
  { label: 'Audit log', href: paths.audit.getHref(), icon: IconHistory, available: true },
];

export function sectionAt(pathname: string): Section | undefined {
  return sections.find((section) => pathname === section.href || pathname.startsWith(`${section.href}/`));
}
