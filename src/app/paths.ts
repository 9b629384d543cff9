/** Every URL of the dashboard, in one place: routes use `path`, links and redirects use `getHref`. */
import type { EventDelivery, ReportType } from '../shared/contract';

export interface PageParams {
  page?: number;
  perPage?: number;
}

/** The audit log's filters (`from`, `to`: `YYYY-MM-DD HH:MM:SS` in the service's zone). */
export interface AuditFilterParams {
  actor?: string;
  action?: string;
  resourceUuid?: string;
  from?: string;
  to?: string;
}

function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') search.set(name, String(value));
  }
  const queryString = search.toString();
  return queryString ? `${path}?${queryString}` : path;
}

function listPath(path: string) {
  return {
    path,
    getHref: ({ page, perPage }: PageParams = {}) => withQuery(path, { page, per_page: perPage }),
  };
}

export const paths = {
  /** The overview: `days` (7, 30 or 90) ends today; `from` and `to` (`YYYY-MM-DD`) choose the days themselves. */
  home: {
    path: '/',
    getHref: ({ days, from, to }: { days?: number; from?: string; to?: string } = {}) => withQuery('/', { days, from, to }),
  },
  signIn: {
    path: '/sign-in',
    /** `redirectTo` is where to go back once signed in (a path of this dashboard). */
    getHref: (redirectTo?: string) => withQuery('/sign-in', { redirect: redirectTo }),
  },
  /** Public: asks for a password reset link by e-mail. */
  forgotPassword: { path: '/forgot-password', getHref: () => '/forgot-password' },
  /** Public: the e-mailed link, `/reset-password#<secret>` (the secret stays out of requests and logs). */
  resetPassword: { path: '/reset-password', getHref: () => '/reset-password' },
  profile: { path: '/profile', getHref: () => '/profile' },
  senders: {
    list: listPath('/senders'),
    new: { path: '/senders/new', getHref: () => '/senders/new' },
    edit: {
      path: '/senders/:uuid/edit',
      getHref: (uuid: string) => `/senders/${encodeURIComponent(uuid)}/edit`,
    },
  },
  apiTokens: listPath('/api-tokens'),
  /** The team's audit log; the filters are in the URL, with the same names as the API's. */
  audit: {
    path: '/audit',
    getHref: ({ page, perPage, actor, action, resourceUuid, from, to }: PageParams & AuditFilterParams = {}) =>
      withQuery('/audit', { actor, action, resource_uuid: resourceUuid, from, to, page, per_page: perPage }),
  },
  /** The team's members (their page in the URL), invitations and settings. */
  team: listPath('/team'),
  /** Public: the e-mailed link, `/invitation#<secret>` (the fragment is not sent with the page's request). */
  invitation: { path: '/invitation', getHref: () => '/invitation' },
  templates: {
    list: listPath('/templates'),
    new: { path: '/templates/new', getHref: () => '/templates/new' },
    edit: {
      path: '/templates/:uuid',
      getHref: (uuid: string) => `/templates/${encodeURIComponent(uuid)}`,
    },
  },
  keywords: {
    list: listPath('/keywords'),
    new: { path: '/keywords/new', getHref: () => '/keywords/new' },
    edit: {
      path: '/keywords/:uuid/edit',
      getHref: (uuid: string) => `/keywords/${encodeURIComponent(uuid)}/edit`,
    },
  },
  webhooks: {
    list: listPath('/webhooks'),
    /** A webhook's deliveries: every call made to it. */
    deliveries: {
      path: '/webhooks/:uuid',
      getHref: (uuid: string, { page, perPage }: PageParams = {}) => withQuery(`/webhooks/${encodeURIComponent(uuid)}`, { page, per_page: perPage }),
    },
  },
  eventEndpoints: {
    list: listPath('/event-endpoints'),
    /**
     * An event endpoint: its settings and its deliveries (`status` filters them, `page`, `perPage` their
     * page); `delivery` opens one with its body and attempts. Herald's e-mail about an endpoint it disabled links here.
     */
    detail: {
      path: '/event-endpoints/:uuid',
      getHref: (uuid: string, { page, perPage, status, delivery }: PageParams & { status?: EventDelivery['status']; delivery?: string } = {}) =>
        withQuery(`/event-endpoints/${encodeURIComponent(uuid)}`, { status, delivery, page, per_page: perPage }),
    },
  },
  vanityDomains: listPath('/vanity-domains'),
  /** The team's hosted sign-up page: its settings and public addresses. */
  signupPage: listPath('/signup-page'),
  /** The team's SMS connections (admins only) and its routes. */
  sending: {
    list: listPath('/sending'),
    /** One connection: its state, settings, callback URLs and test send. */
    connection: {
      path: '/sending/connections/:uuid',
      getHref: (uuid: string) => `/sending/connections/${encodeURIComponent(uuid)}`,
    },
  },
  campaigns: {
    list: {
      path: '/campaigns',
      /** `status` 0, 1 or 2 shows only campaigns in that state. */
      getHref: ({ page, perPage, status }: PageParams & { status?: number } = {}) => withQuery('/campaigns', { status, page, per_page: perPage }),
    },
    new: { path: '/campaigns/new', getHref: () => '/campaigns/new' },
    detail: {
      path: '/campaigns/:uuid',
      /** `report` opens that report's tab of the campaign's reports (`page`, `perPage` its page; `status`, `reason`, `search` its filters). */
      getHref: (
        uuid: string,
        { report, page, perPage, status, reason, search }: PageParams & { report?: ReportType; status?: string; reason?: string; search?: string } = {},
      ) => withQuery(`/campaigns/${encodeURIComponent(uuid)}`, { report, status, reason, search, page, per_page: perPage }),
    },
  },
  /** Campaigns by their send date, a month or a week at a time. */
  calendar: { path: '/calendar', getHref: () => '/calendar' },
  contactGroups: {
    list: listPath('/contact-groups'),
    detail: {
      path: '/contact-groups/:uuid',
      getHref: (uuid: string, { page, perPage, search }: PageParams & { search?: string } = {}) =>
        withQuery(`/contact-groups/${encodeURIComponent(uuid)}`, { search, page, per_page: perPage }),
    },
  },
  /** The team's segments: contacts picked by conditions over their fields, groups, country and behaviour. */
  segments: {
    list: listPath('/segments'),
    new: { path: '/segments/new', getHref: () => '/segments/new' },
    /** The builder of a saved segment, its live count and its contacts (`page`, `perPage` their page). */
    detail: {
      path: '/segments/:uuid',
      getHref: (uuid: string, { page, perPage }: PageParams = {}) => withQuery(`/segments/${encodeURIComponent(uuid)}`, { page, per_page: perPage }),
    },
  },
  /** The team's flows: automations that walk one number through steps (docs/flows.md). */
  flows: {
    list: listPath('/flows'),
    new: { path: '/flows/new', getHref: () => '/flows/new' },
    /** A flow's step editor with each step's counts, its test run and its runs. */
    detail: { path: '/flows/:uuid', getHref: (uuid: string) => `/flows/${encodeURIComponent(uuid)}` },
  },
  /** The team's contacts across its groups, by number (`search`: digits of the number, or text of a field's value). */
  contacts: {
    list: {
      path: '/contacts',
      getHref: ({ page, perPage, search }: PageParams & { search?: string } = {}) => withQuery('/contacts', { search, page, per_page: perPage }),
    },
    /** Everything the team holds about one number (E.164 digits, as the API gives it). */
    detail: {
      path: '/contacts/:phoneNumber',
      getHref: (phoneNumber: string) => `/contacts/${encodeURIComponent(phoneNumber)}`,
    },
  },
  /** The inbox: the conversations, and one of them open beside the list (E.164 digits, as the API gives them). */
  inbox: {
    list: { path: '/inbox', getHref: () => '/inbox' },
    conversation: { path: '/inbox/:phoneNumber', getHref: (phoneNumber: string) => `/inbox/${encodeURIComponent(phoneNumber)}` },
  },
  inboundMessages: {
    list: listPath('/inbound-messages'),
    /** The keyword tester sits at the top of the inbound messages page. */
    keywordTester: { getHref: () => '/inbound-messages#keyword-tester' },
  },
  /** The team's campaigns with their figures; `compare` names the two set side by side. */
  reports: {
    path: '/reports',
    getHref: ({ page, perPage, compare }: PageParams & { compare?: readonly string[] } = {}) =>
      withQuery('/reports', { compare: compare?.length ? compare.join(',') : undefined, page, per_page: perPage }),
  },
} as const;

/** Only a path of this dashboard is a safe place to return to after sign-in (never another site). */
export function safeRedirect(target: string | null): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith(paths.signIn.path)) {
    return paths.home.getHref();
  }
  return target;
}
