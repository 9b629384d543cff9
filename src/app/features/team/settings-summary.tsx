import { Box, Text } from '@mantine/core';

export interface SettingsSummaryItem {
  label: string;
  value: string;
}

/** Settings as a member without the admin role reads them: a label above each value. */
export function SettingsSummary({ items }: { items: readonly SettingsSummaryItem[] }) {
  return (
    <Box component="dl" m={0} style={{ display: 'grid', gap: 'var(--mantine-spacing-sm)' }}>
      {items.map(({ label, value }) => (
        <div key={label}>
          <Text component="dt" size="sm" fw={600}>
            {label}
          </Text>
          <Text component="dd" size="sm" m={0} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {value}
          </Text>
        </div>
      ))}
    </Box>
  );
}
