-- What became of a keyword reply at the gateway: its id there (receipts name it) or why it was refused.
ALTER TABLE outbound_replies ADD COLUMN gateway_id text, ADD COLUMN reason text;
CREATE INDEX outbound_replies_gateway_idx ON outbound_replies (gateway_id) WHERE gateway_id IS NOT NULL;
