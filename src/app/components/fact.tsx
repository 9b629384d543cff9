import { Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One labelled value of a summary (a group's counts, an endpoint's settings): a small caps label over the value. */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={4} miw={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      {children}
    </Stack>
  );
}
