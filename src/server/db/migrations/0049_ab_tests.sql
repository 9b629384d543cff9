-- A/B tests (issue 35, point 2): a campaign's variants, its test settings and decision, and each
-- message's variant. docs/ab-tests.md describes the split, the window and the decision.

-- A campaign's variants in order (2 to 4): `position` is the number its messages record
-- (messages.variant); the first is the campaign's own template. `sender` null: the campaign's.
CREATE TABLE campaign_variants (
  campaign_id bigint NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  position smallint NOT NULL CHECK (position BETWEEN 0 AND 3),
  name text NOT NULL,
  template_id bigint NOT NULL REFERENCES templates (id),
  sender text,
  PRIMARY KEY (campaign_id, position),
  UNIQUE (campaign_id, name)
);
CREATE INDEX campaign_variants_template_idx ON campaign_variants (template_id);

-- `ab_test`: the settings as the API takes them (null: no A/B test). `ab_seed` fixes the split
-- at the start. `ab_window_ms` is the sending time counted so far, up to `ab_window_at`; the
-- decision (`ab_winner`, a variant's position) is written by the campaign lifecycle only.
ALTER TABLE campaigns
  ADD COLUMN ab_test jsonb,
  ADD COLUMN ab_seed bigint,
  ADD COLUMN ab_window_ms bigint NOT NULL DEFAULT 0,
  ADD COLUMN ab_window_at timestamptz,
  ADD COLUMN ab_winner smallint,
  ADD COLUMN ab_decided_by text CHECK (ab_decided_by IN ('auto', 'manual', 'not_significant')),
  ADD COLUMN ab_probability double precision,
  ADD COLUMN ab_decided_at timestamptz,
  ADD COLUMN ab_results jsonb;

-- The variant a message carries (null without an A/B test).
ALTER TABLE messages ADD COLUMN variant smallint;
