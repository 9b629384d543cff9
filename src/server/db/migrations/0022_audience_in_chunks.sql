-- Issue #16 (scale): a campaign's first message leaves at its send time, not after a million rows
-- are written. A campaign that is not throttled starts with the first few thousand recipients (by
-- number) written as messages; the engine writes the rest in chunks beside the sending, each after
-- the number the last one ended at (`audience_after`; NULL once every recipient is written).
ALTER TABLE campaigns ADD COLUMN audience_after text;
-- While the audience is being written, how many recipients it is expected to have (counted once,
-- beside the sending): the summary shows it as the campaign's recipients until every one is written.
ALTER TABLE campaigns ADD COLUMN audience_estimate integer;
