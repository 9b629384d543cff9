import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconCircleCheck, IconAlertCircle, IconPlayerPlay } from '@tabler/icons-react';
import { useState } from 'react';
import { FLOW_TEST_WAIT_MINUTES } from '../../../shared/contract';
import { describeError, isApiError } from '../../api/api-error';
import type { FlowRun } from '../../api/gen/types.gen';
import { formatPhoneNumber } from '../../lib/phone-number';
import { useStartFlowRun } from './flow-mutations';

/** The number last used for a test run, kept in this browser for the next one (any flow). */
export const TEST_NUMBER_KEY = 'herald.flows.test-number';

function lastTestNumber(): string {
  try {
    return localStorage.getItem(TEST_NUMBER_KEY) ?? '';
  } catch {
    return '';
  }
}

type Outcome = { ok: true; run: FlowRun } | { ok: false; message: string };

/**
 * "Test with my number": a test run of the flow for the number typed, whatever the flow's trigger
 * or state (POST /flows/{uuid}/runs with `test: true`; docs/flows.md, "Test runs"). Says what
 * happened: the test run started (it joins the runs below, marked as a test), or why not (409: opted
 * out; 422: not a number, or not one of the team's own numbers).
 */
export function FlowTestRun({ flowUuid }: { flowUuid: string }) {
  const [number, setNumber] = useState(lastTestNumber);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [fieldError, setFieldError] = useState<string>();
  const start = useStartFlowRun(flowUuid);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setOutcome(null);
    setFieldError(undefined);
    if (!number.trim()) {
      setFieldError('Type the number to send the test to.');
      return;
    }
    start.mutate(
      { phone_number: number.trim(), test: true },
      {
        onSuccess: (run) => {
          try {
            localStorage.setItem(TEST_NUMBER_KEY, number.trim());
          } catch {
            // A browser that keeps nothing only loses the prefill.
          }
          setOutcome({ ok: true, run });
        },
        onError: (error) => {
          const [message] = isApiError(error) ? (error.fieldErrors.phone_number ?? []) : [];
          if (message) setFieldError(message);
          else setOutcome({ ok: false, message: describeError(error) });
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Test with my number">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          A test run walks the saved flow for your number now, even while the flow is disabled: each wait lasts at most{' '}
          {FLOW_TEST_WAIT_MINUTES === 1 ? 'a minute' : `${FLOW_TEST_WAIT_MINUTES} minutes`} (time to tap a link before a branch checks for the click), quiet
          hours and frequency caps do not hold its messages, and it counts in none of the flow’s figures.
        </Text>
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            label="Your number"
            placeholder="+44 7700 900123"
            type="tel"
            autoComplete="tel"
            value={number}
            onChange={(event) => setNumber(event.currentTarget.value)}
            error={fieldError}
            w={240}
          />
          <Button type="submit" mt={{ base: 0, sm: 25 }} leftSection={<IconPlayerPlay size={16} />} loading={start.isPending}>
            Test with my number
          </Button>
        </Group>
        {outcome?.ok === true && (
          <Alert color="green" variant="light" icon={<IconCircleCheck />} role="status" title="Test run started">
            A test run for {formatPhoneNumber(outcome.run.phone_number)} started (in place of its earlier one, if any); it shows in the runs below, and its
            first step follows within seconds.
          </Alert>
        )}
        {outcome?.ok === false && (
          <Alert color="red" variant="light" icon={<IconAlertCircle />} role="alert" title="No test run">
            {outcome.message}
          </Alert>
        )}
      </Stack>
    </form>
  );
}
