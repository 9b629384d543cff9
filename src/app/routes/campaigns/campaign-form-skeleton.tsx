import { Paper, Skeleton, Stack } from '@mantine/core';

export function CampaignFormSkeleton() {
  return (
    <Paper withBorder p="lg" radius="md" aria-busy="true" aria-label="Loading">
      <Stack maw={640}>
        <Skeleton height={14} width="30%" />
        <Skeleton height={36} />
        <Skeleton height={36} />
        <Skeleton height={36} />
        <Skeleton height={80} />
      </Stack>
    </Paper>
  );
}
