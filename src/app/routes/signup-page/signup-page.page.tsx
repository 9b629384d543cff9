import { Alert, Anchor, Badge, Group, List, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconExternalLink, IconShieldCheck } from '@tabler/icons-react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { RoleNotice } from '../../features/auth/role-notice';
import { useTeamRole } from '../../features/auth/use-team-role';
import { contactGroupQueries } from '../../features/contact-groups/contact-group-queries';
import { EMPTY_SIGNUP_PAGE, SignupPageForm } from '../../features/signup-page/signup-page-form';
import { useSaveSignupPage } from '../../features/signup-page/signup-page-mutations';
import { signupPageQueries } from '../../features/signup-page/signup-page-queries';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { currentOrigin } from '../../lib/session';

export function prefetch(queryClient: QueryClient) {
  void queryClient.prefetchQuery(signupPageQueries.current());
  void queryClient.prefetchQuery(contactGroupQueries.picker());
}

export default function SignupPagePage() {
  const page = useQuery(signupPageQueries.current());
  const groups = useQuery(contactGroupQueries.picker());
  const saving = useSaveSignupPage();
  const canChange = useTeamRole().can('admin');

  const saved = page.data ?? null;
  const origin = saved ? saved.urls[0]!.replace(/\/join\/[^/]+$/, '') : currentOrigin();
  // The opt-out list is no group to join; the saved group stays named even when it is past the picker's first page.
  const groupOptions = (groups.data ?? []).filter((group) => group.deletable).map((group) => ({ value: group.uuid, label: group.name }));
  if (saved?.group_uuid && !groupOptions.some((option) => option.value === saved.group_uuid))
    groupOptions.unshift({ value: saved.group_uuid, label: 'The saved group' });

  return (
    <>
      <PageHeader
        title="Sign-up page"
        description="A web page of your own where people ask for your text messages. It works on any phone, without an app or JavaScript."
      />
      <RoleNotice needs="admin" subject="the sign-up page" />
      <Stack gap="lg">
        <Alert color="teal" variant="light" icon={<IconShieldCheck />} title="Every sign-up is confirmed by text">
          The page always uses double opt-in: each number is texted “reply YES to confirm” and joins your group only after its YES (within 48 hours). We
          recommend double opt-in for your keywords too (Team settings): it is the consent regulators expect you to be able to prove.
        </Alert>
        {page.isPending || groups.isPending ? (
          <Skeleton height={480} radius="md" />
        ) : page.isError ? (
          <ErrorState title="The sign-up page could not be loaded." error={page.error} onRetry={() => void page.refetch()} />
        ) : (
          <>
            {saved && (
              <Paper withBorder p="lg" radius="md">
                <Stack gap="xs">
                  <Group gap="sm">
                    <Title order={2} size="h4">
                      Where your page is
                    </Title>
                    <Badge color={saved.enabled ? 'teal' : 'gray'} variant="light">
                      {saved.enabled ? 'On' : 'Off'}
                    </Badge>
                  </Group>
                  {!saved.enabled && (
                    <Text size="sm" c="dimmed">
                      The page is off: visitors see “Page not found” until you turn it on.
                    </Text>
                  )}
                  {saved.group_uuid === null && (
                    <Text size="sm" c="red">
                      Its group was deleted: choose another group to put the page back.
                    </Text>
                  )}
                  <List spacing={4} size="sm">
                    {saved.urls.map((url) => (
                      <List.Item key={url}>
                        <Anchor href={url} target="_blank" rel="noopener noreferrer" style={{ overflowWrap: 'anywhere' }}>
                          {url}
                          <IconExternalLink size={14} style={{ marginLeft: 4, verticalAlign: 'middle' }} aria-label="(opens in a new tab)" />
                        </Anchor>
                      </List.Item>
                    ))}
                  </List>
                </Stack>
              </Paper>
            )}
            <Paper withBorder p="lg" radius="md">
              <SignupPageForm
                key={saved?.updated_at ?? 'new'}
                defaultValues={
                  saved
                    ? {
                        slug: saved.slug,
                        enabled: saved.enabled,
                        heading: saved.heading,
                        consent_text: saved.consent_text,
                        frequency_text: saved.frequency_text,
                        group_uuid: saved.group_uuid ?? '',
                        ask_first_name: saved.ask_first_name,
                      }
                    : EMPTY_SIGNUP_PAGE
                }
                groups={groupOptions}
                origin={origin}
                canChange={canChange}
                onSubmit={(input) =>
                  saving.mutateAsync(input, {
                    onSuccess: () => notifySuccess('The sign-up page was saved.'),
                    onError: (error) => notifyFailure('The sign-up page could not be saved', error),
                  })
                }
              />
            </Paper>
          </>
        )}
      </Stack>
    </>
  );
}
