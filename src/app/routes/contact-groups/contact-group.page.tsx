import { Button, Group, Menu, Paper, Skeleton, Stack, TextInput } from '@mantine/core';
import { IconChevronDown, IconFileImport, IconPencil, IconSearch, IconTrash, IconUserPlus, IconUsersMinus } from '@tabler/icons-react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams, type LoaderFunctionArgs } from 'react-router';
import type { ContactGroup } from '../../api/gen/types.gen';
import { EmptyPanel } from '../../components/empty-panel';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { PaginationBar } from '../../components/pagination-bar';
import { TableSkeleton } from '../../components/table-skeleton';
import { RoleNotice } from '../../features/auth/role-notice';
import { useTeamRole } from '../../features/auth/use-team-role';
import { AddContactsModal } from '../../features/contact-groups/add-contacts-modal';
import { ContactGroupEditModal } from '../../features/contact-groups/contact-group-modals';
import { ContactImportModal } from '../../features/contact-groups/contact-import-modal';
import { contactGroupQueries } from '../../features/contact-groups/contact-group-queries';
import { contactColumns, ContactsTable } from '../../features/contact-groups/contacts-table';
import { RecentContactImports } from '../../features/contact-groups/recent-contact-imports';
import { useConfirmContactFlush } from '../../features/contact-groups/use-confirm-contact-flush';
import { useConfirmContactGroupDeletion } from '../../features/contact-groups/use-confirm-contact-group-deletion';
import { useConfirmContactRemoval } from '../../features/contact-groups/use-confirm-contact-removal';
import { parsePageParams, usePageParams } from '../../lib/use-page-params';
import { paths } from '../../paths';
import { ContactGroupSummary } from './contact-group-summary';
import { parseContactSearch, useContactSearch } from './use-contact-search';

export function prefetch(queryClient: QueryClient, { params, request }: LoaderFunctionArgs) {
  if (!params.uuid) return;
  const search = new URL(request.url).searchParams;
  const { page, perPage } = parsePageParams(search);
  void queryClient.prefetchQuery(contactGroupQueries.detail(params.uuid));
  void queryClient.prefetchQuery(contactGroupQueries.contacts(params.uuid, { page, per_page: perPage, search: parseContactSearch(search) }));
}

export default function ContactGroupPage() {
  const { uuid = '' } = useParams();
  const group = useQuery(contactGroupQueries.detail(uuid));

  if (group.isPending) {
    return (
      <>
        <PageHeader title="Contact group" />
        <Stack aria-busy="true" aria-label="Loading">
          <Skeleton height={80} radius="md" />
          <TableSkeleton columns={contactColumns([])} />
        </Stack>
      </>
    );
  }
  if (group.isError) {
    return (
      <>
        <PageHeader title="Contact group" />
        <ErrorState title="The contact group could not be loaded." error={group.error} onRetry={() => void group.refetch()} />
      </>
    );
  }
  return <ContactGroupView group={group.data} />;
}

function ContactGroupView({ group }: { group: ContactGroup }) {
  const navigate = useNavigate();
  const { page, perPage, setPage, setPerPage } = usePageParams();
  const { search, text, onTextChange } = useContactSearch();
  const contacts = useQuery(contactGroupQueries.contacts(group.uuid, { page, per_page: perPage, search }));
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState(false);
  const [importing, setImporting] = useState(false);
  const confirmFlush = useConfirmContactFlush(group);
  const confirmRemoval = useConfirmContactRemoval(group);
  const confirmDeletion = useConfirmContactGroupDeletion(() => void navigate(paths.contactGroups.list.getHref()));
  const canEdit = useTeamRole().can('edit');

  const addButton = (
    <Button leftSection={<IconUserPlus size={16} />} onClick={() => setAdding(true)}>
      Add contacts
    </Button>
  );
  const importButton = (
    <Button variant="default" leftSection={<IconFileImport size={16} />} onClick={() => setImporting(true)}>
      Import a file
    </Button>
  );

  return (
    <>
      <PageHeader
        title={group.name}
        description={group.deletable ? group.description || 'No description.' : 'Numbers here never receive a campaign. Every team keeps this group.'}
        actions={
          canEdit && (
            <>
              {addButton}
              {importButton}
              {group.deletable && (
                <Button variant="default" leftSection={<IconPencil size={16} />} onClick={() => setEditing(true)}>
                  Edit
                </Button>
              )}
              <Menu position="bottom-end" withinPortal>
                <Menu.Target>
                  <Button variant="default" rightSection={<IconChevronDown size={16} />}>
                    More
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item leftSection={<IconUsersMinus size={16} />} disabled={group.number_of_contacts === 0} onClick={confirmFlush}>
                    Remove all contacts
                  </Menu.Item>
                  {group.deletable && (
                    <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => confirmDeletion(group)}>
                      Delete group
                    </Menu.Item>
                  )}
                </Menu.Dropdown>
              </Menu>
            </>
          )
        }
      />
      <RoleNotice needs="edit" />
      <ContactGroupSummary group={group} />
      <Group mb="md">
        <TextInput
          label="Search by number"
          placeholder="Digits, e.g. 7700"
          leftSection={<IconSearch size={16} />}
          inputMode="numeric"
          value={text}
          onChange={(event) => onTextChange(event.currentTarget.value)}
          w={280}
        />
      </Group>
      {contacts.isPending ? (
        <TableSkeleton columns={contactColumns(group.headers)} />
      ) : contacts.isError ? (
        <ErrorState title="The contacts could not be loaded." error={contacts.error} onRetry={() => void contacts.refetch()} />
      ) : contacts.data.meta.total === 0 ? (
        search ? (
          <EmptyPanel icon={<IconSearch />} title="No contact matches" description={`No number in ${group.name} contains ${search}.`} />
        ) : (
          <EmptyPanel
            icon={<IconUserPlus />}
            title="No contacts yet"
            description={canEdit ? 'Add contacts one by one, or import a CSV file.' : 'Contacts your team adds show here.'}
            action={
              canEdit && (
                <>
                  {addButton}
                  {importButton}
                </>
              )
            }
          />
        )
      ) : (
        <Paper bg="transparent">
          <ContactsTable headers={group.headers} contacts={contacts.data.data} onRemove={canEdit ? confirmRemoval : undefined} />
          <PaginationBar
            meta={contacts.data.meta}
            perPage={perPage}
            onPageChange={setPage}
            onPerPageChange={setPerPage}
            noun={{ one: 'contact', other: 'contacts' }}
          />
        </Paper>
      )}
      <RecentContactImports groupUuid={group.uuid} />
      {canEdit && (
        <>
          <AddContactsModal group={group} opened={adding} onClose={() => setAdding(false)} />
          <ContactImportModal group={group} opened={importing} onClose={() => setImporting(false)} />
          {group.deletable && <ContactGroupEditModal group={group} opened={editing} onClose={() => setEditing(false)} />}
        </>
      )}
    </>
  );
}
