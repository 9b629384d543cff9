-- Import speed (issue 20): each index and check on contacts is paid once per imported row.
--
-- 1. The foreign key from contacts to contact_groups checked each inserted
-- row on its own: about 8 of the 19 seconds of a 1,000,000-row import's merge. Every statement
-- that writes contacts first locks its group's row (FOR UPDATE), which a concurrent deletion of the
-- group would wait for, so no contact can be written for a group that is gone. What the key's
-- ON DELETE CASCADE did, a statement-level trigger does: deleting groups (directly or with their
-- team) deletes their contacts in one statement.
--
-- 2. The surrogate `id` (and its index: a tenth of the merge) was read by nothing; a contact is
--    its group and number, which are now the primary key.
ALTER TABLE contacts DROP CONSTRAINT contacts_contact_group_id_fkey;
ALTER TABLE contacts DROP COLUMN id, ADD PRIMARY KEY USING INDEX contacts_group_phone_key;

CREATE FUNCTION contacts_of_removed_groups() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM contacts WHERE contact_group_id IN (SELECT id FROM removed_groups);
  RETURN NULL;
END $$;

CREATE TRIGGER contact_groups_remove_contacts AFTER DELETE ON contact_groups
  REFERENCING OLD TABLE AS removed_groups FOR EACH STATEMENT EXECUTE FUNCTION contacts_of_removed_groups();
