import { Alert, Button, Group, Pagination, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ContactImport, ContactImportError } from '../../api/gen/types.gen';
import { DataTable, type DataColumn } from '../../components/data-table';
import { ErrorState } from '../../components/error-state';
import { notifyFailure } from '../../lib/notify';
import { downloadContactImportErrorReport } from './contact-import-mutations';
import { contactImportQueries } from './contact-import-queries';
import { formatCount } from '../../lib/format';

const ERRORS_PER_PAGE = 10;

function count(value: number): string {
  return formatCount(value);
}

function Figure({ label, value, color }: { label: string; value: number; color?: string }) {
  return (
    <Paper withBorder radius="md" p="sm" role="group" aria-label={label}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700} c={value > 0 ? color : undefined}>
        {count(value)}
      </Text>
    </Paper>
  );
}

/** What an import did: its counts and, when rows were left out, the first of them and the full report. */
export function ContactImportResult({ contactImport }: { contactImport: ContactImport }) {
  const failed = contactImport.status === 'failed';
  const rows = `${count(contactImport.rows_total)} ${contactImport.rows_total === 1 ? 'row' : 'rows'}`;
  const written = contactImport.contacts_added + contactImport.contacts_updated + contactImport.contacts_unchanged;
  // A number given twice is one contact: the earlier row gives way to the later one.
  // Numbers whose consent column said no are suppressed, not written: they are no repeats.
  const repeated = contactImport.rows_valid - written - contactImport.contacts_suppressed;
  return (
    <Stack gap="md" aria-label="Import result" role="region">
      {failed ? (
        <Alert color="red" variant="light" icon={<IconAlertTriangle />} title="The import failed; the group is unchanged">
          {contactImport.error ?? 'Import the file again.'}
        </Alert>
      ) : (
        <Alert color="teal" variant="light" icon={<IconCircleCheck />} title="Import completed">
          {contactImport.file_name ? `${contactImport.file_name}: ` : ''}
          {rows} read; {count(contactImport.contacts_added + contactImport.contacts_updated)} written to the group.
          {repeated > 0 && ` ${count(repeated)} repeated a number given earlier in the file; the later row was kept.`}
        </Alert>
      )}
      {!failed && contactImport.contacts_opted_out > 0 && (
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle />} title={`${count(contactImport.contacts_opted_out)} opted out`}>
          {contactImport.contacts_opted_out === 1 ? 'One number of the file has' : `${count(contactImport.contacts_opted_out)} numbers of the file have`} opted
          out (they are in default_optouts). They are in the group as in your file, but no campaign sends to them unless they text START.
        </Alert>
      )}
      {!failed && contactImport.contacts_suppressed > 0 && (
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle />} title={`${count(contactImport.contacts_suppressed)} suppressed`}>
          {contactImport.contacts_suppressed === 1 ? 'One number' : `${count(contactImport.contacts_suppressed)} numbers`} of the file did not accept SMS
          marketing: not imported, and added to default_optouts so that no campaign texts them.
        </Alert>
      )}
      <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="xs">
        <Figure label="Rows read" value={contactImport.rows_total} />
        <Figure label="Added" value={failed ? 0 : contactImport.contacts_added} color="teal" />
        <Figure label="Updated" value={failed ? 0 : contactImport.contacts_updated} color="blue" />
        <Figure label="Unchanged" value={failed ? 0 : contactImport.contacts_unchanged} />
        <Figure label="Left out" value={contactImport.rows_invalid} color="red" />
      </SimpleGrid>
      {contactImport.rows_invalid > 0 && <ContactImportErrors contactImport={contactImport} />}
    </Stack>
  );
}

const ERROR_COLUMNS: DataColumn<ContactImportError>[] = [
  { key: 'row', header: 'Row', width: 70, cell: (error) => error.row },
  {
    key: 'value',
    header: 'Value',
    cell: (error) => (
      <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
        {error.value || '(empty)'}
      </Text>
    ),
  },
  { key: 'reason', header: 'Reason', cell: (error) => error.reason },
];

function ContactImportErrors({ contactImport }: { contactImport: ContactImport }) {
  const [page, setPage] = useState(1);
  const errors = useQuery(contactImportQueries.errors(contactImport.uuid, { page, per_page: ERRORS_PER_PAGE }));
  const [downloading, setDownloading] = useState(false);

  const download = async () => {
    setDownloading(true);
    try {
      await downloadContactImportErrorReport(contactImport);
    } catch (error) {
      notifyFailure('The error report could not be downloaded', error);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Stack gap="xs">
      <Group justify="space-between" align="center">
        <Title order={3} size="h5">
          Rows left out
        </Title>
        <Button variant="light" size="xs" leftSection={<IconDownload size={14} />} loading={downloading} onClick={() => void download()}>
          Download error report (CSV)
        </Button>
      </Group>
      {errors.isError ? (
        <ErrorState title="The rows left out could not be loaded." error={errors.error} onRetry={() => void errors.refetch()} />
      ) : (
        // The previous page stays on screen, dimmed, while the next one loads.
        <DataTable
          label="Rows left out"
          columns={ERROR_COLUMNS}
          rows={errors.data?.data}
          rowKey={(error) => String(error.row)}
          busy={errors.isPlaceholderData}
          minWidth={480}
        />
      )}
      {errors.data && errors.data.meta.last_page > 1 && (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            Rows {errors.data.meta.from}–{errors.data.meta.to} of {count(errors.data.meta.total)} left out
          </Text>
          <Pagination
            size="sm"
            total={errors.data.meta.last_page}
            value={page}
            onChange={setPage}
            getControlProps={(control) => ({ 'aria-label': `${control} page of rows left out` })}
            getItemProps={(item) => ({ 'aria-label': `Page ${item} of rows left out` })}
          />
        </Group>
      )}
    </Stack>
  );
}
