import { Alert, Tabs } from '@mantine/core';
import { IconCircleCheck, IconKey, IconMail } from '@tabler/icons-react';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { PublicPage } from '../../components/public-page';
import { PasswordSignInForm } from '../../features/auth/password-sign-in-form';
import { TokenSignInForm } from '../../features/auth/token-sign-in-form';
import { useSession } from '../../lib/session';
import { safeRedirect } from '../../paths';

/** What another page hands over when it sends the user here, e.g. after a password reset. */
export interface SignInState {
  notice?: string;
}

export default function SignInPage() {
  const session = useSession();
  const [searchParams] = useSearchParams();
  const returnTo = safeRedirect(searchParams.get('redirect'));
  const notice = (useLocation().state as SignInState | null)?.notice;

  // Signing in starts the session, and this sends the user back where they were going.
  if (session) return <Navigate to={returnTo} replace />;

  return (
    <PublicPage title="Sign in to Herald" tabTitle="Sign in" description="SMS campaigns, from template to report.">
      {typeof notice === 'string' && (
        <Alert color="teal" variant="light" icon={<IconCircleCheck />} role="status" mb="lg">
          {notice}
        </Alert>
      )}
      <Tabs defaultValue="password" keepMounted={false}>
        <Tabs.List mb="lg">
          <Tabs.Tab value="password" leftSection={<IconMail size={16} />}>
            E-mail and password
          </Tabs.Tab>
          <Tabs.Tab value="token" leftSection={<IconKey size={16} />}>
            API token
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="password">
          <PasswordSignInForm />
        </Tabs.Panel>
        <Tabs.Panel value="token">
          <TokenSignInForm />
        </Tabs.Panel>
      </Tabs>
    </PublicPage>
  );
}
