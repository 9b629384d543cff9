-- The overview (issue 21): a team's messaging over any period, read from counters rather than from
-- the messages themselves (p99 ≤ 50 ms with a million messages in the period).
--
-- Campaigns already count their messages by state. They now also count the SMS parts handed to the
-- gateway and, of their clicks, those made by people (not link-preview bots) and the recipients who
-- made at least one.
ALTER TABLE campaigns
  ADD COLUMN segments_submitted bigint NOT NULL DEFAULT 0,
  ADD COLUMN human_click_count integer NOT NULL DEFAULT 0,
  ADD COLUMN human_clicker_count integer NOT NULL DEFAULT 0;

-- Each change of those counters is added to the team's row for the hour it happened in (UTC hours,
-- so any time zone's days can be made of them; the database's clock): messages that left the queue
-- for the gateway (sent: submitted, then delivered or failed; a later expiry does not take one back),
-- delivered, failed, never sent, SMS parts, human clicks and first human clicks. Send tests are left
-- out. Inbound messages and opt-outs are added as they are written, by the hour of their own time.
CREATE TABLE team_hourly_counts (
  team_id bigint NOT NULL,
  hour timestamptz NOT NULL,
  sent bigint NOT NULL DEFAULT 0,
  delivered bigint NOT NULL DEFAULT 0,
  failed bigint NOT NULL DEFAULT 0,
  unsent bigint NOT NULL DEFAULT 0,
  segments bigint NOT NULL DEFAULT 0,
  human_clicks bigint NOT NULL DEFAULT 0,
  human_clickers bigint NOT NULL DEFAULT 0,
  inbound bigint NOT NULL DEFAULT 0,
  opt_outs bigint NOT NULL DEFAULT 0,
  -- Opt-outs by keyword that followed one of the team's campaigns (the opt-out rate's numerator).
  campaign_opt_outs bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (team_id, hour)
);

-- The campaigns' human clicks so far (before the trigger below, which would count them again).
UPDATE campaigns c SET human_click_count = (SELECT count(*) FROM link_clicks k WHERE k.campaign_id = c.id AND NOT k.is_bot),
                       human_clicker_count = (SELECT count(DISTINCT s.message_id) FROM link_clicks k JOIN short_links s ON s.code = k.code
                                                WHERE k.campaign_id = c.id AND NOT k.is_bot)
 WHERE c.click_count > 0;

CREATE FUNCTION campaign_counts_by_hour() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sent bigint := greatest(0, (NEW.submitted_count + NEW.delivered_count + NEW.failed_count) - (OLD.submitted_count + OLD.delivered_count + OLD.failed_count));
  delivered bigint := NEW.delivered_count - OLD.delivered_count;
  failed bigint := NEW.failed_count - OLD.failed_count;
  unsent bigint := NEW.unsent_count - OLD.unsent_count;
  segments bigint := NEW.segments_submitted - OLD.segments_submitted;
  human_clicks bigint := NEW.human_click_count - OLD.human_click_count;
  human_clickers bigint := NEW.human_clicker_count - OLD.human_clicker_count;
BEGIN
  IF sent = 0 AND delivered = 0 AND failed = 0 AND unsent = 0 AND segments = 0 AND human_clicks = 0 AND human_clickers = 0 THEN
    RETURN NULL;
  END IF;
  INSERT INTO team_hourly_counts AS c (team_id, hour, sent, delivered, failed, unsent, segments, human_clicks, human_clickers)
  VALUES (NEW.team_id, date_trunc('hour', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', sent, delivered, failed, unsent, segments, human_clicks, human_clickers)
  ON CONFLICT (team_id, hour) DO UPDATE
    SET sent = c.sent + EXCLUDED.sent, delivered = c.delivered + EXCLUDED.delivered, failed = c.failed + EXCLUDED.failed,
        unsent = c.unsent + EXCLUDED.unsent, segments = c.segments + EXCLUDED.segments,
        human_clicks = c.human_clicks + EXCLUDED.human_clicks, human_clickers = c.human_clickers + EXCLUDED.human_clickers;
  RETURN NULL;
END $$;

CREATE TRIGGER campaigns_counts_by_hour
  AFTER UPDATE OF submitted_count, delivered_count, failed_count, unsent_count, segments_submitted, human_click_count, human_clicker_count ON campaigns
  FOR EACH ROW WHEN (NEW.test_of IS NULL) EXECUTE FUNCTION campaign_counts_by_hour();

CREATE FUNCTION inbound_counts_by_hour() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO team_hourly_counts AS c (team_id, hour, inbound)
  SELECT team_id, date_trunc('hour', received_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', count(*) FROM added_rows WHERE team_id IS NOT NULL GROUP BY 1, 2
  ON CONFLICT (team_id, hour) DO UPDATE SET inbound = c.inbound + EXCLUDED.inbound;
  RETURN NULL;
END $$;
CREATE TRIGGER inbound_messages_counted_by_hour AFTER INSERT ON inbound_messages
  REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION inbound_counts_by_hour();

CREATE FUNCTION opt_out_counts_by_hour() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO team_hourly_counts AS c (team_id, hour, opt_outs, campaign_opt_outs)
  SELECT team_id, date_trunc('hour', created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', count(*),
         count(*) FILTER (WHERE source = 'keyword' AND campaign_id IS NOT NULL)
    FROM added_rows WHERE kind = 'opt_out' GROUP BY 1, 2
  ON CONFLICT (team_id, hour) DO UPDATE SET opt_outs = c.opt_outs + EXCLUDED.opt_outs, campaign_opt_outs = c.campaign_opt_outs + EXCLUDED.campaign_opt_outs;
  RETURN NULL;
END $$;
CREATE TRIGGER opt_out_events_counted_by_hour AFTER INSERT ON opt_out_events
  REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION opt_out_counts_by_hour();

-- What happened before: messages by the hour they were submitted (or refused) and finished, human
-- clicks and each recipient's first one by theirs (SMS parts were not counted then).
INSERT INTO team_hourly_counts (team_id, hour, sent, delivered, failed, unsent, human_clicks, human_clickers, inbound, opt_outs, campaign_opt_outs)
SELECT team_id, date_trunc('hour', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', sum(sent), sum(delivered), sum(failed), sum(unsent), sum(human_clicks),
       sum(human_clickers), sum(inbound), sum(opt_outs), sum(campaign_opt_outs)
  FROM (
    SELECT ca.team_id, coalesce(m.submitted_at, m.finished_at) AS at, 1 AS sent, 0 AS delivered, 0 AS failed, 0 AS unsent, 0 AS human_clicks,
           0 AS human_clickers, 0 AS inbound, 0 AS opt_outs, 0 AS campaign_opt_outs
      FROM messages m JOIN campaigns ca ON ca.id = m.campaign_id
     WHERE (m.submitted_at IS NOT NULL OR m.status = 'failed') AND ca.test_of IS NULL
    UNION ALL
    SELECT ca.team_id, m.finished_at, 0, (m.status = 'delivered')::int, (m.status = 'failed')::int, (m.status = 'unsent')::int, 0, 0, 0, 0, 0
      FROM messages m JOIN campaigns ca ON ca.id = m.campaign_id WHERE m.finished_at IS NOT NULL AND ca.test_of IS NULL
    UNION ALL
    SELECT ca.team_id, k.clicked_at, 0, 0, 0, 0, 1, 0, 0, 0, 0
      FROM link_clicks k JOIN campaigns ca ON ca.id = k.campaign_id WHERE NOT k.is_bot AND ca.test_of IS NULL
    UNION ALL
    SELECT ca.team_id, min(k.clicked_at), 0, 0, 0, 0, 0, 1, 0, 0, 0
      FROM link_clicks k JOIN short_links s ON s.code = k.code JOIN campaigns ca ON ca.id = k.campaign_id
     WHERE NOT k.is_bot AND ca.test_of IS NULL GROUP BY ca.team_id, s.message_id
    UNION ALL
    SELECT team_id, received_at, 0, 0, 0, 0, 0, 0, 1, 0, 0 FROM inbound_messages WHERE team_id IS NOT NULL
    UNION ALL
    SELECT team_id, created_at, 0, 0, 0, 0, 0, 0, 0, 1, (source = 'keyword' AND campaign_id IS NOT NULL)::int FROM opt_out_events WHERE kind = 'opt_out'
  ) e
 WHERE at IS NOT NULL
 GROUP BY 1, 2;

-- The overview's lists: a team's latest imports.
CREATE INDEX contact_imports_team_order_idx ON contact_imports (team_id, created_at DESC, id DESC);
