-- Segments counted fast (issue 35, point 1: a three-condition segment with one behaviour condition
-- over a million contacts and five million messages in a second). docs/segments.md, "Speed".

-- `delivered` and `failed` within the last N days read only the messages of that window: each
-- index holds one kind of message by campaign and the very time the condition compares (the same
-- expression as db/segment-sql.ts), and carries the number and that time's columns, so the window's
-- numbers are read from the index alone (an index-only scan), not from the messages' pages.
-- A message enters one of them once, with its final status: queued, submitted and unsent messages
-- are in neither, so writing an audience and submitting cost nothing more, and a receipt one index
-- entry (no difference beyond the noise in a trial of 200,000 messages submitted and delivered).
-- `received` has no index of its own: a message would enter it twice, when submitted and when its
-- receipt comes, and in the same trial status updates took about a fifth longer with it; it reads
-- the campaigns' messages as before.
CREATE INDEX messages_delivered_at_idx ON messages (campaign_id, (coalesce(finished_at, submitted_at)))
  INCLUDE (phone_number, finished_at, submitted_at)
  WHERE status = 'delivered';
CREATE INDEX messages_failed_at_idx ON messages (campaign_id, (coalesce(finished_at, submitted_at, created_at)))
  INCLUDE (phone_number, reason, finished_at, submitted_at, created_at)
  WHERE status = 'failed';

-- PostgreSQL keeps no statistics of a partial index's expression: without these it guesses that a
-- third of the messages fall in any window, and reads them all rather than the window's.
CREATE STATISTICS messages_delivered_at_stats ON (coalesce(finished_at, submitted_at)) FROM messages;
CREATE STATISTICS messages_failed_at_stats ON (coalesce(finished_at, submitted_at, created_at)) FROM messages;

-- A field condition reads the field's exact key inline and calls herald_field (0047) only when a
-- contact has no such key (a name in another case): priced at its default (100 operators a call) the
-- planner counts that call for every contact, thinks reading the contacts dear, and looks numbers up
-- one by one rather than reading the contacts once.
ALTER FUNCTION herald_field(jsonb, text) COST 1;
