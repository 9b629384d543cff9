import { Accordion, Anchor, Badge, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { FlowRun, FlowStep } from '../../api/gen/types.gen';
import { TableScroll } from '../../components/table-scroll';
import { formatTimestamp } from '../../lib/format';
import { formatPhoneNumber } from '../../lib/phone-number';
import { paths } from '../../paths';
import { findStep, stepPlace } from './flow-draft';
import { outcomeLabel, RUN_STATE_COLORS, RUN_STATE_LABELS, STEP_LABELS, TRIGGERED_BY } from './flow-labels';

/** Each step a run entered, in order: when, when it was done, what it did. */
export function RunHistory({ run }: { run: FlowRun }) {
  if (run.history.length === 0)
    return (
      <Text size="sm" c="dimmed">
        The run has not entered a step yet: it starts within seconds.
      </Text>
    );
  return (
    <TableScroll minWidth={520}>
      <Table aria-label={`History of the run for ${formatPhoneNumber(run.phone_number)}`} verticalSpacing={4} fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Step</Table.Th>
            <Table.Th>Entered</Table.Th>
            <Table.Th>Done</Table.Th>
            <Table.Th>Outcome</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {run.history.map((entry, index) => (
            <Table.Tr key={`${entry.step_id}-${index}`}>
              <Table.Td>{STEP_LABELS[entry.type]}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTimestamp(entry.entered_at, '—', { seconds: true })}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTimestamp(entry.done_at, '—', { seconds: true })}</Table.Td>
              <Table.Td>{outcomeLabel(entry.outcome)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </TableScroll>
  );
}

/** Where the run is: its step (titled as the editor titles it when the flow's steps are known), else how it ended. */
function whereOf(run: FlowRun, steps?: readonly FlowStep[]): string {
  if (run.state !== 'active') return run.state === 'exited' ? `Exited: ${outcomeLabel(run.exit_reason)}` : 'Completed';
  if (run.step_id === null) return 'Starting';
  const step = steps && findStep(steps, run.step_id);
  if (step && steps) return `${stepPlace(steps, run.step_id)}: ${STEP_LABELS[step.type]}`;
  const last = run.history.at(-1);
  return last ? STEP_LABELS[last.type] : 'Starting';
}

interface FlowRunListProps {
  runs: readonly FlowRun[];
  /** On a flow's page: its steps (the current step in words), and each run names its number. On the contact page: each run names its flow. */
  steps?: readonly FlowStep[];
  show: 'number' | 'flow';
}

/** Runs, newest first, each opening onto its history (an accordion: every header is a button). */
export function FlowRunList({ runs, steps, show }: FlowRunListProps) {
  return (
    <Paper withBorder radius="md">
      <Accordion multiple chevronPosition="left" variant="default">
        {runs.map((run) => (
          <Accordion.Item key={run.uuid} value={run.uuid}>
            <Accordion.Control>
              <Group gap="xs" justify="space-between" wrap="wrap">
                <Group gap="xs" wrap="wrap">
                  <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {show === 'number' ? formatPhoneNumber(run.phone_number) : run.flow.name}
                  </Text>
                  <Badge variant="light" color={RUN_STATE_COLORS[run.state]} size="sm">
                    {RUN_STATE_LABELS[run.state]}
                  </Badge>
                  {run.test && (
                    <Badge variant="light" color="grape" size="sm" title="A test run: waits shortened, not counted in the flow’s figures">
                      Test
                    </Badge>
                  )}
                </Group>
                <Text size="xs" c="dimmed">
                  {whereOf(run, steps)} · started {formatTimestamp(run.started_at)}
                </Text>
              </Group>
            </Accordion.Control>
            <Accordion.Panel>
              <Stack gap="xs">
                <Group gap="md" wrap="wrap">
                  <Text size="xs" c="dimmed">
                    Started by: {TRIGGERED_BY[run.trigger]}
                  </Text>
                  {run.ended_at && (
                    <Text size="xs" c="dimmed">
                      Ended {formatTimestamp(run.ended_at)}
                    </Text>
                  )}
                  {run.state === 'active' && run.next_due_at && (
                    <Text size="xs" c="dimmed">
                      Next step {formatTimestamp(run.next_due_at)}
                    </Text>
                  )}
                  {show === 'number' ? (
                    <Anchor component={Link} to={paths.contacts.detail.getHref(run.phone_number.replace(/^\+/, ''))} size="xs">
                      The contact’s page
                    </Anchor>
                  ) : (
                    <Anchor component={Link} to={paths.flows.detail.getHref(run.flow.uuid)} size="xs">
                      The flow
                    </Anchor>
                  )}
                </Group>
                <RunHistory run={run} />
              </Stack>
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </Paper>
  );
}
