-- Idempotency-Key on every POST of the API (http/idempotency.ts): the first answer to a request with
-- a key is kept 24 hours per caller (user and team) and replayed for the same key and request. A row
-- whose `locked_until` is set is a request still running; `response_status` set, an answer to replay.
CREATE TABLE idempotency_keys (
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  key text NOT NULL,
  -- sha256 of the method, the route, its parameters, the query and the body.
  fingerprint bytea NOT NULL,
  locked_until timestamptz,
  response_status smallint,
  response_headers jsonb,
  response_body bytea,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, team_id, key)
);

CREATE INDEX idempotency_keys_expiry_idx ON idempotency_keys (expires_at);
