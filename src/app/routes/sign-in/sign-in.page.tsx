import { Center, Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconKey, IconMail } from '@tabler/icons-react';
import { Navigate, useSearchParams } from 'react-router';
import { HeraldLogo } from '../../components/herald-logo';
import { PasswordSignInForm } from '../../features/auth/password-sign-in-form';
import { TokenSignInForm } from '../../features/auth/token-sign-in-form';
import { useSession } from '../../lib/session';
import { safeRedirect } from '../../paths';

export default function SignInPage() {
  useDocumentTitle('Sign in · Herald');
  const session = useSession();
  const [searchParams] = useSearchParams();
  const returnTo = safeRedirect(searchParams.get('redirect'));

  // Signing in starts the session, and this sends the user back where they were going.
  if (session) return <Navigate to={returnTo} replace />;

  return (
    <Center mih="100vh" p="md" bg="var(--mantine-color-gray-0)">
      <Stack w="100%" maw={420} gap="lg">
        <Stack align="center" gap={6}>
          <HeraldLogo size={40} />
          <Title order={1} size="h2">
            Sign in to Herald
          </Title>
          <Text c="dimmed" size="sm">
            SMS campaigns, from template to report.
          </Text>
        </Stack>
        <Paper withBorder shadow="sm" p="lg" radius="md">
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
        </Paper>
      </Stack>
    </Center>
  );
}
