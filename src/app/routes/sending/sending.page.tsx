import { Button, Stack, Text, Title } from '@mantine/core';
import { IconPlugConnected, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { EmptyPanel } from '../../components/empty-panel';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { PaginationBar } from '../../components/pagination-bar';
import { TableSkeleton } from '../../components/table-skeleton';
import { RoleRequired } from '../../features/auth/role-notice';
import { useTeamRole } from '../../features/auth/use-team-role';
import { SmsConnectionCreateModal } from '../../features/sms-connections/sms-connection-modals';
import { smsConnectionQueries } from '../../features/sms-connections/sms-connection-queries';
import { SMS_CONNECTION_COLUMNS, SmsConnectionsTable } from '../../features/sms-connections/sms-connections-table';
import { RoutesSection } from '../../features/sms-routes/routes-section';
import { usePageParams } from '../../lib/use-page-params';
import { paths } from '../../paths';

const DESCRIPTION =
  'The accounts your team sends through (Twilio, Vonage, Infobip, Plivo, Telnyx, Sinch or an SMPP bind), and the routes that choose between them by the recipient’s country.';

/**
 * Sending (issue 34): the team's SMS connections and its routes. Admins only: a connection holds
 * the provider's credentials, and the service refuses every other role (403).
 */
export default function SendingPage() {
  const isAdmin = useTeamRole().can('admin');
  const [creating, setCreating] = useState(false);
  const addButton = (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
      Add connection
    </Button>
  );
  return (
    <>
      <PageHeader title="Sending" description={DESCRIPTION} actions={isAdmin && addButton} />
      <RoleRequired needs="admin" subject="how the team sends" back={{ href: paths.home.getHref(), label: 'Back to the overview' }}>
        <SendingSections addButton={addButton} creating={creating} onCreatingClose={() => setCreating(false)} />
      </RoleRequired>
    </>
  );
}

interface SendingSectionsProps {
  addButton: ReactNode;
  creating: boolean;
  onCreatingClose: () => void;
}

function SendingSections({ addButton, creating, onCreatingClose }: SendingSectionsProps) {
  const navigate = useNavigate();
  const { page, perPage, setPage, setPerPage } = usePageParams();
  const connections = useQuery(smsConnectionQueries.list({ page, per_page: perPage }));

  return (
    <Stack gap="xl">
      <section aria-labelledby="sending-connections">
        <Stack gap="sm">
          <div>
            <Title order={2} size="h4" id="sending-connections">
              Connections
            </Title>
            <Text size="sm" c="dimmed">
              Each is one account at a provider, with its credentials (kept encrypted), the senders it may use and its pace. Its state is today’s, as the routes
              see it.
            </Text>
          </div>
          {connections.isPending ? (
            <TableSkeleton columns={SMS_CONNECTION_COLUMNS} rows={2} />
          ) : connections.isError ? (
            <ErrorState title="The connections could not be loaded." error={connections.error} onRetry={() => void connections.refetch()} />
          ) : connections.data.meta.total === 0 ? (
            <EmptyPanel
              icon={<IconPlugConnected />}
              title="No connections yet"
              description="Until the team has one, its messages go out through the installation’s own gateway. Add the account your team already has at a provider."
              action={addButton}
            />
          ) : (
            <div>
              <SmsConnectionsTable connections={connections.data.data} />
              <PaginationBar
                meta={connections.data.meta}
                perPage={perPage}
                onPageChange={setPage}
                onPerPageChange={setPerPage}
                noun={{ one: 'connection', other: 'connections' }}
              />
            </div>
          )}
        </Stack>
      </section>
      <RoutesSection />
      <SmsConnectionCreateModal
        opened={creating}
        onClose={onCreatingClose}
        onCreated={(created) => void navigate(paths.sending.connection.getHref(created.uuid))}
      />
    </Stack>
  );
}
