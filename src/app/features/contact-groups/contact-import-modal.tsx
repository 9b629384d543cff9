import { Box, Button, Checkbox, Code, FileButton, Group, List, Loader, Modal, Progress, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconFileSpreadsheet, IconUpload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { describeError, isApiError } from '../../api/api-error';
import type { ContactGroup, ContactImportPreview } from '../../api/gen/types.gen';
import type { UploadProgress } from '../../api/upload';
import { FormError } from '../../components/form-error';
import { ContactImportMapping, DELIMITER_OPTIONS, type FieldEdits } from './contact-import-mapping';
import { useImportContacts, type ContactImportOptions } from './contact-import-mutations';
import { contactImportPreviewQuery, contactImportQueries, IMPORT_POLL_MS, isImportUnderWay } from './contact-import-queries';
import { ContactImportResult } from './contact-import-result';
import { formatCount } from '../../lib/format';

interface ContactImportModalProps {
  group: Pick<ContactGroup, 'uuid' | 'name'>;
  opened: boolean;
  onClose: () => void;
}

export function ContactImportModal({ group, opened, onClose }: ContactImportModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={`Import contacts into ${group.name}`} size="xl" closeButtonProps={{ 'aria-label': 'Close the import' }}>
      {/* Mounted only while open: every opening starts from the file picker. */}
      {opened && <ContactImportFlow group={group} onClose={onClose} />}
    </Modal>
  );
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

/** The service's own words: a 422 names the problem under `errors.file` (or the option at fault). */
function importFailureMessage(error: unknown): string {
  const messages = isApiError(error) ? Object.values(error.fieldErrors).flat() : [];
  return messages.length ? messages.join(' ') : describeError(error);
}

/** The options that make the import read the file exactly as the preview did, with the field names as edited. */
function importOptions(preview: ContactImportPreview, options: ContactImportOptions, fieldEdits: FieldEdits): ContactImportOptions {
  const edits = Object.entries(fieldEdits);
  return {
    ...options,
    ...(preview.format === 'csv'
      ? { delimiter: preview.delimiter ?? undefined, encoding: preview.encoding ?? undefined }
      : { sheet: preview.sheet ?? undefined }),
    phone_column: String(preview.phone_column.position),
    consent_column: preview.consent_column ? String(preview.consent_column.position) : undefined,
    default_country: preview.default_country,
    ...(preview.has_header && edits.length > 0 && { fields: JSON.stringify(Object.fromEntries(edits)) }),
  };
}

function CsvFormat() {
  return (
    <Stack gap="xs">
      <List size="sm" spacing={4}>
        <List.Item>
          A CSV or an Excel workbook (XLSX) as your spreadsheet or CRM saves it: commas, semicolons or tabs, any common encoding. You see the first rows and how
          each column is read before anything is imported.
        </List.Item>
        <List.Item>
          The phone column is found by its header (<Code>phone</Code>, <Code>mobile</Code>, <Code>phone_number</Code>…) or by its numbers; the other columns
          become custom fields, e.g. <Code>First Name</Code> → <Code>first_name</Code>.
        </List.Item>
        <List.Item>International numbers (+44…) or national numbers, read in the country you choose.</List.Item>
        <List.Item>
          A number given twice keeps the later row. A number already in the group gets the file&apos;s values; an empty cell leaves its value as it is, unless
          you choose that empty cells clear fields.
        </List.Item>
        <List.Item>Rows with an invalid number or value are left out and listed in an error report.</List.Item>
        <List.Item>Nothing is written to the group until the whole file has been read, so a failed import changes nothing.</List.Item>
      </List>
      <Code block>{'Mobile;First Name\n+447700900123;Ada\n07700900456;Grace'}</Code>
    </Stack>
  );
}

function ContactImportFlow({ group, onClose }: { group: Pick<ContactGroup, 'uuid' | 'name'>; onClose: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [options, setOptions] = useState<ContactImportOptions>({});
  const [fieldEdits, setFieldEdits] = useState<FieldEdits>({});
  // Not an option of the preview (it reads the same either way): sent with the import only.
  const [emptyCellsClear, setEmptyCellsClear] = useState(false);
  const preview = useQuery(contactImportPreviewQuery(group.uuid, file, options));
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [uploaded, setUploaded] = useState(false);
  const upload = useRef<AbortController | null>(null);
  const resetPicker = useRef<() => void>(null);
  const importation = useImportContacts(group.uuid);
  const pending = importation.isPending;

  // While the request is out, the list shows how far the service has read.
  const newest = useQuery({
    ...contactImportQueries.list(group.uuid, { page: 1, per_page: 1 }),
    enabled: pending,
    refetchInterval: pending ? IMPORT_POLL_MS : false,
  });
  const underWay = pending ? newest.data?.data.find(isImportUnderWay) : undefined;

  // Closing while the file is still being sent cancels it: the service then leaves the group as it was.
  // Once sent, the service finishes on its own and the request is left to answer.
  useEffect(
    () => () => {
      upload.current?.abort();
    },
    [],
  );

  const start = () => {
    if (!file || !preview.data) return;
    const controller = new AbortController();
    upload.current = controller;
    setProgress({ loaded: 0, total: file.size });
    setUploaded(false);
    importation.mutate(
      {
        file,
        options: { ...importOptions(preview.data, options, fieldEdits), ...(emptyCellsClear && { empty_cells_clear: 'true' as const }) },
        signal: controller.signal,
        onProgress: setProgress,
        onUploaded: () => {
          upload.current = null;
          setUploaded(true);
        },
      },
      { onSettled: () => (upload.current = null) },
    );
  };

  if (importation.isSuccess) {
    return (
      <Stack gap="md">
        <ContactImportResult contactImport={importation.data} />
        <Group justify="flex-end">
          <Button onClick={onClose}>Close</Button>
        </Group>
      </Stack>
    );
  }

  if (pending) {
    const total = progress?.total ?? file?.size ?? 0;
    const percent = total > 0 ? Math.min(100, Math.round(((progress?.loaded ?? 0) / total) * 100)) : 0;
    const rowsRead = underWay ? `${formatCount(underWay.rows_total)} rows read so far.` : '';
    return (
      <Stack gap="md" aria-live="polite">
        {uploaded ? (
          <>
            <Text size="sm" fw={500}>
              Writing contacts to the group…
            </Text>
            {/* No value: how long the service takes to merge is not known in advance. */}
            <Box role="progressbar" aria-label="Writing contacts to the group">
              <Progress.Root size="lg">
                <Progress.Section value={100} striped animated withAria={false} />
              </Progress.Root>
            </Box>
            <Text size="sm" c="dimmed">
              {rowsRead} The file has been sent; the service is checking the last rows and writing them to {group.name}. You may close this window: the import
              finishes on the service and is listed under Recent imports.
            </Text>
          </>
        ) : (
          <>
            <Text size="sm" fw={500}>
              Uploading {file?.name}: {percent}% ({formatBytes(progress?.loaded ?? 0)} of {formatBytes(total)})
            </Text>
            <Progress value={percent} size="lg" aria-label="Upload progress" />
            <Text size="sm" c="dimmed">
              {rowsRead} Closing this window cancels the import; the group stays as it was.
            </Text>
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {uploaded ? 'Close' : 'Cancel import'}
          </Button>
        </Group>
      </Stack>
    );
  }

  const failure = importation.isError && !(importation.error instanceof DOMException) ? importFailureMessage(importation.error) : undefined;
  const previewFailure = preview.isError ? importFailureMessage(preview.error) : undefined;
  return (
    <Stack gap="md">
      {!file && <CsvFormat />}
      <Group gap="sm">
        <FileButton
          accept=".csv,.txt,.tsv,.xlsx,text/csv,text/plain,text/tab-separated-values,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          resetRef={resetPicker}
          onChange={(picked) => {
            if (!picked) return;
            setFile(picked);
            setOptions({});
            setFieldEdits({});
            importation.reset();
            // Cleared so that picking the same file again, once corrected, is seen as a new choice.
            resetPicker.current?.();
          }}
          inputProps={{ 'aria-label': 'Contacts file' }}
        >
          {(props) => (
            <Button variant="default" leftSection={<IconFileSpreadsheet size={16} />} {...props}>
              {file ? 'Choose another file' : 'Choose a file'}
            </Button>
          )}
        </FileButton>
        <Text size="sm" c={file ? undefined : 'dimmed'} aria-live="polite">
          {file ? `${file.name} (${formatBytes(file.size)})` : 'No file chosen: CSV or XLSX.'}
        </Text>
        {preview.isFetching && <Loader size="xs" aria-label="Reading the start of the file" />}
      </Group>
      {file && preview.isPending && !preview.isError && (
        <Text size="sm" c="dimmed">
          Reading the start of the file…
        </Text>
      )}
      {previewFailure && (
        <PreviewRetry message={previewFailure} options={options} onOptionsChange={setOptions} workbook={file?.name.toLowerCase().endsWith('.xlsx') ?? false} />
      )}
      {preview.data && !preview.isError && (
        <ContactImportMapping
          preview={preview.data}
          options={options}
          onOptionsChange={setOptions}
          fieldEdits={fieldEdits}
          onFieldEdit={(header, field) => setFieldEdits((edits) => ({ ...edits, [header]: field }))}
        />
      )}
      {preview.data && !preview.isError && (
        <Checkbox
          label="Empty cells clear fields"
          description="For numbers already in the group. Off: an empty cell keeps the value the contact has."
          checked={emptyCellsClear}
          onChange={(event) => setEmptyCellsClear(event.currentTarget.checked)}
        />
      )}
      <FormError message={failure} />
      <Group gap="sm">
        <Button leftSection={<IconUpload size={16} />} disabled={!preview.data || preview.isError || preview.isFetching} onClick={start}>
          Import contacts
        </Button>
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
      </Group>
    </Stack>
  );
}

/** When the service could not read the file as guessed: what it said, and the two choices that usually fix it. */
function PreviewRetry({
  message,
  options,
  onOptionsChange,
  workbook,
}: {
  message: string;
  options: ContactImportOptions;
  onOptionsChange: (options: ContactImportOptions) => void;
  workbook: boolean;
}) {
  const [phoneColumn, setPhoneColumn] = useState(options.phone_column ?? '');
  return (
    <Stack gap="sm">
      <FormError message={message} />
      <Group gap="sm" align="flex-end" wrap="wrap">
        {!workbook && (
          <Select
            label="Cells separated by"
            placeholder="Guess"
            data={DELIMITER_OPTIONS}
            value={options.delimiter ?? null}
            onChange={(value) => onOptionsChange({ ...options, delimiter: value ?? undefined })}
            w={180}
          />
        )}
        <TextInput
          label="Phone numbers in"
          description="The column's header, or its position (1, 2…)"
          value={phoneColumn}
          onChange={(event) => setPhoneColumn(event.currentTarget.value)}
          w={240}
        />
        <Button variant="default" onClick={() => onOptionsChange({ ...options, phone_column: phoneColumn.trim() || undefined })}>
          Read again
        </Button>
      </Group>
    </Stack>
  );
}
