-- Issue #16 (exactly once, proven).
--
-- 1. Fenced leases. Every claim of a batch (a new range, or a takeover of one whose owner stopped
--    renewing) gets a new token; the owner renews, marks and settles the batch only while the token
--    is still its own, so a worker that was taken over can change nothing.
-- 2. In-doubt messages are explicit. `submitting` is set, durably, before a batch goes to the
--    gateway: if its owner dies before settling it, its still-queued messages may or may not have
--    been handed over, and whoever takes it over applies the in-doubt policy (SMS_IN_DOUBT).
CREATE SEQUENCE send_batch_tokens;
ALTER TABLE send_batches
  ADD COLUMN token bigint NOT NULL DEFAULT nextval('send_batch_tokens'),
  ADD COLUMN submitting boolean NOT NULL DEFAULT false;

-- 3. Counters, not scans: each campaign's messages by status, kept by the engine's own statements
--    as messages move (settle, receipts, expiry, opt-outs), so a summary poll reads one row whatever
--    the campaign's size. `queued` is what is left: message_count minus the others. `in_doubt_count`
--    counts messages whose submission was in doubt after an interruption (resent or failed per policy).
ALTER TABLE campaigns
  ADD COLUMN submitted_count integer NOT NULL DEFAULT 0,
  ADD COLUMN delivered_count integer NOT NULL DEFAULT 0,
  ADD COLUMN failed_count integer NOT NULL DEFAULT 0,
  ADD COLUMN in_doubt_count integer NOT NULL DEFAULT 0;

UPDATE campaigns c SET submitted_count = s.submitted, delivered_count = s.delivered, failed_count = s.failed
  FROM (SELECT campaign_id, count(*) FILTER (WHERE status = 'submitted') AS submitted,
               count(*) FILTER (WHERE status = 'delivered') AS delivered, count(*) FILTER (WHERE status = 'failed') AS failed
          FROM messages GROUP BY campaign_id) s
 WHERE c.id = s.campaign_id;

-- 4. Receipts that wait for their submission to be recorded are dropped once they are too old to
--    find it (the expiry step clears them): an index for that sweep.
CREATE INDEX early_receipts_received_idx ON early_receipts (received_at);
