import { Alert, Box, Button, Group, List, Loader, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorState } from '../../components/error-state';
import { templateQueries } from './template-queries';

/** The saved template rendered by the service (real link domains, a contact's fields), with its warnings. */
export function ServerPreview({ templateUuid }: { templateUuid: string }) {
  const [phoneInput, setPhoneInput] = useState('');
  const [phoneNumber, setPhoneNumber] = useState('');
  const preview = useQuery(templateQueries.preview(templateUuid, phoneNumber));

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        The last saved version, rendered by Herald as it will be sent. Save your changes to see them here.
      </Text>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setPhoneNumber(phoneInput.trim());
        }}
      >
        <Group align="flex-end" gap="xs" wrap="nowrap">
          <TextInput
            label="Contact's phone number"
            description="Optional: fill the fields from this contact."
            placeholder="+447700900123"
            autoComplete="off"
            value={phoneInput}
            onChange={(event) => setPhoneInput(event.currentTarget.value)}
            style={{ flex: 1 }}
          />
          <Button type="submit" variant="default" leftSection={<IconRefresh size={16} />} loading={preview.isFetching}>
            Preview
          </Button>
        </Group>
      </form>
      {preview.isPending ? (
        <Group justify="center" p="lg">
          <Loader size="sm" aria-label="Loading the server preview" />
        </Group>
      ) : preview.isError ? (
        <ErrorState title="The preview could not be made." error={preview.error} onRetry={() => void preview.refetch()} />
      ) : (
        <>
          <Paper withBorder radius="lg" p="md" bg="var(--herald-phone-screen)" aria-label="Server preview" role="region">
            <Box
              bg="var(--herald-phone-bubble)"
              p="sm"
              style={{ borderRadius: '18px 18px 18px 4px', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', boxShadow: 'var(--mantine-shadow-xs)' }}
            >
              <Text size="sm" component="div" data-testid="server-preview-body">
                {preview.data.body}
              </Text>
            </Box>
          </Paper>
          {preview.data.warnings.length > 0 && (
            <Alert color="yellow" variant="light" p="sm" icon={<IconAlertTriangle size={18} />} title="Warnings">
              <List size="sm" spacing={2}>
                {preview.data.warnings.map((warning) => (
                  <List.Item key={warning}>{warning}</List.Item>
                ))}
              </List>
            </Alert>
          )}
        </>
      )}
    </Stack>
  );
}
