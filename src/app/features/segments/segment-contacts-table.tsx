import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { SegmentContact } from '../../api/gen/types.gen';
import { DataTable, type DataColumn } from '../../components/data-table';
import { formatPhoneNumber } from '../../lib/phone-number';
import { paths } from '../../paths';
import { countryName } from '../../../shared/phone/phone-countries';

/** How many of the page's field names get a column of their own (the rest are on the contact's page). */
const FIELD_COLUMNS = 5;

export const SEGMENT_CONTACT_COLUMNS = ['Phone number', 'Country', 'Fields'] as const;

/** The field names the page's contacts carry, in the order first met: a column each. */
export function fieldNamesOf(contacts: readonly SegmentContact[]): string[] {
  const names = new Set<string>();
  for (const contact of contacts) for (const name of Object.keys(contact.custom_fields)) names.add(name);
  return [...names].slice(0, FIELD_COLUMNS);
}

const none = (
  <Text span size="sm" c="dimmed">
    —
  </Text>
);

/** A segment's numbers with their country and fields (merged over the team's groups that hold each). */
export function SegmentContactsTable({ contacts, busy }: { contacts: readonly SegmentContact[]; busy?: boolean }) {
  const fields = fieldNamesOf(contacts);
  const columns: DataColumn<SegmentContact>[] = [
    {
      key: 'phone',
      header: 'Phone number',
      rowHeader: true,
      cell: (contact) => (
        <Anchor component={Link} to={paths.contacts.detail.getHref(contact.phone_number)} size="sm" fw={500} ff="monospace">
          {formatPhoneNumber(contact.phone_number)}
        </Anchor>
      ),
    },
    { key: 'country', header: 'Country', cell: (contact) => (contact.country ? countryName(contact.country) : none) },
    ...fields.map((name): DataColumn<SegmentContact> => ({
      key: `field:${name}`,
      header: name,
      cellProps: { maw: 220, style: { overflowWrap: 'anywhere' } },
      cell: (contact) => contact.custom_fields[name] || none,
    })),
  ];
  return (
    <DataTable
      label="Contacts in the segment"
      columns={columns}
      rows={contacts}
      rowKey={(contact) => contact.phone_number}
      busy={busy}
      minWidth={360 + fields.length * 140}
    />
  );
}
