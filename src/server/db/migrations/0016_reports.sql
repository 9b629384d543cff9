-- Reports (issue #7). Every report page is an index range, never an OFFSET scan: per-message reports
-- page by `messages.sequence`; the unsent report by `unsent_sequence` (numbered when a message becomes
-- unsent); the clicks report by `link_clicks.sequence` (numbered per campaign as clicks come).

-- The group a recipient was taken from (the recipients report names it); null for send-tests.
ALTER TABLE messages ADD COLUMN contact_group_id bigint;
ALTER TABLE messages ADD COLUMN unsent_sequence integer;
CREATE UNIQUE INDEX messages_unsent_key ON messages (campaign_id, unsent_sequence) WHERE unsent_sequence IS NOT NULL;

ALTER TABLE campaigns
  ADD COLUMN unsent_count integer NOT NULL DEFAULT 0,
  ADD COLUMN click_count integer NOT NULL DEFAULT 0;

-- Unsent messages written before this migration: numbered in sequence order.
WITH numbered AS (
  SELECT id, row_number() OVER (PARTITION BY campaign_id ORDER BY sequence) AS n FROM messages WHERE status = 'unsent')
UPDATE messages m SET unsent_sequence = numbered.n FROM numbered WHERE m.id = numbered.id;
UPDATE campaigns c SET unsent_count = (SELECT count(*) FROM messages m WHERE m.campaign_id = c.id AND m.status = 'unsent');

ALTER TABLE link_clicks ADD COLUMN campaign_id bigint, ADD COLUMN sequence integer;
WITH numbered AS (
  SELECT k.id, m.campaign_id, row_number() OVER (PARTITION BY m.campaign_id ORDER BY k.clicked_at, k.id) AS n
    FROM link_clicks k JOIN short_links s ON s.code = k.code JOIN messages m ON m.id = s.message_id)
UPDATE link_clicks k SET campaign_id = numbered.campaign_id, sequence = numbered.n FROM numbered WHERE k.id = numbered.id;
DELETE FROM link_clicks WHERE campaign_id IS NULL;
ALTER TABLE link_clicks ALTER COLUMN campaign_id SET NOT NULL, ALTER COLUMN sequence SET NOT NULL;
CREATE UNIQUE INDEX link_clicks_campaign_sequence_key ON link_clicks (campaign_id, sequence);
UPDATE campaigns c SET click_count = (SELECT count(*) FROM link_clicks k WHERE k.campaign_id = c.id);

-- A report asked for by a user: the CSV is written to DATA_DIR/reports, then a signed link is
-- e-mailed. Jobs are rows so a restart finishes them; a worker leases one at a time.
CREATE TABLE report_jobs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  campaign_id bigint NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('clicks', 'delivery', 'alt_delivery', 'recipient', 'sent', 'unsent')),
  -- queued: to write; writing: a worker holds it; mailing: the file is written, the e-mail not yet
  -- sent (retried with back-off); sent: done; failed: given up (`error` says why).
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'writing', 'mailing', 'sent', 'failed')),
  email text NOT NULL,
  file_name text,
  row_count integer,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  lease_until timestamptz,
  error text,
  link_expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX report_jobs_due_idx ON report_jobs (next_attempt_at) WHERE status IN ('queued', 'writing', 'mailing');
CREATE INDEX report_jobs_user_idx ON report_jobs (user_id, team_id, created_at DESC);
