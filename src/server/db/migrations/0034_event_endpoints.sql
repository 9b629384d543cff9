-- Event endpoints (issue 23): what happens in a team is pushed to the URLs its integrators register,
-- signed per Standard Webhooks, retried for 24 hours.
--
-- The events are written by the triggers below, in the transaction of the change itself: an event
-- exists exactly when its change was committed, whichever code made it, and a crash loses none. The
-- delivery worker (modules/event-endpoints/event-delivery.worker.ts) moves them from the outbox to one
-- delivery per endpoint (message events merged, at most a batch a call) and makes the calls.

-- `events`: the types the endpoint receives. `failing_since`: the first failed call since the last
-- one that succeeded; after 24 hours of that the endpoint is disabled (`disabled_reason`) and its
-- creator e-mailed. A rotated secret keeps signing beside the new one until `previous_secret_until`.
CREATE TABLE event_endpoints (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  url text NOT NULL,
  description text NOT NULL DEFAULT '',
  events text[] NOT NULL,
  headers jsonb NOT NULL DEFAULT '{}'::jsonb,
  enabled boolean NOT NULL DEFAULT true,
  secret_encrypted bytea NOT NULL,
  previous_secret_encrypted bytea,
  previous_secret_until timestamptz,
  failing_since timestamptz,
  disabled_reason text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX event_endpoints_team_order_idx ON event_endpoints (team_id, created_at DESC, id DESC);

-- Events committed and not yet handed to the endpoints (rows leave as the worker takes them).
CREATE TABLE event_outbox (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  team_id bigint NOT NULL,
  type text NOT NULL,
  data jsonb NOT NULL,
  occurred_at timestamptz NOT NULL DEFAULT now()
);

-- One call's worth of events for one endpoint: its body (`payload`: type, timestamp, data) is signed
-- and sent until it is taken (2xx) or `retry_until` has passed. `attempts` fences a taken delivery:
-- a worker records the outcome only of the attempt it made.
CREATE TABLE event_deliveries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  endpoint_id bigint NOT NULL REFERENCES event_endpoints (id) ON DELETE CASCADE,
  type text NOT NULL,
  payload jsonb NOT NULL,
  item_count integer NOT NULL DEFAULT 1,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  retry_until timestamptz NOT NULL,
  last_status_code integer,
  last_error text,
  created_at timestamptz NOT NULL,
  finished_at timestamptz
);
CREATE INDEX event_deliveries_due_idx ON event_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX event_deliveries_endpoint_order_idx ON event_deliveries (endpoint_id, created_at DESC, id DESC);
CREATE INDEX event_deliveries_finished_idx ON event_deliveries (finished_at) WHERE finished_at IS NOT NULL;

CREATE TABLE event_delivery_attempts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  delivery_id bigint NOT NULL REFERENCES event_deliveries (id) ON DELETE CASCADE,
  status_code integer,
  latency_ms integer NOT NULL,
  error text,
  created_at timestamptz NOT NULL
);
CREATE INDEX event_delivery_attempts_delivery_idx ON event_delivery_attempts (delivery_id, id);

-- RFC 3339 in UTC with milliseconds: the times of event bodies.
CREATE FUNCTION event_time(t timestamptz) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$;

-- Whether an enabled endpoint of the team receives the type: events nobody receives are not written.
CREATE FUNCTION event_listened(team bigint, event_type text) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM event_endpoints WHERE team_id = team AND enabled AND event_type = ANY(events)) $$;

CREATE FUNCTION emit_event(team bigint, event_type text, data jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO event_outbox (team_id, type, data) SELECT team, event_type, data WHERE event_listened(team, event_type) $$;

-- Messages: one event per statement, campaign and new state, its messages listed (send tests are left out).
CREATE FUNCTION message_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM event_endpoints WHERE enabled AND events && ARRAY['message.submitted', 'message.delivered', 'message.failed', 'message.unsent']) THEN
    RETURN NULL;
  END IF;
  INSERT INTO event_outbox (team_id, type, data)
  SELECT c.team_id, 'message.' || n.status,
         jsonb_build_object(
           'campaign', jsonb_build_object('uuid', c.uuid, 'name', c.name),
           'messages', jsonb_agg(jsonb_build_object(
             'uuid', n.uuid, 'phone_number', n.phone_number, 'status', n.status, 'reason', n.reason,
             'at', event_time(CASE WHEN n.status = 'submitted' THEN n.submitted_at ELSE n.finished_at END)) ORDER BY n.sequence))
    FROM changed n JOIN before o ON o.id = n.id JOIN campaigns c ON c.id = n.campaign_id
   WHERE n.status IS DISTINCT FROM o.status AND n.status IN ('submitted', 'delivered', 'failed', 'unsent') AND c.test_of IS NULL
     AND event_listened(c.team_id, 'message.' || n.status)
   GROUP BY c.team_id, c.id, c.uuid, c.name, n.status;
  RETURN NULL;
END $$;
CREATE TRIGGER messages_events AFTER UPDATE ON messages
  REFERENCING OLD TABLE AS before NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION message_events();

-- Campaigns: started (0 → 1), paused and resumed by hand, stopped, finished (→ 2).
CREATE FUNCTION campaign_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  data jsonb := jsonb_build_object('campaign', jsonb_build_object(
    'uuid', NEW.uuid, 'name', NEW.name, 'status', NEW.status, 'recipients', NEW.message_count, 'submitted', NEW.submitted_count,
    'delivered', NEW.delivered_count, 'failed', NEW.failed_count, 'unsent', NEW.unsent_count));
BEGIN
  IF OLD.status = 0 AND NEW.status = 1 THEN PERFORM emit_event(NEW.team_id, 'campaign.started', data); END IF;
  IF OLD.manually_paused IS NOT TRUE AND NEW.manually_paused IS TRUE THEN PERFORM emit_event(NEW.team_id, 'campaign.paused', data); END IF;
  IF OLD.manually_paused IS TRUE AND NEW.manually_paused IS NOT TRUE THEN PERFORM emit_event(NEW.team_id, 'campaign.resumed', data); END IF;
  IF OLD.stopped_at IS NULL AND NEW.stopped_at IS NOT NULL THEN PERFORM emit_event(NEW.team_id, 'campaign.stopped', data); END IF;
  IF OLD.status <> 2 AND NEW.status = 2 THEN PERFORM emit_event(NEW.team_id, 'campaign.finished', data); END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER campaigns_events AFTER UPDATE OF status, manually_paused, stopped_at ON campaigns
  FOR EACH ROW WHEN (NEW.test_of IS NULL AND (OLD.status, OLD.manually_paused, OLD.stopped_at) IS DISTINCT FROM (NEW.status, NEW.manually_paused, NEW.stopped_at))
  EXECUTE FUNCTION campaign_events();

-- Opt-outs and opt-ins, each its own event.
CREATE FUNCTION opt_out_events_pushed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO event_outbox (team_id, type, data)
  SELECT a.team_id, CASE a.kind WHEN 'opt_out' THEN 'contact.opted_out' ELSE 'contact.opted_in' END,
         jsonb_build_object('phone_number', a.phone_number, 'source', a.source, 'reason', a.reason, 'at', event_time(a.created_at),
                            'campaign', CASE WHEN c.id IS NULL THEN NULL ELSE jsonb_build_object('uuid', c.uuid, 'name', c.name) END)
    FROM added a LEFT JOIN campaigns c ON c.id = a.campaign_id
   WHERE event_listened(a.team_id, CASE a.kind WHEN 'opt_out' THEN 'contact.opted_out' ELSE 'contact.opted_in' END)
   ORDER BY a.id;
  RETURN NULL;
END $$;
CREATE TRIGGER opt_out_events_events AFTER INSERT ON opt_out_events
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION opt_out_events_pushed();

-- Inbound messages of a team (those to the shared short code that matched no keyword have none).
CREATE FUNCTION inbound_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO event_outbox (team_id, type, data)
  SELECT a.team_id, 'inbound.received',
         jsonb_build_object('inbound_message', jsonb_build_object(
           'uuid', a.uuid, 'from', a.from_number, 'body', a.body, 'keyword', a.keyword, 'opted_out', a.opted_out, 'received_at', event_time(a.received_at)))
    FROM added a WHERE a.team_id IS NOT NULL AND event_listened(a.team_id, 'inbound.received') ORDER BY a.id;
  RETURN NULL;
END $$;
CREATE TRIGGER inbound_messages_events AFTER INSERT ON inbound_messages
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION inbound_events();

-- Contact imports that completed or failed.
CREATE FUNCTION import_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM emit_event(NEW.team_id, 'import.finished', jsonb_build_object('import', jsonb_build_object(
    'uuid', NEW.uuid, 'status', NEW.status, 'file_name', NEW.file_name,
    'contact_group', (SELECT jsonb_build_object('uuid', g.uuid, 'name', g.name) FROM contact_groups g WHERE g.id = NEW.contact_group_id),
    'rows_total', NEW.rows_total, 'rows_valid', NEW.rows_valid, 'rows_invalid', NEW.rows_invalid,
    'contacts_added', NEW.contacts_added, 'contacts_updated', NEW.contacts_updated, 'contacts_unchanged', NEW.contacts_unchanged,
    'contacts_opted_out', NEW.contacts_opted_out,
    'error', NEW.error, 'finished_at', event_time(coalesce(NEW.finished_at, NEW.updated_at)))));
  RETURN NULL;
END $$;
CREATE TRIGGER contact_imports_events AFTER UPDATE OF status ON contact_imports
  FOR EACH ROW WHEN (NEW.status IN ('completed', 'failed') AND OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION import_events();

-- A report's CSV is written (its e-mail may still be on the way). The worker adds the signed
-- `download_url` from `link_expires_at` and `public_url`, which only the service can sign.
CREATE FUNCTION report_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM emit_event(NEW.team_id, 'report.ready', jsonb_build_object('report_job', jsonb_build_object(
    'uuid', NEW.uuid, 'type', NEW.type, 'row_count', NEW.row_count,
    'campaign', (SELECT jsonb_build_object('uuid', c.uuid, 'name', c.name) FROM campaigns c WHERE c.id = NEW.campaign_id),
    'link_expires_at', event_time(NEW.link_expires_at), 'public_url', NEW.public_url)));
  RETURN NULL;
END $$;
CREATE TRIGGER report_jobs_events AFTER UPDATE OF status ON report_jobs
  FOR EACH ROW WHEN (NEW.status = 'mailing' AND OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION report_events();
