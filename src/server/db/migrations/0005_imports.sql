-- CSV imports of contacts into a group. The file is streamed into a staging table and merged into
-- `contacts` in one transaction at the end, so a group is never left half-written.
CREATE TABLE contact_imports (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  contact_group_id bigint NOT NULL REFERENCES contact_groups (id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'receiving' CHECK (status IN ('receiving', 'merging', 'completed', 'failed')),
  file_name text,
  -- Custom-field names of the file's columns, in column order (the group's spelling when it knew them).
  headers jsonb NOT NULL DEFAULT '[]'::jsonb,
  bytes_total bigint,
  bytes_received bigint NOT NULL DEFAULT 0,
  rows_total integer NOT NULL DEFAULT 0,
  rows_valid integer NOT NULL DEFAULT 0,
  rows_invalid integer NOT NULL DEFAULT 0,
  contacts_added integer NOT NULL DEFAULT 0,
  contacts_updated integer NOT NULL DEFAULT 0,
  contacts_unchanged integer NOT NULL DEFAULT 0,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX contact_imports_group_order_idx ON contact_imports (contact_group_id, created_at DESC, id DESC);
CREATE INDEX contact_imports_running_idx ON contact_imports (id) WHERE status IN ('receiving', 'merging');

-- Staging: valid rows of imports under way. UNLOGGED (no WAL, about twice as fast to fill): after a
-- crash PostgreSQL empties it, which is harmless because such an import is failed at the next
-- start and the group was never touched. No foreign key and no index: rows are only ever read by
-- one import's merge and deleted right after it.
CREATE UNLOGGED TABLE contact_import_rows (
  import_id bigint NOT NULL,
  row_number integer NOT NULL,
  phone_number text NOT NULL,
  custom_fields jsonb NOT NULL
);

-- Rows that were not imported, kept for the report (row as in the file, the header being row 1).
CREATE TABLE contact_import_errors (
  import_id bigint NOT NULL REFERENCES contact_imports (id) ON DELETE CASCADE,
  row_number integer NOT NULL,
  value text NOT NULL,
  reason text NOT NULL,
  PRIMARY KEY (import_id, row_number)
);
