import { Badge, Checkbox, Group, ScrollArea, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import type { ContactImportPreview } from '../../api/gen/types.gen';
import { CountrySelect } from '../../components/country-select';
import type { ContactImportOptions } from './contact-import-mutations';

/** The delimiters the service reads, as a picker offers them. */
export const DELIMITER_OPTIONS = [
  { value: ',', label: 'Comma ( , )' },
  { value: ';', label: 'Semicolon ( ; )' },
  { value: 'tab', label: 'Tab' },
  { value: '|', label: 'Pipe ( | )' },
];
const DELIMITER_NAMES: Record<string, string> = { ',': 'commas', ';': 'semicolons', tab: 'tabs', '|': 'pipes' };
const ENCODINGS = [
  { value: 'utf-8', label: 'UTF-8' },
  { value: 'windows-1252', label: 'Windows-1252 (Western Europe)' },
  { value: 'iso-8859-15', label: 'ISO-8859-15 (Latin-9)' },
  { value: 'iso-8859-2', label: 'ISO-8859-2 (Central Europe)' },
  { value: 'utf-16le', label: 'UTF-16' },
];

/** Field names the person typed or cleared, by column header; a column not named keeps the service's guess. */
export type FieldEdits = Record<string, string | null>;

interface ContactImportMappingProps {
  preview: ContactImportPreview;
  options: ContactImportOptions;
  onOptionsChange: (options: ContactImportOptions) => void;
  fieldEdits: FieldEdits;
  onFieldEdit: (header: string, field: string | null) => void;
}

/** How the file is read and what each column becomes: the first rows as a table, with what can be changed. */
export function ContactImportMapping({ preview, options, onOptionsChange, fieldEdits, onFieldEdit }: ContactImportMappingProps) {
  const [country, setCountry] = useState(options.default_country ?? preview.default_country);
  const change = (patch: ContactImportOptions) => onOptionsChange({ ...options, ...patch });
  const columns = preview.headers.map((header, index) => {
    const position = index + 1;
    const guessed = preview.columns.find((column) => column.position === position);
    const edited = preview.has_header && header in fieldEdits ? fieldEdits[header] : undefined;
    return {
      position,
      header: header || `column ${position}`,
      key: header,
      phone: position === preview.phone_column.position,
      consent: position === preview.consent_column?.position,
      field: edited !== undefined ? edited : (guessed?.field ?? null),
    };
  });
  const found =
    preview.phone_column.found_by === 'header' ? 'found by its header' : preview.phone_column.found_by === 'content' ? 'found by its numbers' : 'as chosen';
  const leftOut = preview.rows.filter((row) => row.problem !== null).length;
  const warned = preview.rows.filter((row) => row.warning !== null).length;

  return (
    <Stack gap="md">
      <Text size="sm">
        {preview.format === 'xlsx'
          ? `Reading the sheet “${preview.sheet}” of the workbook.`
          : `Reading ${preview.encoding?.toUpperCase()} text with ${DELIMITER_NAMES[preview.delimiter ?? ','] ?? preview.delimiter} between cells.`}{' '}
        The phone numbers are in “{columns[preview.phone_column.position - 1]?.header}” ({found}).
        {!preview.has_header && ' The file has no header row: its first row is a contact.'}
      </Text>
      <Group gap="sm" align="flex-end" wrap="wrap">
        {preview.format === 'csv' && (
          <>
            <Select
              label="Cells separated by"
              data={DELIMITER_OPTIONS}
              value={preview.delimiter}
              onChange={(value) => value && change({ delimiter: value })}
              allowDeselect={false}
              w={180}
            />
            <Select
              label="Encoding"
              data={
                ENCODINGS.some((encoding) => encoding.value === preview.encoding)
                  ? ENCODINGS
                  : [...ENCODINGS, { value: preview.encoding ?? '', label: preview.encoding ?? '' }]
              }
              value={preview.encoding}
              onChange={(value) => value && change({ encoding: value })}
              allowDeselect={false}
              w={240}
            />
          </>
        )}
        <Select
          label="Phone numbers in"
          data={columns.map((column) => ({ value: String(column.position), label: column.header }))}
          value={String(preview.phone_column.position)}
          onChange={(value) => value && change({ phone_column: value })}
          allowDeselect={false}
          w={200}
        />
        <Select
          label="Consent (yes/no) in"
          description="A column such as “Accepts SMS Marketing”: no rows are suppressed, not imported."
          data={[
            { value: 'none', label: 'No consent column' },
            ...columns.filter((column) => !column.phone).map((column) => ({ value: String(column.position), label: column.header })),
          ]}
          value={preview.consent_column ? String(preview.consent_column.position) : 'none'}
          onChange={(value) => value && change({ consent_column: value === 'none' ? undefined : value })}
          allowDeselect={false}
          w={260}
        />
        <CountrySelect
          label="National numbers of"
          value={country}
          w={260}
          onChange={(code) => {
            setCountry(code);
            if (code !== preview.default_country) change({ default_country: code });
          }}
        />
      </Group>
      <ScrollArea type="auto" offsetScrollbars>
        <Table withTableBorder withColumnBorders striped fz="sm" miw={Math.max(480, columns.length * 170)} aria-label="First rows of the file">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Row</Table.Th>
              {columns.map((column) => (
                <Table.Th key={column.position} miw={150} style={{ verticalAlign: 'top' }}>
                  <Stack gap={4}>
                    <Text size="sm" fw={600}>
                      {column.header}
                    </Text>
                    {column.phone ? (
                      <Badge variant="light" color="teal">
                        Phone number
                      </Badge>
                    ) : column.consent ? (
                      <Badge variant="light" color="grape">
                        Consent (yes/no)
                      </Badge>
                    ) : (
                      <FieldControl column={column} editable={preview.has_header} onEdit={(field) => onFieldEdit(column.key, field)} />
                    )}
                  </Stack>
                </Table.Th>
              ))}
              <Table.Th>Imported as</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {preview.rows.map((row) => (
              <Table.Tr key={row.row}>
                <Table.Td>{row.row}</Table.Td>
                {columns.map((column) => (
                  <Table.Td key={column.position} c={!column.phone && column.field === null ? 'dimmed' : undefined}>
                    {row.cells[column.position - 1] ?? ''}
                  </Table.Td>
                ))}
                <Table.Td>
                  {row.phone_number ? (
                    <Text size="sm" ff="monospace">
                      +{row.phone_number}
                    </Text>
                  ) : (
                    <Text size="sm" c="red">
                      Left out: {row.problem}
                    </Text>
                  )}
                  {row.warning && (
                    <Text size="sm" c="orange">
                      <IconAlertTriangle size={14} aria-hidden style={{ verticalAlign: 'text-bottom' }} /> {row.warning}
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      <Text size="sm" c="dimmed">
        The first {preview.rows.length} rows{leftOut > 0 ? `; ${leftOut} of them would be left out` : ''}
        {warned > 0 ? `; ${warned} ${warned === 1 ? 'number has' : 'numbers have'} a warning to check` : ''}. Every row is checked when the file is imported,
        and the rows left out are listed with their reasons.
      </Text>
    </Stack>
  );
}

function FieldControl({
  column,
  editable,
  onEdit,
}: {
  column: { header: string; field: string | null };
  editable: boolean;
  onEdit: (field: string | null) => void;
}) {
  // The name typed while the column is left out, so ticking it again brings it back.
  const [remembered, setRemembered] = useState(column.field ?? '');
  const imported = column.field !== null;
  if (!editable)
    return (
      <Text size="xs" c="dimmed">
        {imported ? `as ${column.field}` : 'left out'}
      </Text>
    );
  return (
    <Stack gap={4}>
      <Checkbox
        size="xs"
        label="Import"
        checked={imported}
        onChange={(event) => onEdit(event.currentTarget.checked ? remembered || column.header : null)}
        aria-label={`Import the column ${column.header}`}
      />
      {imported && (
        <TextInput
          size="xs"
          aria-label={`Field name for ${column.header}`}
          value={column.field ?? ''}
          onChange={(event) => {
            setRemembered(event.currentTarget.value);
            onEdit(event.currentTarget.value);
          }}
        />
      )}
    </Stack>
  );
}
