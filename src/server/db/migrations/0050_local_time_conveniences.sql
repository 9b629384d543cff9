-- Sending at each recipient's local time (issue 35, point 4). `local_send_time` is the wall-clock
-- time each recipient's zone reads when its message may go: the scheduled send date as written in
-- the service's zone (APP_TIMEZONE) when the campaign was saved with `local_time: true`, else NULL.
-- `YYYY-MM-DD HH:MM:SS`, kept as a wall clock, not a moment, so it means the same whatever the service's zone later is.
-- The campaign starts when that time comes in the earliest zone (UTC+14); the claim holds each
-- message until it comes in the recipient's own zone (docs/engine.md, Local time).
ALTER TABLE campaigns ADD COLUMN local_send_time text
  CHECK (local_send_time ~ '^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$');

-- "Send to those not reached" (issue 35, point 5): where a campaign's audience had been written to
-- when it was stopped (its `audience_after` then, which the stop clears). Non-null: the recipients
-- after that number were never written, so they were not reached either.
ALTER TABLE campaigns ADD COLUMN stopped_audience_after text;
