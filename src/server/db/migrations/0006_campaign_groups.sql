-- The groups a campaign sends to (included) and skips (excluded), in the order given.
CREATE TABLE campaign_groups (
  campaign_id bigint NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  contact_group_id bigint NOT NULL REFERENCES contact_groups (id),
  kind text NOT NULL CHECK (kind IN ('included', 'excluded')),
  position integer NOT NULL,
  PRIMARY KEY (campaign_id, contact_group_id, kind)
);
CREATE INDEX campaign_groups_group_idx ON campaign_groups (contact_group_id);
