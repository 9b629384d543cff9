import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { CurrentUser } from '../../api/gen/types.gen';
import { PageHeader } from '../../components/page-header';
import { useChangePassword, useUpdateProfile } from '../../features/auth/account-mutations';
import { currentUserQueries } from '../../features/auth/current-user-queries';
import { ChangePasswordForm } from '../../features/profile/change-password-form';
import { ProfileForm } from '../../features/profile/profile-form';
import { ROLE_LABELS } from '../../lib/roles';
import { notifySuccess } from '../../lib/notify';

function describeProfile({ name, phone_number }: CurrentUser): string {
  return `Your name is ${name}; ${phone_number ? `test sends go to +${phone_number}` : 'you have no phone number for test sends'}.`;
}

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
                Name and phone number
              </Title>
              <Text size="sm" c="dimmed">
                How your team sees you, and where your test messages go. The e-mail address you sign in with cannot be changed here.
              </Text>
            </div>
            <ProfileForm user={user} onSubmit={(input) => updateProfile.mutateAsync(input, { onSuccess: (saved) => notifySuccess(describeProfile(saved)) })} />
          </Stack>
        </Paper>
        <Paper withBorder p="lg" radius="md">
          <Stack gap="md">
            <div>
              <Title order={2} size="h4">
                Password
              </Title>
              <Text size="sm" c="dimmed">
                Changing it signs you out everywhere else in the dashboard; API tokens keep working unless you choose to revoke them.
              </Text>
            </div>
            <ChangePasswordForm onSubmit={(input) => changePassword.mutateAsync(input)} />
          </Stack>
        </Paper>
      </SimpleGrid>
    </>
  );
}
