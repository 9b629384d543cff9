-- Contacts of a group. A phone number is in a group at most once; its custom fields follow the
-- group's headers. The group keeps its count so lists never count hundreds of thousands of rows.
CREATE TABLE contacts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  contact_group_id bigint NOT NULL REFERENCES contact_groups (id) ON DELETE CASCADE,
  phone_number text NOT NULL,
  custom_fields jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX contacts_group_phone_key ON contacts (contact_group_id, phone_number);
CREATE INDEX contacts_phone_idx ON contacts (phone_number);

ALTER TABLE contact_groups
  ADD COLUMN contact_count integer NOT NULL DEFAULT 0,
  -- Set while an import or bulk change is under way (status `Modifying`).
  ADD COLUMN modifying_since timestamptz;
