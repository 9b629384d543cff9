import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '../../components/page-header';
import { useChangePassword, useUpdateProfile } from '../../features/auth/account-mutations';
import { currentUserQueries } from '../../features/auth/current-user-queries';
import { ChangePasswordForm } from '../../features/profile/change-password-form';
import { ProfileNameForm } from '../../features/profile/profile-name-form';
import { ROLE_LABELS } from '../../lib/roles';
import { notifySuccess } from '../../lib/notify';

export default function ProfilePage() {
  // The shell shows a page only once the user is loaded.
  const { data: user } = useQuery(currentUserQueries.me());
  const updateProfile = useUpdateProfile();
  const changePassword = useChangePassword();

  if (!user) return null;
  return (
    <>
      <PageHeader
        title="Your profile"
        description={`Signed in as ${user.email}, ${ROLE_LABELS[user.current_team.role].toLowerCase()} of ${user.current_team.name}.`}
      />
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        <Paper withBorder p="lg" radius="md">
          <Stack gap="md">
            <div>
              <Title order={2} size="h4">
                Name
              </Title>
              <Text size="sm" c="dimmed">
                How your team sees you. The e-mail address you sign in with cannot be changed here.
              </Text>
            </div>
            <ProfileNameForm
              name={user.name}
              onSubmit={(input) => updateProfile.mutateAsync(input, { onSuccess: (saved) => notifySuccess(`Your name is now ${saved.name}.`) })}
            />
          </Stack>
        </Paper>
        <Paper withBorder p="lg" radius="md">
          <Stack gap="md">
            <div>
              <Title order={2} size="h4">
                Password
              </Title>
              <Text size="sm" c="dimmed">
                Changing it signs you out everywhere else in the dashboard; API tokens keep working.
              </Text>
            </div>
            <ChangePasswordForm onSubmit={(input) => changePassword.mutateAsync(input)} />
          </Stack>
        </Paper>
      </SimpleGrid>
    </>
  );
}
