import { Box, Button, TextInput } from '@mantine/core';
import { IconAddressBook, IconSearch } from '@tabler/icons-react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { Link, type LoaderFunctionArgs } from 'react-router';
import { SEARCH_MAX } from '../../../shared/contract';
import { EmptyPanel } from '../../components/empty-panel';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { PaginationBar } from '../../components/pagination-bar';
import { TableSkeleton } from '../../components/table-skeleton';
import { contactsDirectoryQueries } from '../../features/contacts-directory/contacts-directory-queries';
import { ContactsDirectoryTable, DIRECTORY_COLUMNS } from '../../features/contacts-directory/contacts-directory-table';
import { parseDirectorySearch, useDirectorySearch } from '../../features/contacts-directory/directory-search';
import { parsePageParams, usePageParams } from '../../lib/use-page-params';
import { paths } from '../../paths';

export function prefetch(queryClient: QueryClient, { request }: LoaderFunctionArgs) {
  const search = new URL(request.url).searchParams;
  const { page, perPage } = parsePageParams(search);
  void queryClient.prefetchQuery(contactsDirectoryQueries.search({ page, per_page: perPage, search: parseDirectorySearch(search) }));
}

/** Every number of the team's groups, one row each, found by its digits or by a field's value (every role reads it). */
export default function ContactsListPage() {
  const { page, perPage, setPage, setPerPage } = usePageParams();
  const { search, text, onTextChange } = useDirectorySearch();
  const contacts = useQuery(contactsDirectoryQueries.search({ page, per_page: perPage, search }));

  return (
    <>
      <PageHeader
        title="Contacts"
        description="Every number in your contact groups, once, with the groups it is in. Open one to see its fields, the messages it received and its opt-outs."
      />
      <Box role="search" aria-label="Search contacts" mb="md">
        <TextInput
          label="Search"
          description="Digits of the number, or text of a field such as a name or an e-mail address"
          placeholder="e.g. 7700 or Ada"
          leftSection={<IconSearch size={16} />}
          maxLength={SEARCH_MAX}
          value={text}
          onChange={(event) => onTextChange(event.currentTarget.value)}
          maw={420}
        />
      </Box>
      {contacts.isPending ? (
        <TableSkeleton columns={DIRECTORY_COLUMNS} />
      ) : contacts.isError ? (
        <ErrorState title="The contacts could not be loaded." error={contacts.error} onRetry={() => void contacts.refetch()} />
      ) : contacts.data.meta.total === 0 ? (
        search ? (
          <EmptyPanel icon={<IconSearch />} title="No contact matches" description={`No number or field value in your groups contains “${search}”.`} />
        ) : (
          <EmptyPanel
            icon={<IconAddressBook />}
            title="No contacts yet"
            description="Numbers show here once they are in a contact group: add them to a group, or import a file."
            action={
              <Button component={Link} to={paths.contactGroups.list.getHref()} variant="default">
                Go to contact groups
              </Button>
            }
          />
        )
      ) : (
        <Box aria-busy={contacts.isPlaceholderData} style={{ opacity: contacts.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }}>
          <ContactsDirectoryTable contacts={contacts.data.data} />
          <PaginationBar
            meta={contacts.data.meta}
            perPage={perPage}
            onPageChange={setPage}
            onPerPageChange={setPerPage}
            noun={{ one: 'contact', other: 'contacts' }}
          />
        </Box>
      )}
    </>
  );
}
