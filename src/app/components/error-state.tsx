import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { describeError } from '../api/api-error';

interface ErrorStateProps {
  /** What could not be done, e.g. "The senders could not be loaded." */
  title: string;
  error: unknown;
  onRetry?: () => void;
}

export function ErrorState({ title, error, onRetry }: ErrorStateProps) {
  return (
    <Alert color="red" variant="light" title={title} icon={<IconAlertTriangle />}>
      <Text size="sm">{describeError(error)}</Text>
      {onRetry && (
        <Group mt="sm">
          <Button size="xs" variant="white" color="red" leftSection={<IconRefresh size={14} />} onClick={onRetry}>
            Try again
          </Button>
        </Group>
      )}
    </Alert>
  );
}
