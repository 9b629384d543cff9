-- One row per recipient of a sending campaign: the engine's checkpoint. A row moves
-- queued -> submitted -> delivered | failed, or queued -> unsent at expiry. `sequence` numbers the
-- campaign's messages so report pages are index ranges.
CREATE TABLE messages (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  campaign_id bigint NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  sequence integer NOT NULL,
  phone_number text NOT NULL,
  custom_fields jsonb NOT NULL DEFAULT '{}'::jsonb,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'submitted', 'delivered', 'failed', 'unsent')),
  reason text,
  body text,
  gateway_id text,
  lease_owner text,
  lease_until timestamptz,
  -- The engine process that submitted it (several processes may share the work).
  submitted_by text,
  submitted_at timestamptz,
  finished_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX messages_campaign_sequence_key ON messages (campaign_id, sequence);
CREATE INDEX messages_queued_idx ON messages (campaign_id, sequence) WHERE status = 'queued';
CREATE INDEX messages_submitted_idx ON messages (campaign_id) WHERE status = 'submitted';
CREATE INDEX messages_gateway_idx ON messages (gateway_id) WHERE gateway_id IS NOT NULL;

CREATE INDEX campaigns_sending_idx ON campaigns (id) WHERE status = 1;

-- When a throttled campaign was last resumed after a manual pause: the throttle plan restarts there.
ALTER TABLE campaigns ADD COLUMN resumed_at timestamptz;

-- A receipt can beat the record of its own submission (a fast gateway): it waits here until the
-- message is marked submitted, then settles it.
CREATE TABLE early_receipts (
  gateway_id text PRIMARY KEY,
  status text NOT NULL CHECK (status IN ('delivered', 'failed')),
  reason text,
  received_at timestamptz NOT NULL
);

-- Keyword replies are leased like campaign messages: a worker that dies mid-send leaves them to another.
ALTER TABLE outbound_replies ADD COLUMN lease_until timestamptz;
