import { Button } from '@mantine/core';
import { IconAddressBook, IconPlus } from '@tabler/icons-react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, type LoaderFunctionArgs } from 'react-router';
import { EmptyPanel } from '../../components/empty-panel';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { PaginationBar } from '../../components/pagination-bar';
import { TableSkeleton } from '../../components/table-skeleton';
import { ContactGroupCreateModal } from '../../features/contact-groups/contact-group-modals';
import { contactGroupQueries } from '../../features/contact-groups/contact-group-queries';
import { CONTACT_GROUP_COLUMNS, ContactGroupsTable } from '../../features/contact-groups/contact-groups-table';
import { useConfirmContactGroupDeletion } from '../../features/contact-groups/use-confirm-contact-group-deletion';
import { parsePageParams, usePageParams } from '../../lib/use-page-params';
import { paths } from '../../paths';

export function prefetch(queryClient: QueryClient, { request }: LoaderFunctionArgs) {
  const { page, perPage } = parsePageParams(new URL(request.url).searchParams);
  void queryClient.prefetchQuery(contactGroupQueries.list({ page, per_page: perPage }));
}

export default function ContactGroupsListPage() {
  const { page, perPage, setPage, setPerPage } = usePageParams();
  const groups = useQuery(contactGroupQueries.list({ page, per_page: perPage }));
  const [creating, setCreating] = useState(false);
  const navigate = useNavigate();
  const confirmDeletion = useConfirmContactGroupDeletion();

  const newGroupButton = (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
      New group
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Contact groups"
        description="The people your campaigns reach. Numbers in default_optouts never receive a campaign."
        actions={newGroupButton}
      />
      {groups.isPending ? (
        <TableSkeleton columns={CONTACT_GROUP_COLUMNS} />
      ) : groups.isError ? (
        <ErrorState title="The contact groups could not be loaded." error={groups.error} onRetry={() => void groups.refetch()} />
      ) : groups.data.meta.total === 0 ? (
        <EmptyPanel
          icon={<IconAddressBook />}
          title="No contact groups yet"
          description="Create a group, then add contacts to it or import a CSV file."
          action={newGroupButton}
        />
      ) : (
        <>
          <ContactGroupsTable groups={groups.data.data} onDelete={confirmDeletion} />
          <PaginationBar
            meta={groups.data.meta}
            perPage={perPage}
            onPageChange={setPage}
            onPerPageChange={setPerPage}
            noun={{ one: 'group', other: 'groups' }}
          />
        </>
      )}
      <ContactGroupCreateModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(group) => void navigate(paths.contactGroups.detail.getHref(group.uuid))}
      />
    </>
  );
}
