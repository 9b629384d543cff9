-- SMS connections (issue 34, point 1): a team's accounts at HTTP SMS providers (or an SMPP bind, or
-- the simulator), each with its own credentials, senders and pace. Nothing sends through them yet:
-- routes and the router come next.

-- `credentials_encrypted`: the provider's credential fields as one JSON object, sealed with the key
-- Herald keeps (lib/secret-box.ts); never read back through the API, which shows masked hints.
-- `base_url`: `scheme://host[:port]` only; null means the provider's public API host.
CREATE TABLE sms_connections (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  name text NOT NULL,
  provider text NOT NULL CHECK (provider IN ('twilio', 'vonage', 'infobip', 'plivo', 'telnyx', 'sinch', 'smpp', 'simulator')),
  base_url text,
  credentials_encrypted bytea NOT NULL,
  senders text[] NOT NULL DEFAULT '{}',
  max_per_second integer NOT NULL CHECK (max_per_second > 0),
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX sms_connections_team_order_idx ON sms_connections (team_id, created_at DESC, id DESC);
