-- Claims by sequence range (issue #6, throughput). A worker claims the next range of a campaign's
-- messages by moving the campaign's `next_sequence` and recording the range as a leased batch; the
-- message rows themselves are written only when submitted and when their receipt comes. A batch whose
-- lease ends (its worker died) is offered again, and only its still-queued messages are sent.
ALTER TABLE campaigns
  ADD COLUMN message_count integer NOT NULL DEFAULT 0,
  ADD COLUMN next_sequence integer NOT NULL DEFAULT 1,
  -- next_sequence when the throttle plan was last anchored (sending began, or a manual resume).
  ADD COLUMN anchor_sequence integer NOT NULL DEFAULT 1,
  -- Set once the expiry has been applied to the campaign's messages, so it is applied once.
  ADD COLUMN expired_at timestamptz;

CREATE TABLE send_batches (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  campaign_id bigint NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  first_sequence integer NOT NULL,
  last_sequence integer NOT NULL,
  owner text NOT NULL,
  lease_until timestamptz NOT NULL
);
CREATE INDEX send_batches_campaign_idx ON send_batches (campaign_id, lease_until);

-- Campaigns sending when this migration runs: every message is claimed, in one batch already free.
UPDATE campaigns c SET message_count = coalesce((SELECT max(sequence) FROM messages m WHERE m.campaign_id = c.id), 0)
 WHERE c.status IN (1, 2);
UPDATE campaigns SET next_sequence = message_count + 1, anchor_sequence = message_count + 1 WHERE status IN (1, 2);
INSERT INTO send_batches (campaign_id, first_sequence, last_sequence, owner, lease_until)
SELECT id, 1, message_count, 'migration', '-infinity' FROM campaigns WHERE status = 1 AND message_count > 0;
UPDATE campaigns SET expired_at = now() WHERE status = 2 AND expiry_date <= now();

-- Every index on messages is paid for by each of a message's three writes: keep only those read.
-- Leases live on batches now; the uuid (the gateway's client reference) is never looked up.
DROP INDEX messages_queued_idx;
DROP INDEX messages_submitted_idx;
ALTER TABLE messages DROP CONSTRAINT messages_uuid_key;
ALTER TABLE messages DROP COLUMN lease_owner, DROP COLUMN lease_until;

-- Room on each page for a message's receipt to be written beside it (a HOT update: no index entries).
ALTER TABLE messages SET (fillfactor = 80);
