-- Consent you can prove (issue 36): an import's consent column ("Accepts SMS Marketing"). A staged
-- row carries what its cell said (null: the file had no consent column); the merge suppresses the
-- rows that said no (default_optouts, source import) instead of importing them, and records a consent
-- for the rows that said yes. The import counts the suppressed numbers.
ALTER TABLE contact_import_rows ADD COLUMN consent boolean;
ALTER TABLE contact_imports ADD COLUMN contacts_suppressed integer NOT NULL DEFAULT 0;
