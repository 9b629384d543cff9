-- Members and invitations, password resets, account e-mails, approvals, the audit log and limits
-- shared by every process (issue 18).

-- An invitation is a single-use link (only its SHA-256 digest is kept), valid 7 days. One pending
-- invitation per address and team: inviting again replaces it.
CREATE TABLE team_invitations (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('admin', 'editor', 'viewer')),
  token_hash bytea NOT NULL UNIQUE,
  invited_by bigint REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz
);
CREATE UNIQUE INDEX team_invitations_pending_key ON team_invitations (team_id, lower(email)) WHERE accepted_at IS NULL;

-- A password reset is a single-use link valid one hour.
CREATE TABLE password_resets (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash bytea NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX password_resets_user_idx ON password_resets (user_id);

-- E-mails about accounts and approvals, written in the transaction of the change that causes them and
-- sent by any process that runs the workers, again after a refusal: none is lost while the mail server
-- is away. A sent message's body (it may hold a single-use link) is emptied.
CREATE TABLE account_emails (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  to_address text NOT NULL,
  subject text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  sent_at timestamptz,
  given_up_at timestamptz,
  last_error text
);
CREATE INDEX account_emails_due_idx ON account_emails (next_attempt_at) WHERE sent_at IS NULL AND given_up_at IS NULL;

-- Who last used Herald: the newest use of any of a member's tokens.
CREATE INDEX api_tokens_user_used_idx ON api_tokens (user_id, last_used_at);

-- Campaigns of at least this many recipients need an admin's approval (0: every campaign; NULL: none).
ALTER TABLE teams ADD COLUMN approval_threshold integer CHECK (approval_threshold >= 0);

ALTER TABLE campaigns
  ADD COLUMN approval_status text NOT NULL DEFAULT 'not_required' CHECK (approval_status IN ('not_required', 'pending', 'approved', 'rejected')),
  ADD COLUMN approval_requested_by bigint REFERENCES users (id) ON DELETE SET NULL,
  ADD COLUMN approval_decided_by bigint REFERENCES users (id) ON DELETE SET NULL,
  ADD COLUMN approval_decided_at timestamptz,
  ADD COLUMN approval_comment text;
-- The engine starts only what needs no approval or has it.
DROP INDEX campaigns_due_idx;
CREATE INDEX campaigns_due_idx ON campaigns (scheduled_send_date) WHERE status = 0 AND approval_status IN ('not_required', 'approved');

-- What happened, by whom: written, never changed. The team is kept as a plain number so no
-- cascade can delete events.
CREATE TABLE audit_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  team_id bigint,
  actor_kind text NOT NULL CHECK (actor_kind IN ('user', 'token', 'anonymous')),
  actor_uuid uuid,
  actor_name text NOT NULL,
  action text NOT NULL,
  resource_type text,
  resource_uuid uuid,
  changes jsonb,
  ip text,
  created_at timestamptz NOT NULL
);
CREATE INDEX audit_events_team_idx ON audit_events (team_id, id DESC);
CREATE INDEX audit_events_resource_idx ON audit_events (team_id, resource_uuid, id DESC);

CREATE FUNCTION audit_events_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit events cannot be changed or deleted' USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TRIGGER audit_events_immutable BEFORE UPDATE OR DELETE ON audit_events FOR EACH ROW EXECUTE FUNCTION audit_events_are_immutable();
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events FOR EACH STATEMENT EXECUTE FUNCTION audit_events_are_immutable();

-- Request, report, send-test and sign-in limits: one counter per key and minute, shared by every
-- process. Unlogged: a crash forgets the current minute's counts, which only lifts a limit early.
CREATE UNLOGGED TABLE rate_counters (
  key text NOT NULL,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL,
  PRIMARY KEY (key, window_start)
);
