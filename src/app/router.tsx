import { Center, Loader } from '@mantine/core';
import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { currentUserQueries } from './features/auth/current-user-queries';
import { toRoute } from './lib/page-module';
import { getSession } from './lib/session';
import { paths } from './paths';
import { RouteError } from './routes/route-error';

/** Every page is its own chunk (route-level code splitting); the first paint only needs the router and Mantine. */
export function createRoutes(queryClient: QueryClient): RouteObject[] {
  const page = toRoute(queryClient);
  return [
    {
      errorElement: <RouteError />,
      hydrateFallbackElement: (
        <Center mih="100vh">
          <Loader aria-label="Loading Herald" />
        </Center>
      ),
      children: [
        { path: paths.signIn.path, lazy: () => import('./routes/sign-in/sign-in.page').then(page) },
        { path: paths.invitation.path, lazy: () => import('./routes/invitation/invitation.page').then(page) },
        { path: paths.forgotPassword.path, lazy: () => import('./routes/password-reset/forgot-password.page').then(page) },
        { path: paths.resetPassword.path, lazy: () => import('./routes/password-reset/reset-password.page').then(page) },
        {
          path: paths.home.path,
          // Every page waits for the signed-in user: ask for it while the shell's code is still loading.
          loader: () => {
            if (getSession()) void queryClient.prefetchQuery(currentUserQueries.me());
            return null;
          },
          lazy: () => import('./routes/shell/app-shell.layout').then(({ default: Component }) => ({ Component })),
          children: [
            { index: true, lazy: () => import('./routes/overview/overview.page').then(page) },
            { path: paths.campaigns.list.path, lazy: () => import('./routes/campaigns/campaigns-list.page').then(page) },
            { path: paths.campaigns.new.path, lazy: () => import('./routes/campaigns/campaign-new.page').then(page) },
            { path: paths.campaigns.detail.path, lazy: () => import('./routes/campaigns/campaign.page').then(page) },
            { path: paths.calendar.path, lazy: () => import('./routes/calendar/calendar.page').then(page) },
            { path: paths.senders.list.path, lazy: () => import('./routes/senders/senders-list.page').then(page) },
            { path: paths.senders.new.path, lazy: () => import('./routes/senders/sender-new.page').then(page) },
            { path: paths.senders.edit.path, lazy: () => import('./routes/senders/sender-edit.page').then(page) },
            { path: paths.templates.list.path, lazy: () => import('./routes/templates/templates-list.page').then(page) },
            { path: paths.templates.new.path, lazy: () => import('./routes/templates/template-new.page').then(page) },
            { path: paths.templates.edit.path, lazy: () => import('./routes/templates/template-edit.page').then(page) },
            { path: paths.keywords.list.path, lazy: () => import('./routes/keywords/keywords-list.page').then(page) },
            { path: paths.keywords.new.path, lazy: () => import('./routes/keywords/keyword-new.page').then(page) },
            { path: paths.keywords.edit.path, lazy: () => import('./routes/keywords/keyword-edit.page').then(page) },
            { path: paths.webhooks.list.path, lazy: () => import('./routes/webhooks/webhooks.page').then(page) },
            {
              path: paths.webhooks.deliveries.path,
              lazy: () => import('./routes/webhooks/webhook-deliveries.page').then(page),
            },
            {
              path: paths.eventEndpoints.list.path,
              lazy: () => import('./routes/event-endpoints/event-endpoints.page').then(page),
            },
            {
              path: paths.eventEndpoints.detail.path,
              lazy: () => import('./routes/event-endpoints/event-endpoint.page').then(page),
            },
            {
              path: paths.contactGroups.list.path,
              lazy: () => import('./routes/contact-groups/contact-groups-list.page').then(page),
            },
            {
              path: paths.contactGroups.detail.path,
              lazy: () => import('./routes/contact-groups/contact-group.page').then(page),
            },
            { path: paths.segments.list.path, lazy: () => import('./routes/segments/segments-list.page').then(page) },
            { path: paths.segments.new.path, lazy: () => import('./routes/segments/segment-new.page').then(page) },
            { path: paths.segments.detail.path, lazy: () => import('./routes/segments/segment.page').then(page) },
            { path: paths.flows.list.path, lazy: () => import('./routes/flows/flows-list.page').then(page) },
            { path: paths.flows.new.path, lazy: () => import('./routes/flows/flow-new.page').then(page) },
            { path: paths.flows.detail.path, lazy: () => import('./routes/flows/flow.page').then(page) },
            { path: paths.contacts.list.path, lazy: () => import('./routes/contacts/contacts-list.page').then(page) },
            { path: paths.contacts.detail.path, lazy: () => import('./routes/contacts/contact.page').then(page) },
            { path: paths.inbox.list.path, lazy: () => import('./routes/inbox/inbox.page').then(page) },
            { path: paths.inbox.conversation.path, lazy: () => import('./routes/inbox/inbox.page').then(page) },
            {
              path: paths.inboundMessages.list.path,
              lazy: () => import('./routes/inbound-messages/inbound-messages.page').then(page),
            },
            { path: paths.sending.list.path, lazy: () => import('./routes/sending/sending.page').then(page) },
            { path: paths.sending.connection.path, lazy: () => import('./routes/sending/sms-connection.page').then(page) },
            { path: paths.vanityDomains.path, lazy: () => import('./routes/vanity-domains/vanity-domains.page').then(page) },
            { path: paths.signupPage.path, lazy: () => import('./routes/signup-page/signup-page.page').then(page) },
            { path: paths.team.path, lazy: () => import('./routes/team/team.page').then(page) },
            { path: paths.apiTokens.path, lazy: () => import('./routes/api-tokens/api-tokens.page').then(page) },
            { path: paths.audit.path, lazy: () => import('./routes/audit/audit.page').then(page) },
            { path: paths.reports.path, lazy: () => import('./routes/reports/reports.page').then(page) },
            { path: paths.profile.path, lazy: () => import('./routes/profile/profile.page').then(page) },
            { path: '*', lazy: () => import('./routes/not-found.page').then(page) },
          ],
        },
      ],
    },
  ];
}

export function createAppRouter(queryClient: QueryClient) {
  return createBrowserRouter(createRoutes(queryClient));
}
