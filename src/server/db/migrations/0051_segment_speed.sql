-- Segments counted fast (issue 35, point 1: a three-condition segment with one behaviour condition
-- over a million contacts and five million messages in a second). docs/segments.md, "Speed".

-- A behaviour condition within the last N days reads only the messages of that window: each
-- index holds one kind of message by campaign and the very time the condition compares (the same
-- expression as db/segment-sql.ts), and carries the number and that time's columns, so the window's
-- numbers are read from the index alone (an index-only scan), not from the messages' pages.
-- Queued and unsent messages are in none of them, so writing an audience costs nothing more; a
-- message gets its entries as it is submitted, delivered or fails.
CREATE INDEX messages_received_at_idx ON messages (campaign_id, (coalesce(submitted_at, finished_at, created_at)))
  INCLUDE (phone_number, submitted_at, finished_at, created_at)
  WHERE status IN ('submitted', 'delivered', 'failed');
CREATE INDEX messages_delivered_at_idx ON messages (campaign_id, (coalesce(finished_at, submitted_at)))
  INCLUDE (phone_number, finished_at, submitted_at)
  WHERE status = 'delivered';
CREATE INDEX messages_failed_at_idx ON messages (campaign_id, (coalesce(finished_at, submitted_at, created_at)))
  INCLUDE (phone_number, reason, finished_at, submitted_at, created_at)
  WHERE status = 'failed';

-- PostgreSQL keeps no statistics of a partial index's expression: without these it guesses that a
-- third of the messages fall in any window, and reads them all rather than the window's.
CREATE STATISTICS messages_received_at_stats ON (coalesce(submitted_at, finished_at, created_at)) FROM messages;
CREATE STATISTICS messages_delivered_at_stats ON (coalesce(finished_at, submitted_at)) FROM messages;
CREATE STATISTICS messages_failed_at_stats ON (coalesce(finished_at, submitted_at, created_at)) FROM messages;

-- A field condition reads the field's exact key inline and calls herald_field (0047) only when a
-- contact has no such key (a name in another case): priced at its default (100 operators a call) the
-- planner counts that call for every contact, thinks reading the contacts dear, and looks numbers up
-- one by one rather than reading the contacts once.
ALTER FUNCTION herald_field(jsonb, text) COST 1;
