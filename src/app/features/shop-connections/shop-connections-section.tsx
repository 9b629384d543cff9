import { ActionIcon, Badge, Button, Code, CopyButton, Group, Modal, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBuildingStore, IconCheck, IconCopy, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ShopConnection } from '../../api/gen/types.gen';
import { DataTable, type DataColumn } from '../../components/data-table';
import { EmptyPanel } from '../../components/empty-panel';
import { ErrorState } from '../../components/error-state';
import { useConfirmedMutation } from '../../components/use-confirm-action';
import { formatTimestamp } from '../../lib/format';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { useCreateShopConnection, useDeleteShopConnection } from './shop-connection-mutations';
import { ShopConnectionForm } from './shop-connection-form';
import { shopConnectionQueries } from './shop-connection-queries';
import { PLATFORM_HELP, PLATFORM_LABELS } from './shop-platforms';

function WebhookUrl({ connection }: { connection: ShopConnection }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Code fz="xs" style={{ wordBreak: 'break-all' }}>
        {connection.webhook_url}
      </Code>
      <CopyButton value={connection.webhook_url}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
            <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={`Copy the webhook URL of ${connection.name}`}>
              {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}

const COLUMNS: DataColumn<ShopConnection>[] = [
  {
    key: 'name',
    header: 'Shop',
    rowHeader: true,
    cellProps: { maw: 220 },
    cell: (connection) => (
      <Stack gap={2}>
        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {connection.name}
        </Text>
        <Badge variant="light" w="fit-content">
          {PLATFORM_LABELS[connection.platform]}
        </Badge>
      </Stack>
    ),
  },
  {
    key: 'webhook',
    header: 'Webhook URL',
    cellProps: { miw: 300 },
    cell: (connection) => (
      <Stack gap={4}>
        <WebhookUrl connection={connection} />
        <Text size="xs" c="dimmed">
          {PLATFORM_HELP[connection.platform].setup}
        </Text>
      </Stack>
    ),
  },
  { key: 'secret', header: 'Secret', cell: (connection) => <Code fz="xs">{connection.secret}</Code> },
  { key: 'last_order', header: 'Last order', cell: (connection) => formatTimestamp(connection.last_order_at, 'None yet') },
];

/** Shops whose new orders are recorded as conversions (admins only: they hold signing secrets). */
export function ShopConnectionsSection() {
  const connections = useQuery(shopConnectionQueries.list({ page: 1, per_page: 100 }));
  const [opened, { open, close }] = useDisclosure(false);
  const creation = useCreateShopConnection();
  const confirmDelete = useConfirmedMutation(useDeleteShopConnection(), (connection: ShopConnection) => ({
    title: `Disconnect ${connection.name}?`,
    message: 'Its webhook URL stops taking orders at once. The conversions it recorded stay.',
    confirmLabel: 'Disconnect',
    variables: connection.uuid,
    success: `${connection.name} was disconnected.`,
    failure: `${connection.name} could not be disconnected`,
  }));

  return (
    <section aria-labelledby="integrations-title">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <div>
          <Title order={2} size="h4" id="integrations-title">
            Integrations
          </Title>
          <Text size="sm" c="dimmed">
            Connect a shop so that its new orders are recorded as conversions and credited to your campaigns.
          </Text>
        </div>
        <Button leftSection={<IconPlus size={16} />} onClick={open}>
          Connect a shop
        </Button>
      </Group>
      {connections.isError ? (
        <ErrorState title="The shop connections could not be loaded." error={connections.error} onRetry={() => void connections.refetch()} />
      ) : (
        <DataTable
          label="Shop connections"
          columns={COLUMNS}
          rows={connections.data?.data}
          loading={connections.isPending}
          rowKey={(connection) => connection.uuid}
          minWidth={860}
          actions={[
            { label: 'Disconnect', name: (connection) => `Disconnect ${connection.name}`, icon: <IconTrash size={18} />, color: 'red', onClick: confirmDelete },
          ]}
          empty={
            <EmptyPanel
              icon={<IconBuildingStore size={28} />}
              title="No shop connected"
              description="Connect Shopify or WooCommerce to record its orders as conversions."
            />
          }
        />
      )}
      <Modal opened={opened} onClose={close} title="Connect a shop" size="lg">
        <ShopConnectionForm
          onCancel={close}
          onSubmit={(input) =>
            creation.mutateAsync(input, {
              onSuccess: (created) => {
                notifySuccess(`${created.name} is connected: give its webhook URL to ${PLATFORM_LABELS[created.platform]}.`);
                close();
              },
              onError: (error) => notifyFailure('The shop could not be connected', error),
            })
          }
        />
      </Modal>
    </section>
  );
}
