import type { ContactImport } from '../../api/gen/types.gen';

export const GROUP_UUID = '0f8c3a52-61a4-4b0e-9a51-3c1f1b0c9d11';
export const IMPORT_UUID = '7d0b8a8e-2c1f-4f7e-8c55-5b2a9f1e0a42';

/** A finished import of four rows: two added, one updated, one left out. */
export function completedImport(overrides: Partial<ContactImport> = {}): ContactImport {
  return {
    uuid: IMPORT_UUID,
    contact_group_uuid: GROUP_UUID,
    status: 'completed',
    file_name: 'customers.csv',
    bytes_total: 96,
    bytes_received: 96,
    percent: 100,
    rows_total: 4,
    rows_valid: 3,
    rows_invalid: 1,
    contacts_added: 2,
    contacts_updated: 1,
    contacts_unchanged: 0,
    contacts_opted_out: 0,
    contacts_suppressed: 0,
    error: null,
    created_at: '2025-03-01 10:00:00',
    updated_at: '2025-03-01 10:00:01',
    finished_at: '2025-03-01 10:00:01',
    links: [],
    ...overrides,
  };
}
