-- The simulator gateway's own record of what it "delivered" (the edge of the world in tests and
-- demos). Keyed by client reference: a message submitted twice, even across restarts, goes once.
CREATE TABLE simulator_deliveries (
  client_ref text PRIMARY KEY,
  gateway_id text NOT NULL,
  to_number text NOT NULL,
  from_name text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- How many times the message was handed over: above 1 only for a batch re-offered after a crash.
ALTER TABLE simulator_deliveries ADD COLUMN submissions integer NOT NULL DEFAULT 1;
