-- Inbound messages and what the keyword pipeline did with them; webhook call log; keyword replies
-- waiting for the SMS gateway.
CREATE TABLE inbound_messages (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  -- NULL: arrived on the shared short code and matched no team's keyword.
  team_id bigint REFERENCES teams (id) ON DELETE CASCADE,
  from_number text NOT NULL,
  body text NOT NULL,
  source text NOT NULL CHECK (source IN ('gateway', 'api')),
  keyword_id bigint REFERENCES keywords (id) ON DELETE SET NULL,
  keyword text,
  opted_out boolean NOT NULL DEFAULT false,
  actions jsonb NOT NULL DEFAULT '[]'::jsonb,
  received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX inbound_messages_team_order_idx ON inbound_messages (team_id, received_at DESC, id DESC);

CREATE TABLE webhook_attempts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  webhook_id bigint NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  inbound_message_id bigint REFERENCES inbound_messages (id) ON DELETE SET NULL,
  event text NOT NULL,
  url text NOT NULL,
  status_code integer,
  latency_ms integer NOT NULL,
  error text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_attempts_webhook_order_idx ON webhook_attempts (webhook_id, created_at DESC, id DESC);

CREATE TABLE outbound_replies (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  inbound_message_id bigint REFERENCES inbound_messages (id) ON DELETE SET NULL,
  to_number text NOT NULL,
  sender text NOT NULL,
  body text NOT NULL,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'submitted', 'failed')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX outbound_replies_queued_idx ON outbound_replies (created_at) WHERE status = 'queued';
