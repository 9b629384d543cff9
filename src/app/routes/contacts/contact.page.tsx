import { Alert, Anchor, Button, Group, Skeleton, Stack } from '@mantine/core';
import { IconDownload, IconInfoCircle, IconTrash, IconUserQuestion } from '@tabler/icons-react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams, type LoaderFunctionArgs } from 'react-router';
import { isApiError } from '../../api/api-error';
import type { ContactDetail } from '../../api/gen/types.gen';
import { EmptyPanel } from '../../components/empty-panel';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { useTeamRole } from '../../features/auth/use-team-role';
import { contactsDirectoryQueries } from '../../features/contacts-directory/contacts-directory-queries';
import { downloadContactData } from '../../features/contacts-directory/contact-export';
import { ContactRecords } from '../../features/contacts-directory/contact-records';
import { ContactSummary } from '../../features/contacts-directory/contact-summary';
import { EraseContactModal } from '../../features/contacts-directory/erase-contact-modal';
import { ContactFlowRuns } from '../../features/flows/contact-flow-runs';
import { formatPhoneNumber } from '../../lib/phone-number';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { paths } from '../../paths';

export function prefetch(queryClient: QueryClient, { params }: LoaderFunctionArgs) {
  if (params.phoneNumber) void queryClient.prefetchQuery(contactsDirectoryQueries.detail(params.phoneNumber));
}

const backToContacts = (
  <Anchor component={Link} to={paths.contacts.list.getHref()} size="sm">
    Back to contacts
  </Anchor>
);

/** What the team holds about one number; admins can download it all or erase it. */
export default function ContactPage() {
  const { phoneNumber = '' } = useParams();
  const contact = useQuery(contactsDirectoryQueries.detail(phoneNumber));
  const title = formatPhoneNumber(phoneNumber);

  if (contact.isPending) {
    return (
      <>
        <PageHeader title={title} />
        <Stack aria-busy="true" aria-label="Loading">
          <Skeleton height={96} radius="md" />
          <Skeleton height={160} radius="md" />
          <Skeleton height={200} radius="md" />
        </Stack>
      </>
    );
  }
  if (contact.isError) {
    return (
      <>
        <PageHeader title={title} />
        {isApiError(contact.error) && contact.error.status === 404 ? (
          <EmptyPanel
            icon={<IconUserQuestion />}
            title="Nothing is held about this number"
            description="It is in none of your groups, and no campaign, inbound message or opt-out of your team names it. It may have been erased."
            action={backToContacts}
          />
        ) : (
          <ErrorState title="The contact could not be loaded." error={contact.error} onRetry={() => void contact.refetch()} />
        )}
      </>
    );
  }
  return <ContactView contact={contact.data} />;
}

function ContactView({ contact }: { contact: ContactDetail }) {
  const navigate = useNavigate();
  const { can, role, teamName } = useTeamRole();
  const isAdmin = can('admin');
  const [downloading, setDownloading] = useState(false);
  const [erasing, setErasing] = useState(false);
  const number = formatPhoneNumber(contact.phone_number);

  const download = async () => {
    setDownloading(true);
    try {
      await downloadContactData(contact.phone_number);
    } catch (error) {
      notifyFailure(`The data of ${number} could not be downloaded`, error);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <>
      <PageHeader
        title={number}
        description="Everything your team holds about this number: its groups and fields, the messages it received, its clicks, what it texted you, its opt-outs and its flows."
      />
      {/* Under the header, not beside it: a number does not wrap, and beside it the buttons would run off a phone's screen. */}
      {isAdmin && (
        <Group gap="sm" mt={-8} mb="lg">
          <Button variant="default" leftSection={<IconDownload size={16} />} loading={downloading} onClick={() => void download()}>
            Download data (JSON)
          </Button>
          <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={() => setErasing(true)}>
            Erase this contact
          </Button>
        </Group>
      )}
      {!isAdmin && role && (
        <Alert color="blue" variant="light" icon={<IconInfoCircle />} role="note" mb="lg">
          Only admins of {teamName} can download a contact’s data or erase it; you have the {role} role.
        </Alert>
      )}
      <ContactSummary contact={contact} />
      <ContactRecords contact={contact} />
      <ContactFlowRuns phoneNumber={contact.phone_number} />
      {backToContacts}
      {isAdmin && (
        <EraseContactModal
          phoneNumber={contact.phone_number}
          optedOut={contact.opted_out}
          teamName={teamName}
          opened={erasing}
          onClose={() => setErasing(false)}
          onErased={() => {
            notifySuccess(`${number} was erased from ${teamName}.`);
            void navigate(paths.contacts.list.getHref());
          }}
        />
      )}
    </>
  );
}
