import { Alert, Badge, Box, Group, List, Loader, Paper, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { measure } from '../../../shared/sms';
import { ErrorState } from '../../components/error-state';
import { encodingLabel } from '../../features/templates/encoding-badge';
import { templateQueries } from '../../features/templates/template-queries';

/** The picked template as Herald renders it (real short links; fields blank without a contact). */
export function CampaignTemplatePreview({ templateUuid, sender }: { templateUuid: string; sender: string }) {
  const preview = useQuery(templateQueries.preview(templateUuid, ''));
  if (preview.isPending) {
    return (
      <Group justify="center" p="lg">
        <Loader size="sm" aria-label="Loading the message preview" />
      </Group>
    );
  }
  if (preview.isError) return <ErrorState title="The message preview could not be made." error={preview.error} onRetry={() => void preview.refetch()} />;
  const measurement = measure(preview.data.body);
  return (
    <Paper withBorder radius="lg" p="md" bg="var(--herald-phone-screen)" role="region" aria-label="Message preview">
      <Group justify="space-between" mb="sm">
        <Text size="sm" fw={600}>
          {sender.trim() || preview.data.sender}
        </Text>
        <Group gap={6}>
          <Badge variant="light" color="gray" size="sm">
            {encodingLabel(measurement.encoding)}
          </Badge>
          <Badge variant="light" size="sm">
            {measurement.segments} {measurement.segments === 1 ? 'segment' : 'segments'}
          </Badge>
        </Group>
      </Group>
      <Box
        bg="var(--herald-phone-bubble)"
        p="sm"
        style={{ borderRadius: '18px 18px 18px 4px', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', boxShadow: 'var(--mantine-shadow-xs)' }}
      >
        <Text size="sm" component="div" data-testid="campaign-message-preview">
          {preview.data.body}
        </Text>
      </Box>
      {preview.data.warnings.length > 0 && (
        <Alert color="yellow" variant="light" p="xs" mt="sm" icon={<IconAlertTriangle size={16} />}>
          <List size="xs" spacing={2}>
            {preview.data.warnings.map((warning) => (
              <List.Item key={warning}>{warning}</List.Item>
            ))}
          </List>
        </Alert>
      )}
    </Paper>
  );
}
