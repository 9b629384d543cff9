-- Test runs of flows (docs/flows.md, "Test runs"): the dashboard's "test with my number" starts a
-- run with `test` set. It is an ordinary run (durable, each step done once) that may run while its
-- flow is disabled, waits at most a minute at each wait, sends its messages as non-marketing through
-- quiet hours, and counts in neither the flow's step counts nor its runs by state.
ALTER TABLE flow_runs ADD COLUMN test boolean NOT NULL DEFAULT false;

-- At most one active ordinary run and one active test run per flow and number: a test run neither
-- waits for nor blocks the number's ordinary run. Every start of an ordinary run names the first
-- key's predicate in its ON CONFLICT (the service, the anniversary and segment starts, and the two
-- triggers below); a test run replaces the number's active test run of the flow (flows.service.ts).
DROP INDEX flow_runs_one_active_key;
CREATE UNIQUE INDEX flow_runs_one_active_key ON flow_runs (flow_id, phone_number) WHERE state = 'active' AND NOT test;
CREATE UNIQUE INDEX flow_runs_one_active_test_key ON flow_runs (flow_id, phone_number) WHERE state = 'active' AND test;

-- The triggers of migration 0056, with the new key's predicate, and a test run is no run "before"
-- for a `never` flow's re-entry (a marketer who tested a flow with their number still enters it).
CREATE OR REPLACE FUNCTION flows_group_joined() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM flows WHERE enabled AND trigger_group_id IS NOT NULL) THEN
    RETURN NULL;
  END IF;
  INSERT INTO flow_runs (flow_id, team_id, phone_number, trigger, due_at, started_at)
  SELECT DISTINCT f.id, f.team_id, n.phone_number, 'group_joined', '-infinity'::timestamptz, now()
    FROM new_contacts n JOIN flows f ON f.trigger_group_id = n.contact_group_id AND f.enabled
   WHERE f.reentry = 'after_end' OR NOT EXISTS (SELECT 1 FROM flow_runs r WHERE r.flow_id = f.id AND r.phone_number = n.phone_number AND NOT r.test)
  ON CONFLICT (flow_id, phone_number) WHERE state = 'active' AND NOT test DO NOTHING;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION flows_conversion() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM flows WHERE enabled AND trigger_type = 'conversion') THEN
    RETURN NULL;
  END IF;
  INSERT INTO flow_runs (flow_id, team_id, phone_number, trigger, due_at, started_at)
  SELECT DISTINCT f.id, f.team_id, p.phone_number, 'conversion', '-infinity'::timestamptz, now()
    FROM (SELECT n.team_id, coalesce(n.phone_number, (SELECT m.phone_number FROM messages m WHERE m.id = n.message_id)) AS phone_number
            FROM new_conversions n) p
    JOIN flows f ON f.team_id = p.team_id AND f.trigger_type = 'conversion' AND f.enabled
   WHERE p.phone_number IS NOT NULL
     AND (f.reentry = 'after_end' OR NOT EXISTS (SELECT 1 FROM flow_runs r WHERE r.flow_id = f.id AND r.phone_number = p.phone_number AND NOT r.test))
  ON CONFLICT (flow_id, phone_number) WHERE state = 'active' AND NOT test DO NOTHING;
  RETURN NULL;
END $$;
