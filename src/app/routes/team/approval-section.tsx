import { Paper, Skeleton, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { TeamSettingsInput } from '../../../shared/contract';
import { ErrorState } from '../../components/error-state';
import { describeApprovalRule } from '../../features/team/approval-rule';
import { ApprovalRuleForm } from '../../features/team/approval-rule-form';
import { useUpdateTeamSettings } from '../../features/team/team-mutations';
import { teamQueries } from '../../features/team/team-queries';
import { notifyFailure, notifySuccess } from '../../lib/notify';

/** Which campaigns wait for another admin's approval: admins choose, everyone else reads the rule. */
export function ApprovalSection({ canChange }: { canChange: boolean }) {
  const settings = useQuery(teamQueries.settings());
  const update = useUpdateTeamSettings();

  const save = (input: TeamSettingsInput) =>
    update.mutateAsync(input, {
      onSuccess: (saved) => notifySuccess(describeApprovalRule(saved.approval_threshold)),
      onError: (error) => notifyFailure('The approval rule could not be saved', error),
    });

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="approval-title">
      <Title order={2} size="h4" id="approval-title">
        Campaign approval
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        A campaign that needs approval does not start until an admin other than the one who asked approves it. A new rule applies to campaigns created or edited
        from now on.
      </Text>
      {settings.isPending ? (
        <Skeleton height={120} radius="sm" />
      ) : settings.isError ? (
        <ErrorState title="The team’s settings could not be loaded." error={settings.error} onRetry={() => void settings.refetch()} />
      ) : canChange ? (
        <ApprovalRuleForm threshold={settings.data.approval_threshold} onSubmit={save} />
      ) : (
        <Text size="sm">
          <Text span size="sm" fw={600}>
            The rule now:{' '}
          </Text>
          {describeApprovalRule(settings.data.approval_threshold)}
        </Text>
      )}
    </Paper>
  );
}
