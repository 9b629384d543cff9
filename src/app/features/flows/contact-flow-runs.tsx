import { Badge, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { isApiError } from '../../api/api-error';
import { ErrorState } from '../../components/error-state';
import { formatCount } from '../../lib/format';
import { flowQueries } from './flow-queries';
import { FlowRunList } from './flow-runs';

/** The contact page's Flows section: the number's runs of the team's flows, newest first, each with its history. */
export function ContactFlowRuns({ phoneNumber }: { phoneNumber: string }) {
  const runs = useQuery(flowQueries.contactRuns(phoneNumber));
  const headingId = useId();
  // A 404 says the team holds nothing about the number: no runs either.
  const notHeld = runs.isError && isApiError(runs.error) && runs.error.status === 404;
  const total = runs.data?.meta.total ?? 0;
  return (
    <Stack component="section" aria-labelledby={headingId} gap="xs" mb="xl">
      <Group gap="xs">
        <Title order={2} size="h4" id={headingId}>
          Flows
        </Title>
        {runs.data && (
          <Badge variant="light" color="gray" aria-label={`${total} in all`}>
            {formatCount(total)}
          </Badge>
        )}
      </Group>
      {runs.isPending ? (
        <Skeleton height={80} radius="md" />
      ) : runs.isError && !notHeld ? (
        <ErrorState title="The number’s flow runs could not be loaded." error={runs.error} onRetry={() => void runs.refetch()} />
      ) : total === 0 || notHeld ? (
        <Paper withBorder radius="md" p="md">
          <Text size="sm" c="dimmed">
            No flow has run for this number.
          </Text>
        </Paper>
      ) : (
        <>
          <FlowRunList runs={runs.data!.data} show="flow" />
          {runs.data!.data.length < total && (
            <Text size="sm" c="dimmed">
              The newest {formatCount(runs.data!.data.length)} of {formatCount(total)} runs.
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}
