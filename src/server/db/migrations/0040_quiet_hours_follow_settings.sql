-- Issue #32, point 6 (quiet hours that follow their settings).
--
-- 1. Batches held for quiet hours (owner 'held', their lease ending when quiet hours end in their
--    recipients' zone) are released as soon as the team's quiet hours or zone change: the next
--    claim looks at them again under the new settings (and holds again what must still wait, until
--    the new end). Without this they stayed held until the old end. A trigger, so every way of
--    changing the settings (the API, the CLI, SQL by hand) releases them, in the same transaction.
CREATE FUNCTION release_held_batches() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE send_batches b SET lease_until = '-infinity'
    FROM campaigns c
   WHERE c.id = b.campaign_id AND c.team_id = NEW.id AND b.owner = 'held' AND b.lease_until > '-infinity';
  RETURN NULL;
END $$;

CREATE TRIGGER teams_quiet_hours_changed AFTER UPDATE OF quiet_hours, time_zone ON teams FOR EACH ROW
  WHEN (OLD.quiet_hours IS DISTINCT FROM NEW.quiet_hours OR OLD.time_zone IS DISTINCT FROM NEW.time_zone)
  EXECUTE FUNCTION release_held_batches();

-- 2. How many queued messages a held batch holds (NULL for every other batch), so a campaign's
--    summary says how many people wait for quiet hours to end without reading their messages.
ALTER TABLE send_batches ADD COLUMN held_messages integer;
