-- Conversations and journeys (issue 36): what the inbox, flows, consent and frequency caps share.

-- Every message Herald sends outside a campaign goes through outbound_replies and the engine's reply
-- sender (ahead of campaigns, within the gateway's rate, through the team's route): a keyword's or a
-- built-in word's reply, a member's reply from the inbox, a flow's message, and the double opt-in's
-- request to confirm. `kind` says which. `marketing` marks the ones frequency caps count (a flow's
-- send step that is not transactional); replies and confirmations are not marketing.
ALTER TABLE outbound_replies ADD COLUMN kind text NOT NULL DEFAULT 'keyword_reply'
  CHECK (kind IN ('keyword_reply', 'inbox_reply', 'flow', 'confirmation'));
ALTER TABLE outbound_replies ADD COLUMN marketing boolean NOT NULL DEFAULT false;
-- Such a message's states: queued, submitted (with the gateway's id), delivered or undelivered (its
-- receipt), failed (refused at the hand-over), or unsent (never handed over: a frequency cap, an
-- opt-out since it was queued; `reason` says which).
ALTER TABLE outbound_replies DROP CONSTRAINT outbound_replies_status_check;
ALTER TABLE outbound_replies ADD CONSTRAINT outbound_replies_status_check
  CHECK (status IN ('queued', 'submitted', 'delivered', 'undelivered', 'failed', 'unsent'));
-- A number's messages in a team, newest last: the inbox's thread and the frequency cap's count.
CREATE INDEX outbound_replies_team_number_idx ON outbound_replies (team_id, to_number, created_at);

-- Consent you can prove: every time a number agreed to receive a team's marketing, how and with
-- what evidence (the inbound message, the form's address and user agent, the import's file and row,
-- the API token). Written, never changed, except that erasing a number deletes its records.
CREATE TABLE consent_records (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  phone_number text NOT NULL,
  source text NOT NULL CHECK (source IN ('keyword', 'form', 'import', 'api', 'checkout', 'dashboard')),
  -- When the number agreed (under double opt-in: when it replied YES).
  at timestamptz NOT NULL,
  text_shown text NOT NULL DEFAULT '',
  evidence jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX consent_records_team_number_idx ON consent_records (team_id, phone_number, at);

-- Double opt-in: a sign-up (a keyword from a number without consent, the hosted sign-up page) waits
-- here for the number's YES. `keyword_id` and `group_id` say what the YES then does (the keyword's
-- actions, the sign-up page's group); `fields` are the contact's fields the form collected.
-- At most one pending request per team and number: a second sign-up renews it.
CREATE TABLE opt_in_requests (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  phone_number text NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'confirmed', 'expired')),
  source text NOT NULL CHECK (source IN ('keyword', 'form', 'import', 'api', 'checkout', 'dashboard')),
  text_shown text NOT NULL DEFAULT '',
  evidence jsonb NOT NULL DEFAULT '{}',
  keyword_id bigint REFERENCES keywords (id) ON DELETE SET NULL,
  group_id bigint REFERENCES contact_groups (id) ON DELETE SET NULL,
  fields jsonb NOT NULL DEFAULT '{}',
  requested_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  decided_at timestamptz
);
CREATE UNIQUE INDEX opt_in_requests_pending_idx ON opt_in_requests (team_id, phone_number) WHERE state = 'pending';
CREATE INDEX opt_in_requests_expiry_idx ON opt_in_requests (expires_at) WHERE state = 'pending';
