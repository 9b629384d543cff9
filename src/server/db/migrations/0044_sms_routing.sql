-- Sending through a team's SMS connections (issue 34): routes, the connection each message went
-- through, and each connection's state as the router sees it.

-- A team's routes: an ordered list of rules `[{countries: ["GB", …] | ["*"], connections: [uuid, …],
-- sender: text | null}]`. The first rule matching a recipient's country gives the connections to try
-- in order. No row: the team's enabled connections in the order they were made, for every country.
CREATE TABLE sms_routes (
  team_id bigint PRIMARY KEY REFERENCES teams (id) ON DELETE CASCADE,
  rules jsonb NOT NULL,
  updated_at timestamptz NOT NULL
);

-- A connection's price for one SMS part, by country (`{"GB": 0.035, "*": 0.05}`); null or a country
-- left out: the team's price (campaign review).
ALTER TABLE sms_connections ADD COLUMN price_per_segment jsonb;

-- The connection that carried a message (null: the installation's SMS_GATEWAY). A message's
-- `gateway_id` through a connection is `c<connection id>:<provider's id>` (routing/provider-ids.ts),
-- so a status callback at one connection can only settle that connection's messages.
ALTER TABLE messages ADD COLUMN connection_id bigint;
ALTER TABLE outbound_replies ADD COLUMN connection_id bigint;
-- "Is a message still on its way through this connection?" (a connection in use cannot be deleted).
CREATE INDEX messages_connection_submitted_idx ON messages (connection_id) WHERE status = 'submitted' AND connection_id IS NOT NULL;

-- What the router saw of each connection, shared by every process that sends: the circuit breaker
-- (open until `open_until`, then one probe), the last error, and today's counts (UTC day).
CREATE TABLE sms_connection_states (
  connection_id bigint PRIMARY KEY REFERENCES sms_connections (id) ON DELETE CASCADE,
  circuit text NOT NULL DEFAULT 'closed' CHECK (circuit IN ('closed', 'open', 'half_open')),
  open_until timestamptz,
  last_error text,
  last_error_at timestamptz,
  day date NOT NULL,
  messages_today integer NOT NULL DEFAULT 0,
  errors_today integer NOT NULL DEFAULT 0,
  failovers_today integer NOT NULL DEFAULT 0,
  -- When the team's admins were last e-mailed about an account error (at most once an hour).
  alerted_at timestamptz,
  updated_at timestamptz NOT NULL
);

-- An opt-out the provider reported (a send refused because the number opted out there, or a status
-- saying so) is recorded with source `provider`.
ALTER TABLE opt_out_events DROP CONSTRAINT opt_out_events_source_check;
ALTER TABLE opt_out_events ADD CONSTRAINT opt_out_events_source_check CHECK (source IN ('keyword', 'import', 'dashboard', 'api', 'provider'));

-- Each connection's `max_per_second`, shared by every sending process: one row per connection and
-- second, each process taking its share of the second from it (as gateway_rate does for
-- SMS_RATE_LIMIT). Rows older than a minute are deleted as new ones come.
CREATE TABLE connection_rate (
  connection_id bigint NOT NULL REFERENCES sms_connections (id) ON DELETE CASCADE,
  second timestamptz NOT NULL,
  used integer NOT NULL,
  PRIMARY KEY (connection_id, second)
);
