import { Alert, Anchor, Badge, Breadcrumbs, Button, Code, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconPencil, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { isApiError } from '../../api/api-error';
import type { SmsConnection } from '../../api/gen/types.gen';
import { ErrorState } from '../../components/error-state';
import { Fact } from '../../components/fact';
import { PageHeader } from '../../components/page-header';
import { useConfirmAction } from '../../components/use-confirm-action';
import { RoleRequired } from '../../features/auth/role-notice';
import { useTeamRole } from '../../features/auth/use-team-role';
import { SmsConnectionCallbacks } from '../../features/sms-connections/sms-connection-callbacks';
import { SmsConnectionEditModal } from '../../features/sms-connections/sms-connection-modals';
import { useDeleteSmsConnection } from '../../features/sms-connections/sms-connection-mutations';
import { PROVIDER_LABELS } from '../../features/sms-connections/sms-connection-providers';
import { smsConnectionQueries } from '../../features/sms-connections/sms-connection-queries';
import { CircuitBadge, LastError, TodayCounts } from '../../features/sms-connections/sms-connection-state';
import { SmsConnectionTestSend } from '../../features/sms-connections/sms-connection-test-send';
import { formatTimestamp } from '../../lib/format';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { paths } from '../../paths';

function ConnectionBreadcrumbs({ current }: { current: string }) {
  return (
    <Breadcrumbs mb="xs" styles={{ root: { flexWrap: 'wrap' }, breadcrumb: { overflowWrap: 'anywhere' } }}>
      <Anchor component={Link} to={paths.sending.list.getHref()} size="sm">
        Sending
      </Anchor>
      <Text size="sm">{current}</Text>
    </Breadcrumbs>
  );
}

/** One connection (admins only): its state, settings, callback URLs and a test send; edit and delete. */
export default function SmsConnectionPage() {
  if (!useTeamRole().can('admin')) {
    return (
      <>
        <PageHeader title="Connection" />
        <RoleRequired needs="admin" subject="how the team sends" back={{ href: paths.home.getHref(), label: 'Back to the overview' }}>
          {null}
        </RoleRequired>
      </>
    );
  }
  return <SmsConnectionLoader />;
}

function SmsConnectionLoader() {
  const { uuid = '' } = useParams();
  const connection = useQuery(smsConnectionQueries.detail(uuid));
  if (connection.isPending) {
    return (
      <>
        <ConnectionBreadcrumbs current="Connection" />
        <PageHeader title="Connection" />
        <Stack aria-busy="true" aria-label="Loading">
          <Skeleton height={140} radius="md" />
          <Skeleton height={180} radius="md" />
        </Stack>
      </>
    );
  }
  if (connection.isError) {
    const notFound = isApiError(connection.error) && connection.error.status === 404;
    return (
      <>
        <ConnectionBreadcrumbs current="Connection" />
        <PageHeader title="Connection" />
        <ErrorState title="The connection could not be loaded." error={connection.error} onRetry={() => void connection.refetch()} />
        {notFound && (
          <Text size="sm" mt="md">
            If a link brought you here, the connection may belong to another of your teams: choose that team in the header and open the link again.
          </Text>
        )}
      </>
    );
  }
  return <SmsConnectionView connection={connection.data} />;
}

function SmsConnectionView({ connection }: { connection: SmsConnection }) {
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  // The service's refusal to delete a connection still in use (409), shown on the page until the next try.
  const [inUse, setInUse] = useState<string | null>(null);
  const deletion = useDeleteSmsConnection();
  const confirmDeletion = useConfirmAction(() => ({
    title: 'Delete connection',
    message: (
      <>
        Delete the connection <strong style={{ overflowWrap: 'anywhere' }}>{connection.name}</strong>? Herald forgets its credentials; messages it carried keep
        their history. This cannot be undone.
      </>
    ),
    confirmLabel: 'Delete connection',
    onConfirm: () => {
      setInUse(null);
      deletion.mutate(connection.uuid, {
        onSuccess: () => {
          notifySuccess(`The connection ${connection.name} was deleted.`);
          void navigate(paths.sending.list.getHref());
        },
        onError: (error) => {
          if (isApiError(error) && error.status === 409) setInUse(error.message);
          else notifyFailure('The connection could not be deleted', error);
        },
      });
    },
  }));

  return (
    <>
      <ConnectionBreadcrumbs current={connection.name} />
      <PageHeader
        title={connection.name}
        description={`${PROVIDER_LABELS[connection.provider]} connection`}
        actions={
          <>
            <Button variant="default" leftSection={<IconPencil size={16} />} onClick={() => setEditing(true)}>
              Edit
            </Button>
            <Button variant="default" color="red" leftSection={<IconTrash size={16} />} onClick={() => confirmDeletion()} loading={deletion.isPending}>
              Delete
            </Button>
          </>
        }
      />
      <Stack gap="lg">
        {inUse && (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertTriangle />}
            title="This connection is in use"
            role="alert"
            withCloseButton
            onClose={() => setInUse(null)}
          >
            <Text size="sm">{inUse}</Text>
            <Text size="sm" mt={4}>
              Take it out of the routes on the Sending page (or wait for its messages to go out), then delete it.
            </Text>
          </Alert>
        )}
        <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="sms-connection-state">
          <Group justify="space-between" align="flex-start" mb="md" gap="sm">
            <div>
              <Title order={2} size="h4" id="sms-connection-state">
                State
              </Title>
              <Text size="sm" c="dimmed">
                As the routes see it; the counts are of today (UTC).
              </Text>
            </div>
            <CircuitBadge state={connection.state} />
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
            <Fact label="Today">
              <TodayCounts state={connection.state} />
            </Fact>
            <Fact label="Last error">
              <LastError state={connection.state} />
            </Fact>
            <Fact label="Open until">
              <Text size="sm" c={connection.state.open_until ? undefined : 'dimmed'}>
                {formatTimestamp(connection.state.open_until, 'Not open')}
              </Text>
            </Fact>
          </SimpleGrid>
        </Paper>
        <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="sms-connection-settings">
          <Title order={2} size="h4" id="sms-connection-settings" mb="md">
            Settings
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
            <Fact label="Provider">
              <Text size="sm">{PROVIDER_LABELS[connection.provider]}</Text>
            </Fact>
            <Fact label="Enabled">
              <Badge color={connection.enabled ? 'teal' : 'gray'} variant="light">
                {connection.enabled ? 'Enabled' : 'Disabled'}
              </Badge>
            </Fact>
            <Fact label="Messages per second">
              <Text size="sm">{connection.max_per_second}</Text>
            </Fact>
            {connection.base_url && (
              <Fact label="API host">
                <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  {connection.base_url}
                </Text>
              </Fact>
            )}
            <Fact label="Senders">
              <Text size="sm" c={connection.senders.length ? undefined : 'dimmed'} style={{ overflowWrap: 'anywhere' }}>
                {connection.senders.length ? connection.senders.join(', ') : 'None: add one to send'}
              </Text>
            </Fact>
            {Object.keys(connection.credentials).length > 0 && (
              <Fact label="Credentials">
                <Stack gap={2}>
                  {Object.entries(connection.credentials).map(([name, hint]) => (
                    <Text size="sm" key={name}>
                      {name}: <Code>{hint}</Code> (saved)
                    </Text>
                  ))}
                </Stack>
              </Fact>
            )}
          </SimpleGrid>
        </Paper>
        <SmsConnectionCallbacks connection={connection} />
        <SmsConnectionTestSend connection={connection} />
      </Stack>
      <SmsConnectionEditModal connection={connection} opened={editing} onClose={() => setEditing(false)} />
    </>
  );
}
