-- Revenue per segment (issue 35, point 3): which of a campaign's included segments each of its
-- recipients matched when the list was fixed at the start (engine/store/start.ts). Revenue per
-- segment is read from this record, never from the segments evaluated again later: a number that
-- stops matching keeps its place in the campaign's figures. Empty: a recipient its groups alone
-- brought (and every recipient fixed before this column existed).
ALTER TABLE campaign_audience ADD COLUMN segment_ids bigint[] NOT NULL DEFAULT '{}';
