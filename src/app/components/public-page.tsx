import { Anchor, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { HeraldLogo } from './herald-logo';

interface PublicPageProps {
  /** The page's one heading; also names the browser tab. */
  title: string;
  /** The browser tab's name when shorter than the heading, e.g. "Sign in". */
  tabTitle?: string;
  description?: ReactNode;
  /** A way elsewhere under the card, e.g. back to sign in. */
  footerLink?: { href: string; label: string };
  children: ReactNode;
}

/** A page for people who are not signed in (sign-in, password reset): the logo, a heading and one card. */
export function PublicPage({ title, tabTitle = title, description, footerLink, children }: PublicPageProps) {
  useDocumentTitle(`${tabTitle} · Herald`);
  return (
    <Center component="main" mih="100vh" p="md" bg="var(--herald-page)">
      <Stack w="100%" maw={420} gap="lg">
        <Stack align="center" gap={6}>
          <HeraldLogo size={40} />
          <Title order={1} size="h2" ta="center">
            {title}
          </Title>
          {description && (
            <Text c="dimmed" size="sm" ta="center">
              {description}
            </Text>
          )}
        </Stack>
        <Paper withBorder shadow="sm" p="lg" radius="md">
          {children}
        </Paper>
        {footerLink && (
          <Anchor component={Link} to={footerLink.href} size="sm" ta="center">
            {footerLink.label}
          </Anchor>
        )}
      </Stack>
    </Center>
  );
}
