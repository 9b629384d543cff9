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
import { RoleNotice } from '../../features/auth/role-notice';
import { useTeamRole } from '../../features/auth/use-team-role';
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
  const canEdit = useTeamRole().can('edit');

  const newGroupButton = canEdit && (
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
      <RoleNotice needs="edit" />
      {groups.isPending ? (
        <TableSkeleton columns={CONTACT_GROUP_COLUMNS} />
      ) : groups.isError ? (
        <ErrorState title="The contact groups could not be loaded." error={groups.error} onRetry={() => void groups.refetch()} />
      ) : groups.data.meta.total === 0 ? (
        <EmptyPanel
          icon={<IconAddressBook />}
          title="No contact groups yet"
          description={canEdit ? 'Create a group, then add contacts to it or import a CSV file.' : 'Contact groups your team creates show here.'}
          action={newGroupButton || undefined}
        />
      ) : (
        <>
          <ContactGroupsTable groups={groups.data.data} onDelete={canEdit ? confirmDeletion : undefined} />
          <PaginationBar
            meta={groups.data.meta}
            perPage={perPage}
            onPageChange={setPage}
            onPerPageChange={setPerPage}
            noun={{ one: 'group', other: 'groups' }}
          />
        </>
      )}
      {canEdit && (
        <ContactGroupCreateModal
          opened={creating}
          onClose={() => setCreating(false)}
          onCreated={(group) => void navigate(paths.contactGroups.detail.getHref(group.uuid))}
        />
      )}
    </>
  );
}
