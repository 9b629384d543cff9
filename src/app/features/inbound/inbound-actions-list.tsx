import { List, Text, ThemeIcon } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import type { InboundAction } from '../../api/gen/types.gen';

/** What the keyword pipeline did, in order; a failed action (e.g. a webhook refused) is marked and says why. */
export function InboundActionsList({ actions, size = 'sm' }: { actions: readonly InboundAction[]; size?: 'xs' | 'sm' }) {
  if (actions.length === 0) {
    return (
      <Text size={size} c="dimmed">
        No action
      </Text>
    );
  }
  return (
    <List spacing={4} size={size} center aria-label="Actions taken">
      {actions.map((action, index) => (
        <List.Item
          key={`${action.type}-${index}`}
          icon={
            <ThemeIcon color={action.ok ? 'teal' : 'red'} size={18} radius="xl" variant="light">
              {action.ok ? <IconCheck size={12} aria-label="Done" /> : <IconX size={12} aria-label="Failed" />}
            </ThemeIcon>
          }
        >
          <Text span size={size}>
            {action.description}
          </Text>
          {/* The service's sentence often quotes the error already; repeat it only when it does not. */}
          {!action.ok && action.error && !action.description.includes(action.error) && (
            <Text span size={size} c="red">
              {' '}
              ({action.error})
            </Text>
          )}
        </List.Item>
      ))}
    </List>
  );
}
