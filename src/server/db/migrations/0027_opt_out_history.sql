-- Opt-outs done right (issue 19): each opt-out event names the campaign whose message last went to
-- the number before it. That lookup goes by number: a plain index on `phone_number`, which no
-- update of a message changes (submitting and settling stay HOT updates); a number's messages are
-- few whatever the table's size, and their campaigns' teams are checked by primary key.
CREATE INDEX messages_phone_number_idx ON messages (phone_number);

-- A team's history of one number, newest first (GET /opt-out-events?phone_number=).
CREATE INDEX opt_out_events_team_number_idx ON opt_out_events (team_id, phone_number, created_at DESC, id DESC);
