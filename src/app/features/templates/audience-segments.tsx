import { Group, Loader, MultiSelect, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { describeError } from '../../api/api-error';
import { templateUsageQueries, type AudienceMeasureInput } from './template-usage-queries';

/** Asks once the body and the groups have stopped changing for this long, not per keystroke. */
const DEBOUNCE_MS = 500;
const numberFormat = new Intl.NumberFormat('en-GB');
const listFormat = new Intl.ListFormat('en-GB', { type: 'conjunction' });
const EMPTY_FIELDS_HINT = "The count above assumes empty fields (each sent as its fallback or one space). Pick a group to count with its contacts' values.";

export interface AudienceGroup {
  uuid: string;
  name: string;
}

export interface AudienceSegmentsProps {
  body: string;
  /** The saved template, whose links the service counts at their short length; none for a new template. */
  templateUuid?: string;
  /** The team's contact groups. */
  groups: readonly AudienceGroup[];
  /** Chosen until the user picks (e.g. the included groups of the template's latest scheduled campaign). */
  defaultGroups?: readonly string[];
  /** True when the body has `{{field}}`s, which the count without groups takes as one space each. */
  hasFields: boolean;
}

function plural(count: number, one: string, many: string): string {
  return `${numberFormat.format(count)} ${count === 1 ? one : many}`;
}

/** "1–3 SMS parts, typically 1", or "2 SMS parts each" when every recipient gets the same. */
function partsRange({ min, typical, max }: { min: number; typical: number; max: number }): string {
  if (min === max) return `${plural(min, 'SMS part', 'SMS parts')}${min === 1 ? '' : ' each'}`;
  return `${numberFormat.format(min)}–${numberFormat.format(max)} SMS parts, typically ${numberFormat.format(typical)}`;
}

function groupNames(chosen: readonly string[], groups: readonly AudienceGroup[]): string {
  if (chosen.length > 3) return `${chosen.length} groups`;
  return listFormat.format(chosen.map((uuid) => groups.find((group) => group.uuid === uuid)?.name ?? 'a deleted group'));
}

/** Under the segment counter: the SMS parts the body makes for the real recipients of some groups, as the service renders them. */
export function AudienceSegments({ body, templateUuid, groups, defaultGroups = [], hasFields }: AudienceSegmentsProps) {
  // null until the user picks: the default (which may load later) applies until then.
  const [picked, setPicked] = useState<string[] | null>(null);
  const known = useMemo(() => new Set(groups.map((group) => group.uuid)), [groups]);
  const chosen = useMemo(() => picked ?? defaultGroups.filter((uuid) => known.has(uuid)), [picked, defaultGroups, known]);
  const data = useMemo(() => groups.map((group) => ({ value: group.uuid, label: group.name })), [groups]);

  const contactGroupsKey = [...chosen].sort().join(',');
  const input = useMemo<AudienceMeasureInput>(
    () => ({ body, templateUuid, contactGroups: contactGroupsKey ? contactGroupsKey.split(',') : [] }),
    [body, templateUuid, contactGroupsKey],
  );
  const [debounced] = useDebouncedValue(input, DEBOUNCE_MS);
  const enabled = debounced.contactGroups.length > 0 && debounced.body.trim() !== '';
  const measured = useQuery({ ...templateUsageQueries.audience(debounced), enabled });
  const settling = debounced !== input || measured.isFetching;
  const audience = measured.data?.audience;
  const failed = chosen.length > 0 && measured.isError;

  let result: string | null = null;
  if (chosen.length === 0) result = null;
  else if (body.trim() === '') result = 'Write the message to measure it against these groups.';
  else if (measured.isError) result = `The parts could not be measured: ${describeError(measured.error)}`;
  else if (!audience) result = 'Measuring…';
  else if (audience.recipients === 0) result = `${groupNames(chosen, groups)} ${chosen.length === 1 ? 'has' : 'have'} no recipients to measure against.`;
  else result = `For ${plural(audience.recipients, 'recipient', 'recipients')} of ${groupNames(chosen, groups)}: ${partsRange(audience.segments)}`;

  return (
    <Stack gap={4}>
      <MultiSelect
        label="Measure against a group"
        description="Counts the parts each recipient's message takes, with their own fields filled in."
        placeholder={chosen.length ? undefined : groups.length ? 'Pick contact groups' : 'No contact groups yet'}
        data={data}
        value={chosen}
        onChange={setPicked}
        searchable
        clearable
        nothingFoundMessage="No group of that name"
        size="sm"
      />
      <Group gap="xs" wrap="nowrap" align="center">
        <Text
          size="sm"
          c={failed ? 'red.8' : result === null ? 'dimmed' : undefined}
          fw={chosen.length > 0 && !failed && audience && audience.recipients > 0 ? 500 : undefined}
          aria-live="polite"
          data-testid="audience-segments"
        >
          {result ?? (hasFields ? EMPTY_FIELDS_HINT : '')}
        </Text>
        {chosen.length > 0 && settling && <Loader size="xs" aria-label="Measuring" />}
      </Group>
    </Stack>
  );
}
