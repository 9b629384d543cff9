-- Tracked links in flow messages (issue 36, docs/flows.md): a flow's message (`outbound_replies`,
-- kind `flow`) gets a short link of its own for each `::NAME::`, made by the flows' advance in the
-- transaction that queues the message. A short link belongs to exactly one message: a campaign's
-- (`message_id`) or one sent outside a campaign (`outbound_reply_id`). Every existing row is a
-- campaign's, and every query of campaigns, reports and conversions joins `messages` through
-- `message_id`, so a flow's links stay out of them.
ALTER TABLE short_links
  ALTER COLUMN message_id DROP NOT NULL,
  ADD COLUMN outbound_reply_id bigint REFERENCES outbound_replies (id) ON DELETE CASCADE,
  ADD CONSTRAINT short_links_one_owner CHECK ((message_id IS NULL) <> (outbound_reply_id IS NULL));
CREATE INDEX short_links_outbound_reply_idx ON short_links (outbound_reply_id) WHERE outbound_reply_id IS NOT NULL;

-- A click on a flow's link belongs to no campaign: it has neither `campaign_id` nor the campaign's
-- click `sequence` (which the clicks report pages by). A campaign's click keeps both, so every
-- `campaign_id = …` read (counts, the clicks report, the overview) sees exactly what it saw before.
ALTER TABLE link_clicks
  ALTER COLUMN campaign_id DROP NOT NULL,
  ALTER COLUMN sequence DROP NOT NULL,
  ADD CONSTRAINT link_clicks_campaign_sequence CHECK ((campaign_id IS NULL) = (sequence IS NULL));
