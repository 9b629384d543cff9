import { Alert, Button, Code, Group, Paper, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck, IconSend } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { describeError, isApiError } from '../../api/api-error';
import type { SmsConnection } from '../../api/gen/types.gen';
import { useTestSmsConnection } from './sms-connection-mutations';

/** Why a test send failed, in one sentence: the provider's refusal (422) or that it could not take the message (502). */
function failureOf(error: unknown): { title: string; message: string; field?: string } {
  if (isApiError(error) && error.status === 422) {
    const [field, messages] = Object.entries(error.fieldErrors)[0] ?? [];
    return { title: 'The provider refused the test message', message: error.message, field: field === 'phone_number' ? messages?.[0] : undefined };
  }
  if (isApiError(error) && error.status === 502) return { title: 'The provider could not take the test message', message: error.message };
  return { title: 'The test message could not be sent', message: describeError(error) };
}

/** One message to a number through this connection only: the provider's message id, or its error. */
export function SmsConnectionTestSend({ connection }: { connection: SmsConnection }) {
  const [phoneNumber, setPhoneNumber] = useState('');
  const test = useTestSmsConnection(connection.uuid);
  const failure = test.isError ? failureOf(test.error) : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    test.mutate(phoneNumber.trim());
  };

  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="sms-connection-test">
      <Title order={2} size="h4" id="sms-connection-test" mb={4}>
        Send a test message
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Sends “A test message from Herald.” from {connection.senders[0] ? <strong>{connection.senders[0]}</strong> : 'the first sender'} through this connection
        only, now. The provider may charge for it.
      </Text>
      <form onSubmit={submit} noValidate>
        <Group align="flex-start" gap="sm">
          <TextInput
            label="Phone number"
            description="In international form, e.g. +447700900123."
            type="tel"
            autoComplete="off"
            value={phoneNumber}
            onChange={(event) => setPhoneNumber(event.currentTarget.value)}
            error={failure?.field}
            style={{ flex: '1 1 16rem' }}
          />
          <Button type="submit" leftSection={<IconSend size={16} />} loading={test.isPending} disabled={phoneNumber.trim() === ''} mt={{ base: 0, xs: 46 }}>
            Send test message
          </Button>
        </Group>
      </form>
      <div aria-live="polite">
        {test.isSuccess && (
          <Alert color="teal" variant="light" icon={<IconCircleCheck />} title="The provider took the test message" mt="md">
            Its message id: <Code>{test.data.provider_message_id}</Code>
          </Alert>
        )}
        {failure && (
          <Alert color="red" variant="light" icon={<IconAlertCircle />} title={failure.title} mt="md">
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {failure.message}
            </Text>
          </Alert>
        )}
      </div>
    </Paper>
  );
}
