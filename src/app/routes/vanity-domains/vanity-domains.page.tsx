import { Paper, Stack } from '@mantine/core';
import { IconWorld } from '@tabler/icons-react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { LoaderFunctionArgs } from 'react-router';
import type { VanityDomainInput } from '../../../shared/contract';
import type { VanityDomain } from '../../api/gen/types.gen';
import { EmptyPanel } from '../../components/empty-panel';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { PaginationBar } from '../../components/pagination-bar';
import { TableSkeleton } from '../../components/table-skeleton';
import { RoleNotice } from '../../features/auth/role-notice';
import { useTeamRole } from '../../features/auth/use-team-role';
import { useConfirmVanityDomainDeletion } from '../../features/vanity-domains/use-confirm-vanity-domain-deletion';
import { VanityDomainEditModal } from '../../features/vanity-domains/vanity-domain-edit-modal';
import { VanityDomainForm } from '../../features/vanity-domains/vanity-domain-form';
import { useCreateVanityDomain } from '../../features/vanity-domains/vanity-domain-mutations';
import { vanityDomainQueries } from '../../features/vanity-domains/vanity-domain-queries';
import { VANITY_DOMAIN_COLUMNS, VanityDomainsTable } from '../../features/vanity-domains/vanity-domains-table';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { parsePageParams, usePageParams } from '../../lib/use-page-params';

export function prefetch(queryClient: QueryClient, { request }: LoaderFunctionArgs) {
  const { page, perPage } = parsePageParams(new URL(request.url).searchParams);
  void queryClient.prefetchQuery(vanityDomainQueries.list({ page, per_page: perPage }));
}

export default function VanityDomainsPage() {
  const { page, perPage, setPage, setPerPage } = usePageParams();
  const domains = useQuery(vanityDomainQueries.list({ page, per_page: perPage }));
  const creation = useCreateVanityDomain();
  const confirmDeletion = useConfirmVanityDomainDeletion();
  const [editing, setEditing] = useState<VanityDomain | null>(null);
  const canChange = useTeamRole().can('admin');

  const create = (input: VanityDomainInput) =>
    creation.mutateAsync(input, {
      onSuccess: (created) => notifySuccess(`The vanity domain ${created.domain} was added.`),
      onError: (error) => notifyFailure('The vanity domain could not be added', error),
    });

  return (
    <>
      <PageHeader
        title="Vanity domains"
        description="Tracked links in your messages are made on one of these domains. Point a domain's DNS at Herald before adding it."
      />
      <RoleNotice needs="admin" subject="vanity domains" />
      <Stack gap="lg">
        {canChange && (
          <Paper withBorder p="lg" radius="md">
            <VanityDomainForm submitLabel="Add domain" onSubmit={create} resetOnSuccess />
          </Paper>
        )}
        {domains.isPending ? (
          <TableSkeleton columns={VANITY_DOMAIN_COLUMNS} rows={2} />
        ) : domains.isError ? (
          <ErrorState title="The vanity domains could not be loaded." error={domains.error} onRetry={() => void domains.refetch()} />
        ) : domains.data.meta.total === 0 ? (
          <EmptyPanel
            icon={<IconWorld />}
            title="No vanity domains yet"
            description={canChange ? 'Add one above to brand your short links.' : 'Vanity domains an admin adds show here.'}
          />
        ) : (
          <div>
            <VanityDomainsTable domains={domains.data.data} actions={canChange ? { onEdit: setEditing, onDelete: confirmDeletion } : undefined} />
            <PaginationBar
              meta={domains.data.meta}
              perPage={perPage}
              onPageChange={setPage}
              onPerPageChange={setPerPage}
              noun={{ one: 'domain', other: 'domains' }}
            />
          </div>
        )}
      </Stack>
      {canChange && <VanityDomainEditModal domain={editing} onClose={() => setEditing(null)} />}
    </>
  );
}
