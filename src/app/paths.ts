/** Every URL of the dashboard, in one place: routes use `path`, links and redirects use `getHref`. */

export interface PageParams {
  page?: number;
  perPage?: number;
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

function unavailablePath(path: string) {
  return { path, getHref: () => path };
}

export const paths = {
  home: { path: '/', getHref: () => '/' },
  signIn: {
    path: '/sign-in',
    /** `redirectTo` is where to go back once signed in (a path of this dashboard). */
    getHref: (redirectTo?: string) => withQuery('/sign-in', { redirect: redirectTo }),
  },
  senders: {
    list: listPath('/senders'),
    new: { path: '/senders/new', getHref: () => '/senders/new' },
    edit: {
      path: '/senders/:uuid/edit',
      getHref: (uuid: string) => `/senders/${encodeURIComponent(uuid)}/edit`,
    },
  },
  apiTokens: listPath('/api-tokens'),
  campaigns: unavailablePath('/campaigns'),
  templates: unavailablePath('/templates'),
  contactGroups: unavailablePath('/contact-groups'),
  keywords: unavailablePath('/keywords'),
  webhooks: unavailablePath('/webhooks'),
  inboundMessages: unavailablePath('/inbound-messages'),
  reports: unavailablePath('/reports'),
  vanityDomains: unavailablePath('/vanity-domains'),
} as const;

/** Only a path of this dashboard is a safe place to return to after sign-in (never another site). */
export function safeRedirect(target: string | null): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith(paths.signIn.path)) {
    return paths.home.getHref();
  }
  return target;
}
