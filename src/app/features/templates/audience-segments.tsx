import { Group, Loader, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { describeError } from '../../api/api-error';
import { ServerSearchMultiSelect } from '../../components/server-search';
import { templateUsageQueries, type AudienceMeasureInput } from './template-usage-queries';
import { formatCount, formatList } from '../../lib/format';

/** Asks once the body and the groups have stopped changing for this long, not per keystroke. */
const DEBOUNCE_MS = 500;
const EMPTY_FIELDS_HINT = "The count above assumes empty fields (each sent as its fallback or one space). Pick a group to count with its contacts' values.";

export interface AudienceGroup {
  uuid: string;
  name: string;
}

export interface AudienceSegmentsProps {
  body: string;
  /** The saved template, whose links the service counts at their short length; none for a new template. */
  templateUuid?: string;
  /** The team's contact groups: the first page, or those the service found for the text typed in the picker. */
  groups: readonly AudienceGroup[];
  /** Groups that name the chosen ones whatever was found (the first page, older groups read by uuid); `groups` when absent. */
  knownGroups?: readonly AudienceGroup[];
  /** Called with the text typed in the picker, for the page to search the service with; without it the picker filters `groups`. */
  onGroupSearch?: (text: string) => void;
  /** Chosen until the user picks (e.g. the included groups of the template's latest scheduled campaign). */
  defaultGroups?: readonly string[];
  /** True when the body has `{{field}}`s, which the count without groups takes as one space each. */
  hasFields: boolean;
}

function plural(count: number, one: string, many: string): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/** "1–3 SMS parts, typically 1", or "2 SMS parts each" when every recipient gets the same. */
function partsRange({ min, typical, max }: { min: number; typical: number; max: number }): string {
  if (min === max) return `${plural(min, 'SMS part', 'SMS parts')}${min === 1 ? '' : ' each'}`;
  return `${formatCount(min)}–${formatCount(max)} SMS parts, typically ${formatCount(typical)}`;
}

function groupNames(chosen: readonly string[], names: ReadonlyMap<string, string>): string {
  if (chosen.length > 3) return `${chosen.length} groups`;
  return formatList(chosen.map((uuid) => names.get(uuid) ?? 'a deleted group'));
}

/** Under the segment counter: the SMS parts the body makes for the real recipients of some groups, as the service renders them. */
export function AudienceSegments({ body, templateUuid, groups, knownGroups = groups, onGroupSearch, defaultGroups = [], hasFields }: AudienceSegmentsProps) {
  // null until the user picks: the default (which may load later) applies until then.
  const [picked, setPicked] = useState<string[] | null>(null);
  const [pickedNames, setPickedNames] = useState<ReadonlyMap<string, string>>(new Map());
  const names = useMemo(
    () => new Map([...pickedNames, ...[...knownGroups, ...groups].map((group) => [group.uuid, group.name] as const)]),
    [pickedNames, knownGroups, groups],
  );
  // The default applies once its groups can be named (not while they load).
  const chosen = useMemo(() => picked ?? defaultGroups.filter((uuid) => names.has(uuid)), [picked, defaultGroups, names]);
  const data = useMemo(() => groups.map((group) => ({ value: group.uuid, label: group.name })), [groups]);
  const known = useMemo(() => knownGroups.map((group) => ({ value: group.uuid, label: group.name })), [knownGroups]);

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
  else if (audience.recipients === 0) result = `${groupNames(chosen, names)} ${chosen.length === 1 ? 'has' : 'have'} no recipients to measure against.`;
  else result = `For ${plural(audience.recipients, 'recipient', 'recipients')} of ${groupNames(chosen, names)}: ${partsRange(audience.segments)}`;

  return (
    <Stack gap={4}>
      <ServerSearchMultiSelect
        label="Measure against a group"
        description="Counts the parts each recipient's message takes, with their own fields filled in."
        placeholder={chosen.length ? undefined : knownGroups.length ? 'Pick contact groups' : 'No contact groups yet'}
        data={data}
        known={known}
        onSearch={onGroupSearch}
        value={chosen}
        onChange={(uuids) => {
          setPickedNames(new Map([...names].filter(([uuid]) => uuids.includes(uuid))));
          setPicked(uuids);
        }}
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
