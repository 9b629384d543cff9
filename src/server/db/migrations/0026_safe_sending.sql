-- Safe sending (issue 19): drafts, the stop button, quiet hours, review settings, test sends from a
-- campaign, opt-out replies and the opt-out history.

-- Review and cost: the dashboard asks to type the recipient count from `confirm_threshold` recipients
-- on; the estimated cost is shown when `price_per_segment` is set. Quiet hours ({start, end, days},
-- NULL: off) apply in each recipient's zone, the team's `time_zone` for countries of several zones
-- (NULL: the service's APP_TIMEZONE). The three replies answer STOP, START and HELP ('' : no reply).
ALTER TABLE teams
  ADD COLUMN confirm_threshold integer NOT NULL DEFAULT 1000 CHECK (confirm_threshold >= 0),
  ADD COLUMN price_per_segment numeric(12, 5) CHECK (price_per_segment >= 0),
  ADD COLUMN currency text NOT NULL DEFAULT 'EUR',
  ADD COLUMN time_zone text,
  ADD COLUMN quiet_hours jsonb,
  ADD COLUMN opt_out_reply text NOT NULL DEFAULT 'You will receive no more messages from us. Reply START to subscribe again.',
  ADD COLUMN opt_in_reply text NOT NULL DEFAULT 'You are subscribed again. Reply STOP to unsubscribe.',
  ADD COLUMN help_reply text NOT NULL DEFAULT 'Reply STOP to unsubscribe.';

-- The number a member's test sends go to by default.
ALTER TABLE users ADD COLUMN phone_number text;

-- A draft is never started. A stopped campaign sends nothing more: the engine makes its queued
-- messages unsent (reason `stopped`) and marks the sweep done. An admin may let a campaign send
-- through quiet hours. A test send remembers the campaign it tested.
ALTER TABLE campaigns
  ADD COLUMN is_draft boolean NOT NULL DEFAULT false,
  ADD COLUMN stopped_at timestamptz,
  ADD COLUMN stopped_by bigint REFERENCES users (id) ON DELETE SET NULL,
  ADD COLUMN stop_swept boolean NOT NULL DEFAULT false,
  ADD COLUMN ignore_quiet_hours boolean NOT NULL DEFAULT false,
  ADD COLUMN test_of bigint REFERENCES campaigns (id) ON DELETE CASCADE;
CREATE INDEX campaigns_test_of_idx ON campaigns (test_of) WHERE test_of IS NOT NULL;
CREATE INDEX campaigns_stopping_idx ON campaigns (id) WHERE stopped_at IS NOT NULL AND NOT stop_swept;

-- Every opt-out and opt-in, with where it came from and the campaign the number last received.
CREATE TABLE opt_out_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  phone_number text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('opt_out', 'opt_in')),
  source text NOT NULL CHECK (source IN ('keyword', 'import', 'dashboard', 'api')),
  campaign_id bigint REFERENCES campaigns (id) ON DELETE SET NULL,
  user_id bigint REFERENCES users (id) ON DELETE SET NULL,
  reason text,
  created_at timestamptz NOT NULL
);
CREATE INDEX opt_out_events_team_idx ON opt_out_events (team_id, created_at DESC);
CREATE INDEX opt_out_events_campaign_idx ON opt_out_events (campaign_id) WHERE campaign_id IS NOT NULL;
