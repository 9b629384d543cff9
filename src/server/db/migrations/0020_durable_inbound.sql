-- Issue #16 (exactly once, proven): nothing the gateway delivers is acknowledged before it is stored.
--
-- 1. Inbound messages stored once. The gateway acknowledges a message only after it is stored, so a
--    crash between the two has the SMSC deliver it again; the gateway names each delivery with a key
--    that is the same when it comes again, and the message is kept once. A key older than an hour no
--    longer counts (an identical message an hour later is a new one); old keys are removed.
CREATE TABLE inbound_deliveries (
  key text PRIMARY KEY,
  inbound_message_id bigint REFERENCES inbound_messages (id) ON DELETE SET NULL,
  received_at timestamptz NOT NULL
);
CREATE INDEX inbound_deliveries_received_idx ON inbound_deliveries (received_at);

-- 2. The simulator's receipts outlive a crash, as an SMSC's do: each submitted batch's receipts wait
--    here (with their outcome) until every one of them was stored, and are delivered again if not.
CREATE TABLE simulator_pending_receipts (
  id bigserial PRIMARY KEY,
  gateway_ids text[] NOT NULL,
  failed boolean[] NOT NULL,
  due_at timestamptz NOT NULL
);
CREATE INDEX simulator_pending_receipts_due_idx ON simulator_pending_receipts (due_at);
