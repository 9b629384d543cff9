import {
  Autocomplete,
  Button,
  Group,
  isOptionsGroup,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  type ComboboxItem,
  type ComboboxParsedItem,
  type OptionsFilter,
} from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconDownload, IconFilter, IconSearch, IconX } from '@tabler/icons-react';
import { useEffect, useMemo } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { ZonedDateTimeInput, parseTypedTimestamp } from '../../components/zoned-date-time-field';
import { AUDIT_FILTER_NAMES, NO_AUDIT_FILTERS, type AuditFilters } from './audit-filters';
import { AUDIT_ACTION_GROUPS, actionLabel } from './audit-labels';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the service checks too (a 422 naming the field), said here before asking it. */
function auditFiltersSchema(timeZone: string) {
  const moment = (label: string) =>
    z
      .string()
      .refine((value) => value === '' || parseTypedTimestamp(value, timeZone) !== null, `The ${label} is not a valid date and time (YYYY-MM-DD HH:MM).`);
  return z
    .object({
      actor: z.string().trim().max(200, 'At most 200 characters.'),
      action: z.string().trim().max(100, 'At most 100 characters.'),
      resource_uuid: z
        .string()
        .trim()
        .refine((value) => value === '' || UUID.test(value), 'Enter a whole uuid, e.g. 1a2b3c4d-0000-4000-8000-000000000001.'),
      from: moment('start'),
      to: moment('end'),
    })
    .refine(({ from, to }) => from === '' || to === '' || from < to, { path: ['to'], message: 'The end must be after the start.' });
}

/** The moment as the field can show it, or '' when it names no moment in the zone. */
function readableMoment(value: string, timeZone: string): string {
  return value === '' || parseTypedTimestamp(value, timeZone) !== null ? value : '';
}

const ACTION_DATA = AUDIT_ACTION_GROUPS.map(({ group, actions }) => ({ group, items: actions.map(([action]) => action) }));

/** Finds an action by its raw name or by what the log calls it ("refused" finds every refused edit). */
const filterActions: OptionsFilter = ({ options, search }) => {
  const needle = search.trim().toLowerCase();
  if (!needle) return options;
  const matches = (item: ComboboxItem) => item.value.toLowerCase().includes(needle) || actionLabel(item.value).toLowerCase().includes(needle);
  return options.flatMap((option): ComboboxParsedItem[] => {
    if (!isOptionsGroup(option)) return matches(option) ? [option] : [];
    const items = option.items.filter(matches);
    return items.length > 0 ? [{ ...option, items }] : [];
  });
};

interface AuditFiltersFormProps {
  /** The filters applied (the URL's): the form shows them, and follows them when they change. */
  filters: AuditFilters;
  /** The service's zone (APP_TIMEZONE): from and to are read there. */
  timeZone: string;
  /** The service's 422 on the applied filters, per field. */
  serverErrors: Partial<Record<keyof AuditFilters, string>>;
  onApply: (filters: AuditFilters) => void;
  onReset: () => void;
  onExport: () => void;
  exporting: boolean;
  /** The export is offered for filters the service accepts. */
  canExport: boolean;
}

export function AuditFiltersForm({ filters, timeZone, serverErrors, onApply, onReset, onExport, exporting, canExport }: AuditFiltersFormProps) {
  const resolver = useMemo(() => zodResolver(auditFiltersSchema(timeZone)), [timeZone]);
  // A time that is no date (`2026-02-30`, typed into the address) is left out of its field: the
  // calendar would show it as another day. The field's error says what the address gave.
  const shown = useMemo(() => ({ ...filters, from: readableMoment(filters.from, timeZone), to: readableMoment(filters.to, timeZone) }), [filters, timeZone]);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    control,
    formState: { errors },
  } = useForm<AuditFilters>({ resolver, values: shown });

  // A filter the service refused (a shared link, an address typed by hand) is marked on its field.
  useEffect(() => {
    for (const name of AUDIT_FILTER_NAMES) {
      const message = serverErrors[name];
      if (message) setError(name, { type: 'server', message: shown[name] === filters[name] ? message : `${message} (“${filters[name]}”)` });
    }
  }, [serverErrors, setError, shown, filters]);

  const submit = handleSubmit((values) => onApply(values));

  return (
    <Paper withBorder radius="md" p="md" mb="lg">
      <form role="search" aria-label="Filter the audit log" onSubmit={submit} noValidate>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" verticalSpacing="sm">
            <TextInput
              label="Who"
              description="A name, part of one, or a user’s uuid."
              placeholder="e.g. Ada"
              leftSection={<IconSearch size={16} aria-hidden />}
              autoComplete="off"
              error={errors.actor?.message}
              {...register('actor')}
            />
            <Controller
              control={control}
              name="action"
              render={({ field }) => (
                <Autocomplete
                  ref={field.ref}
                  label="Action"
                  description="Pick one, or type its exact name."
                  placeholder="Any action"
                  data={ACTION_DATA}
                  filter={filterActions}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  name={field.name}
                  maxDropdownHeight={280}
                  clearable
                  clearButtonProps={{ 'aria-label': 'Clear Action' }}
                  renderOption={({ option }) => (
                    <Stack gap={0}>
                      <Text size="sm">{actionLabel(option.value)}</Text>
                      <Text size="xs" c="dimmed" ff="monospace">
                        {option.value}
                      </Text>
                    </Stack>
                  )}
                  autoComplete="off"
                  error={errors.action?.message}
                />
              )}
            />
            <TextInput
              label="Resource uuid"
              description="One campaign, template, member…"
              placeholder="e.g. 1a2b3c4d-…"
              autoComplete="off"
              spellCheck={false}
              error={errors.resource_uuid?.message}
              {...register('resource_uuid')}
            />
            <ZonedDateTimeInput
              control={control}
              name="from"
              label="From"
              description="At or after this time,"
              timeZone={timeZone}
              clearable
              error={errors.from?.message}
            />
            <ZonedDateTimeInput
              control={control}
              name="to"
              label="To"
              description="Before this time,"
              timeZone={timeZone}
              clearable
              error={errors.to?.message}
            />
          </SimpleGrid>
          <Group justify="space-between" gap="sm">
            <Group gap="sm">
              <Button type="submit" leftSection={<IconFilter size={16} />}>
                Apply filters
              </Button>
              <Button
                variant="default"
                leftSection={<IconX size={16} />}
                onClick={() => {
                  reset(NO_AUDIT_FILTERS);
                  onReset();
                }}
              >
                Reset
              </Button>
            </Group>
            <Button variant="light" leftSection={<IconDownload size={16} />} loading={exporting} disabled={!canExport} onClick={onExport}>
              Export CSV
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
