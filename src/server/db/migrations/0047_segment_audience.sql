-- Segments evaluated (issue 35, point 1): the helpers the segment compiler (modules/segments/
-- segment-sql.ts) reads contacts' fields with, the indexes its behaviour conditions look numbers up
-- by, and the fixed recipient list of a campaign that sends to segments.

-- A campaign with segments has its recipients fixed when sending starts: the numbers only, written
-- once in the start's transaction (engine/store/start.ts); the engine then writes its messages from
-- this list, a chunk at a time, so a number that starts (or stops) matching later changes nothing.
CREATE TABLE campaign_audience (
  campaign_id bigint NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  phone_number text NOT NULL,
  PRIMARY KEY (campaign_id, phone_number)
);

-- A contact's field by name, in any case: the exact key first, else the first key equal to it
-- ignoring case. Null when the contact has no such field.
CREATE FUNCTION herald_field(fields jsonb, name text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(fields ->> name, (SELECT e.value FROM jsonb_each_text(fields) e WHERE lower(e.key) = lower(name) ORDER BY e.key LIMIT 1))
$$;

-- A field's text as a number, or null when it is not one (never an error): digits with an optional
-- sign and decimal point, spaces around allowed. No exponent, so no value overflows.
CREATE FUNCTION herald_number_of(value text) RETURNS numeric LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN value ~ '^\s*[-+]?([0-9]{1,30}(\.[0-9]{0,30})?|\.[0-9]{1,30})\s*$' THEN btrim(value)::numeric END
$$;

-- A field's text as a date, or null when it is not one (never an error, unlike a cast): YYYY-MM-DD
-- (or with / or . between, and a time after it, as spreadsheets store dates), or DD/MM/YYYY
-- (or with - or . between; day first, as in the countries Herald reads national numbers of).
-- A day the month does not have (2023-02-30) is not a date.
CREATE FUNCTION herald_date_of(value text) RETURNS date LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  m text[];
  y int;
  mo int;
  d int;
BEGIN
  m := regexp_match(value, '^\s*([0-9]{4})[-/.]([0-9]{1,2})[-/.]([0-9]{1,2})([T ][0-9:.+Z -]*)?\s*$');
  IF m IS NOT NULL THEN
    y := m[1]::int; mo := m[2]::int; d := m[3]::int;
  ELSE
    m := regexp_match(value, '^\s*([0-9]{1,2})[-/.]([0-9]{1,2})[-/.]([0-9]{4})\s*$');
    IF m IS NULL THEN RETURN NULL; END IF;
    d := m[1]::int; mo := m[2]::int; y := m[3]::int;
  END IF;
  IF y < 1 OR mo < 1 OR mo > 12 OR d < 1 THEN RETURN NULL; END IF;
  IF d > extract(day FROM make_date(y, mo, 1) + interval '1 month' - interval '1 day') THEN RETURN NULL; END IF;
  RETURN make_date(y, mo, d);
END
$$;

-- The next anniversary of `born` (its month and day) on or after `today`. Someone born on 29 February
-- has it on 28 February in a year without that day.
CREATE FUNCTION herald_next_anniversary(born date, today date) RETURNS date LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  y int := extract(year FROM today)::int;
  mo int := extract(month FROM born)::int;
  d int := extract(day FROM born)::int;
  candidate date;
BEGIN
  FOR i IN 0 .. 1 LOOP
    candidate := make_date(y + i, mo, least(d, extract(day FROM make_date(y + i, mo, 1) + interval '1 month' - interval '1 day')::int));
    IF candidate >= today THEN RETURN candidate; END IF;
  END LOOP;
  RETURN candidate;
END
$$;

-- `replied`: a team's inbound messages by number and time.
CREATE INDEX inbound_messages_team_number_idx ON inbound_messages (team_id, from_number, received_at);
