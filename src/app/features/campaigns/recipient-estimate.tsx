import { Group, Loader, Paper, Text, ThemeIcon } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { describeError } from '../../api/api-error';
import { campaignQueries } from './campaign-queries';
import { formatCount } from '../../lib/format';

/** Asks once the groups have stopped changing for this long, not per click. */
const DEBOUNCE_MS = 400;

interface RecipientEstimateProps {
  included: readonly string[];
  excluded: readonly string[];
  /** Segments are picked too (issue 35): their contacts are counted by the review, not here. */
  withSegments?: boolean;
}

/** How many distinct numbers the picked groups reach now, as the service counts them (less default_optouts). */
export function RecipientEstimate({ included, excluded, withSegments = false }: RecipientEstimateProps) {
  const [groups] = useDebouncedValue({ included: [...included].sort(), excluded: [...excluded].sort() }, DEBOUNCE_MS, { leading: true });
  const estimate = useQuery({ ...campaignQueries.estimate(groups), enabled: groups.included.length > 0 });

  return (
    <Paper withBorder radius="md" p="md" role="status" aria-label="Recipient estimate" aria-live="polite">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ThemeIcon variant="light" size="lg" radius="md" aria-hidden>
          <IconUsers size={20} />
        </ThemeIcon>
        <div>
          {included.length === 0 ? (
            <Text size="sm" c="dimmed">
              {withSegments
                ? 'The segments’ contacts are counted in the review, and again when sending starts.'
                : 'Pick the groups to send to, and Herald counts the people they reach.'}
            </Text>
          ) : estimate.isError ? (
            <Text size="sm" c="red">
              The recipients could not be counted: {describeError(estimate.error)}
            </Text>
          ) : (
            <Group gap="xs">
              <Text size="lg" fw={700} data-testid="recipient-estimate">
                {estimate.data === undefined ? 'Counting…' : `≈ ${formatCount(estimate.data)} ${estimate.data === 1 ? 'recipient' : 'recipients'}`}
              </Text>
              {estimate.isFetching && <Loader size="xs" aria-label="Counting recipients" />}
            </Group>
          )}
          <Text size="xs" c="dimmed" mt={2}>
            Distinct numbers in the included groups, less the excluded groups and default_optouts (everyone who opted out). Counted again when sending starts.
            {withSegments && included.length > 0 && ' The segments are not counted here: the review counts them with the groups.'}
          </Text>
        </div>
      </Group>
    </Paper>
  );
}
