-- Throttled campaigns' pauses, and the one recipient of a send-test campaign.
CREATE TABLE campaign_pauses (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  campaign_id bigint NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  start_at timestamptz NOT NULL,
  end_at timestamptz NOT NULL CHECK (end_at > start_at),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX campaign_pauses_campaign_idx ON campaign_pauses (campaign_id, start_at);

CREATE TABLE campaign_test_recipients (
  campaign_id bigint PRIMARY KEY REFERENCES campaigns (id) ON DELETE CASCADE,
  phone_number text NOT NULL,
  custom_fields jsonb NOT NULL DEFAULT '{}'::jsonb
);

CREATE INDEX campaigns_team_status_idx ON campaigns (team_id, status, created_at DESC, id DESC);
