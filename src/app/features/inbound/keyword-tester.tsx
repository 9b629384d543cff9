import { Alert, Badge, Button, Group, Paper, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { InboundMessageInputSchema } from '../../../shared/contract';
import type { InboundMessage } from '../../api/gen/types.gen';
import { FormError } from '../../components/form-error';
import { applyServerErrors } from '../../lib/server-field-errors';
import { InboundActionsList } from './inbound-actions-list';
import type { KeywordTestInput } from './inbound-mutations';

const KeywordTestSchema = z.object({
  from: InboundMessageInputSchema.shape.from.trim().min(1, 'Enter the phone number the message comes from.'),
  body: InboundMessageInputSchema.shape.body,
});

interface KeywordTesterProps {
  /** Sends the message through the keywords; resolves with what happened. */
  onSubmit: (input: KeywordTestInput) => Promise<unknown>;
  /** The last message tested, shown under the form. */
  result: InboundMessage | undefined;
}

export function KeywordTester({ onSubmit, result }: KeywordTesterProps) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<KeywordTestInput>({ resolver: zodResolver(KeywordTestSchema), defaultValues: { from: '', body: '' } });

  const submit = handleSubmit(async (input) => {
    try {
      await onSubmit(input);
    } catch (error) {
      applyServerErrors(error, ['from', 'body'], setError);
    }
  });

  return (
    <Paper withBorder radius="md" p="lg" component="section" id="keyword-tester" aria-labelledby="keyword-tester-title">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4" id="keyword-tester-title">
            Test a keyword
          </Title>
          <Text size="sm" c="dimmed">
            Send a message as if someone had texted it, and see which keyword matches and what Herald does.
          </Text>
        </div>
        <Alert color="orange" variant="light" icon={<IconAlertTriangle />} title="The actions really happen">
          The number is added to the keyword&apos;s groups, its webhooks are called, and a reply is queued to that number. Opt-out words (STOP…) add it to
          default_optouts. Use a test number of your own.
        </Alert>
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <Group align="flex-start" grow preventGrowOverflow={false}>
              <TextInput
                label="From"
                description="The sender's phone number"
                placeholder="+44 7700 900123"
                autoComplete="off"
                inputMode="tel"
                withAsterisk
                maw={260}
                error={errors.from?.message}
                {...register('from')}
              />
              <Textarea
                label="Message"
                description="What they text, e.g. JOIN"
                placeholder="JOIN"
                autosize
                minRows={1}
                maxRows={4}
                withAsterisk
                error={errors.body?.message}
                {...register('body')}
              />
            </Group>
            <FormError message={errors.root?.message} />
            <Group>
              <Button type="submit" loading={isSubmitting}>
                Send test message
              </Button>
            </Group>
          </Stack>
        </form>
        {result && <KeywordTestResult message={result} />}
      </Stack>
    </Paper>
  );
}

export function KeywordTestResult({ message }: { message: InboundMessage }) {
  return (
    <Paper withBorder radius="md" p="md" bg="var(--mantine-color-gray-0)" role="status" aria-label="Test result">
      <Stack gap="xs">
        <Group gap="xs">
          <Text size="sm" fw={600}>
            Keyword matched:
          </Text>
          {message.keyword ? (
            <Badge variant="filled" tt="none" ff="monospace">
              {message.keyword.keyword}
            </Badge>
          ) : (
            <Text size="sm" c="dimmed">
              None — no keyword of your team is in this message.
            </Text>
          )}
          {message.opted_out && (
            <Badge color="red" variant="light">
              Opted out
            </Badge>
          )}
        </Group>
        <Text size="sm" fw={600}>
          Actions taken
        </Text>
        <InboundActionsList actions={message.actions} />
      </Stack>
    </Paper>
  );
}
