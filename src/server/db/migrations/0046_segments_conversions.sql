-- Campaigns that learn (issue 35), the shared tables: segments, a campaign's segments, and
-- conversions (orders). What uses them is added beside them: the segment compiler
-- (modules/segments), the campaign audience (db/audience.ts), attribution (modules/conversions).

-- A segment's conditions as the API takes them (contract/segments.ts); evaluated live on read.
CREATE TABLE segments (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  match text NOT NULL CHECK (match IN ('all', 'any')),
  conditions jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX segments_team_order_idx ON segments (team_id, created_at DESC, id DESC);

-- A campaign's included and excluded segments, like campaign_groups (in the order given).
CREATE TABLE campaign_segments (
  campaign_id bigint NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  segment_id bigint NOT NULL REFERENCES segments (id),
  kind text NOT NULL CHECK (kind IN ('included', 'excluded')),
  position integer NOT NULL,
  PRIMARY KEY (campaign_id, segment_id, kind)
);
CREATE INDEX campaign_segments_segment_idx ON campaign_segments (segment_id);

-- An order a team reports (the API, or a shop's webhook), once per `order_id`. `value` in
-- `currency` as given (never converted). The attribution is fixed when it is recorded:
-- `attributed_by` 'click' (the last human click within the click window) or 'view' (the last
-- delivered campaign message within the view window), with the message and its campaign; null:
-- credited to no campaign.
CREATE TABLE conversions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  order_id text NOT NULL,
  phone_number text,
  click_code text,
  value numeric(14, 2) NOT NULL CHECK (value >= 0),
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  occurred_at timestamptz NOT NULL,
  source text NOT NULL CHECK (source IN ('api', 'shopify', 'woocommerce')),
  campaign_id bigint REFERENCES campaigns (id) ON DELETE SET NULL,
  message_id bigint,
  attributed_by text CHECK (attributed_by IN ('click', 'view')),
  created_at timestamptz NOT NULL,
  UNIQUE (team_id, order_id)
);
CREATE INDEX conversions_team_number_idx ON conversions (team_id, phone_number, occurred_at);
CREATE INDEX conversions_campaign_idx ON conversions (campaign_id) WHERE campaign_id IS NOT NULL;
