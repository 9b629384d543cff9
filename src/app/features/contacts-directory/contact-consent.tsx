import { Alert, Skeleton, Stack, Text } from '@mantine/core';
import { IconHourglass } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ConsentRecord, OptInRequestState } from '../../api/gen/types.gen';
import { DataTable, type DataColumn } from '../../components/data-table';
import { ErrorState } from '../../components/error-state';
import { formatTimestamp } from '../../lib/format';
import { contactsDirectoryQueries } from './contacts-directory-queries';
import { ContactSection } from './contact-section';

const SOURCES: Record<ConsentRecord['source'], string> = {
  keyword: 'Texted a keyword',
  form: 'Sign-up page',
  import: 'Import',
  api: 'Added through the API',
  checkout: 'Shop checkout',
  dashboard: 'Added in the dashboard',
};

/** The evidence's keys as people read them. */
const EVIDENCE: Record<string, string> = {
  inbound_message_uuid: 'Message',
  confirmation_message_uuid: 'YES message',
  opt_in_request_uuid: 'Request',
  keyword_uuid: 'Keyword',
  import_uuid: 'Import',
  file_name: 'File',
  row: 'Row',
  token_uuid: 'API token',
  user_uuid: 'Member',
  ip: 'Address',
  user_agent: 'Browser',
  order_id: 'Order',
  page_slug: 'Page',
};

const COLUMNS: DataColumn<ConsentRecord>[] = [
  { key: 'at', header: 'When', cellProps: { style: { whiteSpace: 'nowrap' } }, cell: (record) => formatTimestamp(record.at) },
  { key: 'source', header: 'How', cell: (record) => SOURCES[record.source] },
  {
    key: 'text',
    header: 'Text shown',
    cellProps: { maw: 320 },
    cell: (record) => (
      <Text size="sm" c={record.text_shown ? undefined : 'dimmed'}>
        {record.text_shown || '—'}
      </Text>
    ),
  },
  {
    key: 'evidence',
    header: 'Evidence',
    cell: (record) => (
      <Stack gap={0}>
        {Object.entries(record.evidence).map(([key, value]) => (
          <Text key={key} size="xs" style={{ overflowWrap: 'anywhere' }}>
            {EVIDENCE[key] ?? key}: {String(value)}
          </Text>
        ))}
      </Stack>
    ),
  },
];

/** The latest double opt-in request, when it is still waiting or was not answered. */
function RequestState({ request }: { request: OptInRequestState }) {
  if (request.state === 'confirmed') return null;
  return request.state === 'pending' ? (
    <Alert color="yellow" icon={<IconHourglass aria-hidden />} title="Waiting for YES">
      Asked to reply YES on {formatTimestamp(request.requested_at)}; it joins only if it does before {formatTimestamp(request.expires_at)}.
    </Alert>
  ) : (
    <Alert color="gray" title="Sign-up not confirmed">
      Asked to reply YES on {formatTimestamp(request.requested_at)}; it did not confirm (it expired or the number texted STOP on{' '}
      {formatTimestamp(request.decided_at)}).
    </Alert>
  );
}

/** How and when the number agreed to the team's messages, and a double opt-in that waits for its YES. */
export function ContactConsent({ phoneNumber, request }: { phoneNumber: string; request: OptInRequestState | null }) {
  const consent = useQuery(contactsDirectoryQueries.consent(phoneNumber));
  if (consent.isPending) return <Skeleton height={80} radius="md" mb="xl" />;
  if (consent.isError) return <ErrorState title="The number’s consent could not be loaded." error={consent.error} onRetry={() => void consent.refetch()} />;
  const records = consent.data;
  return (
    <ContactSection
      title="Consent"
      total={records.length}
      shown={records.length}
      empty="No consent recorded: Herald holds no proof that this number agreed to your texts."
      before={request && <RequestState request={request} />}
    >
      <DataTable
        label="Consent"
        columns={COLUMNS}
        rows={records}
        rowKey={(record) => record.uuid}
        rowProps={() => ({ style: { verticalAlign: 'top' } })}
        minWidth={720}
      />
    </ContactSection>
  );
}
