-- Flows (issue 36, point 2): a team's automations and their durable runs (docs/flows.md).

-- A flow: its trigger and steps as the API shows them (each step with its stable `id`), whether it
-- is enabled, and whether a number may run it again after its run ended (`reentry`). The keyword or
-- group its trigger names is also kept as a column, so the inbound pipeline and the contacts trigger
-- below find a keyword's or a group's flows by index. Its webhook steps are signed with its own
-- sealed secret.
CREATE TABLE flows (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  name text NOT NULL,
  trigger jsonb NOT NULL,
  trigger_type text NOT NULL CHECK (trigger_type IN ('keyword', 'group_joined', 'segment_entered', 'conversion', 'anniversary', 'api')),
  trigger_keyword_id bigint REFERENCES keywords (id) ON DELETE SET NULL,
  trigger_group_id bigint REFERENCES contact_groups (id) ON DELETE SET NULL,
  steps jsonb NOT NULL DEFAULT '[]',
  enabled boolean NOT NULL DEFAULT false,
  reentry text NOT NULL DEFAULT 'after_end' CHECK (reentry IN ('after_end', 'never')),
  secret_encrypted bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX flows_team_idx ON flows (team_id, created_at);
CREATE INDEX flows_keyword_idx ON flows (trigger_keyword_id) WHERE enabled AND trigger_keyword_id IS NOT NULL;
CREATE INDEX flows_group_idx ON flows (trigger_group_id) WHERE enabled AND trigger_group_id IS NOT NULL;

-- A run: one number's way through a flow. `step_id` is the step it is at (null before its first
-- step, which the advance enters, and once it ended); `due_at` when the advance next takes it
-- (a wait's end, quiet hours' end, or at once). At most one active run per flow and number.
CREATE TABLE flow_runs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  flow_id bigint NOT NULL REFERENCES flows (id) ON DELETE CASCADE,
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  phone_number text NOT NULL,
  fields jsonb NOT NULL DEFAULT '{}',
  trigger text NOT NULL,
  state text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'completed', 'exited')),
  exit_reason text,
  step_id text,
  due_at timestamptz,
  started_at timestamptz NOT NULL,
  ended_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX flow_runs_one_active_key ON flow_runs (flow_id, phone_number) WHERE state = 'active';
CREATE INDEX flow_runs_due_idx ON flow_runs (due_at) WHERE state = 'active';
CREATE INDEX flow_runs_flow_idx ON flow_runs (flow_id, started_at);
CREATE INDEX flow_runs_number_idx ON flow_runs (team_id, phone_number, started_at);

-- A run's history: a row per step it entered (a flow has no loops, so each step at most once),
-- done with what it did. The per-step counts are read from here.
CREATE TABLE flow_run_steps (
  run_id bigint NOT NULL REFERENCES flow_runs (id) ON DELETE CASCADE,
  step_id text NOT NULL,
  step_type text NOT NULL,
  entered_at timestamptz NOT NULL,
  done_at timestamptz,
  outcome text,
  detail jsonb,
  PRIMARY KEY (run_id, step_id)
);

-- A flow's message is the run's and the step's, once: the advance inserts it in the transaction that
-- moves the run past the step, and this key makes a second insert for the same step impossible.
ALTER TABLE outbound_replies ADD COLUMN flow_run_id bigint REFERENCES flow_runs (id) ON DELETE SET NULL;
ALTER TABLE outbound_replies ADD COLUMN flow_step_id text;
CREATE UNIQUE INDEX outbound_replies_flow_step_key ON outbound_replies (flow_run_id, flow_step_id) WHERE flow_run_id IS NOT NULL;

-- The `group_joined` trigger, for every way a number joins a group (the API, an import, a keyword, a
-- flow's step, a sign-up): each statement that inserts contacts starts the runs of the enabled flows
-- of those groups, in its own transaction (set-based, over the statement's new rows). The run waits
-- for the advance to enter its first step (due at once, whatever the clock). A number with an
-- active run is left alone; a `never` flow skips a number that ran it before. The first check keeps
-- imports free of any cost while no flow listens to a group.
CREATE FUNCTION flows_group_joined() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM flows WHERE enabled AND trigger_group_id IS NOT NULL) THEN
    RETURN NULL;
  END IF;
  INSERT INTO flow_runs (flow_id, team_id, phone_number, trigger, due_at, started_at)
  SELECT DISTINCT f.id, f.team_id, n.phone_number, 'group_joined', '-infinity'::timestamptz, now()
    FROM new_contacts n JOIN flows f ON f.trigger_group_id = n.contact_group_id AND f.enabled
   WHERE f.reentry = 'after_end' OR NOT EXISTS (SELECT 1 FROM flow_runs r WHERE r.flow_id = f.id AND r.phone_number = n.phone_number)
  ON CONFLICT (flow_id, phone_number) WHERE state = 'active' DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER contacts_flows_group_joined AFTER INSERT ON contacts
  REFERENCING NEW TABLE AS new_contacts FOR EACH STATEMENT EXECUTE FUNCTION flows_group_joined();

-- The `conversion` trigger: each statement that records conversions (the API, a shop's webhook)
-- starts the team's enabled conversion flows for the numbers that converted (the order's number, else
-- the number of the message it was credited to), as the group trigger does.
CREATE FUNCTION flows_conversion() RETURNS trigger LANGUAGE plpgsql AS $$
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
     AND (f.reentry = 'after_end' OR NOT EXISTS (SELECT 1 FROM flow_runs r WHERE r.flow_id = f.id AND r.phone_number = p.phone_number))
  ON CONFLICT (flow_id, phone_number) WHERE state = 'active' DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER conversions_flows_conversion AFTER INSERT ON conversions
  REFERENCING NEW TABLE AS new_conversions FOR EACH STATEMENT EXECUTE FUNCTION flows_conversion();

-- The `anniversary` trigger: the day (in the team's zone) an anniversary flow last started its runs,
-- so the advance's job starts each day's once, at the flow's time of day, across processes.
ALTER TABLE flows ADD COLUMN anniversary_done_on date;

-- The `segment_entered` trigger: the numbers of the flow's segment when it was last looked at, so the
-- next look starts runs for the numbers new to it (and forgets those that left, who may enter again).
-- `segment_checked_at` null: not looked at yet; the first look only notes who is in (no runs).
ALTER TABLE flows ADD COLUMN segment_checked_at timestamptz;
CREATE TABLE flow_segment_members (
  flow_id bigint NOT NULL REFERENCES flows (id) ON DELETE CASCADE,
  phone_number text NOT NULL,
  PRIMARY KEY (flow_id, phone_number)
);
