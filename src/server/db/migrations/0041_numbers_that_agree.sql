-- Numbers that agree and filters that are kept (issue 32, point 7).

-- A report asked for by e-mail keeps the filters of the page it was asked from (`status`, `reason`,
-- `search`; `{}` for the whole report): the worker writes only the rows that match, and the job, its
-- e-mail and its `report.ready` event name them. Jobs asked for before this had none.
ALTER TABLE report_jobs ADD COLUMN filters jsonb NOT NULL DEFAULT '{}'::jsonb;

CREATE OR REPLACE FUNCTION report_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM emit_event(NEW.team_id, 'report.ready', jsonb_build_object('report_job', jsonb_build_object(
    'uuid', NEW.uuid, 'type', NEW.type, 'filters', NEW.filters, 'row_count', NEW.row_count,
    'campaign', (SELECT jsonb_build_object('uuid', c.uuid, 'name', c.name) FROM campaigns c WHERE c.id = NEW.campaign_id),
    'link_expires_at', event_time(NEW.link_expires_at), 'public_url', NEW.public_url)));
  RETURN NULL;
END $$;

-- `campaign.started` carried `recipients` 0: the event was built from the row the engine's first
-- statement of the start wrote (status 1), before the messages and their count were. It is now made
-- at the commit of the start (a deferred trigger), from the campaign as the start left it: its
-- messages once every recipient is written, or else (a large audience the engine writes in chunks
-- beside the sending) the audience's count — counted here, the way `countRecipientsOf`
-- (db/audience.ts) counts it, only when an endpoint of the team wants the event. A start that put the
-- campaign back to status 0 before its commit made no start, and no event.
CREATE OR REPLACE FUNCTION campaign_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  data jsonb := jsonb_build_object('campaign', jsonb_build_object(
    'uuid', NEW.uuid, 'name', NEW.name, 'status', NEW.status, 'recipients', NEW.message_count, 'submitted', NEW.submitted_count,
    'delivered', NEW.delivered_count, 'failed', NEW.failed_count, 'unsent', NEW.unsent_count));
BEGIN
  IF OLD.manually_paused IS NOT TRUE AND NEW.manually_paused IS TRUE THEN PERFORM emit_event(NEW.team_id, 'campaign.paused', data); END IF;
  IF OLD.manually_paused IS TRUE AND NEW.manually_paused IS NOT TRUE THEN PERFORM emit_event(NEW.team_id, 'campaign.resumed', data); END IF;
  IF OLD.stopped_at IS NULL AND NEW.stopped_at IS NOT NULL THEN PERFORM emit_event(NEW.team_id, 'campaign.stopped', data); END IF;
  IF OLD.status <> 2 AND NEW.status = 2 THEN PERFORM emit_event(NEW.team_id, 'campaign.finished', data); END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION campaign_started_event() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  c campaigns%ROWTYPE;
  recipients bigint;
BEGIN
  IF NOT event_listened(NEW.team_id, 'campaign.started') THEN RETURN NULL; END IF;
  SELECT * INTO c FROM campaigns WHERE id = NEW.id;
  IF NOT FOUND OR c.status = 0 THEN RETURN NULL; END IF;
  recipients := c.message_count;
  IF c.audience_after IS NOT NULL THEN
    recipients := greatest(c.message_count, coalesce(c.audience_estimate, (
      SELECT count(DISTINCT x.phone_number) FROM contacts x
       WHERE x.contact_group_id IN (SELECT g.contact_group_id FROM campaign_groups g WHERE g.campaign_id = c.id AND g.kind = 'included')
         AND NOT EXISTS (
           SELECT 1 FROM contacts y
            WHERE y.phone_number = x.phone_number
              AND (y.contact_group_id IN (SELECT g.contact_group_id FROM campaign_groups g WHERE g.campaign_id = c.id AND g.kind = 'excluded')
                   OR y.contact_group_id IN (SELECT o.id FROM contact_groups o WHERE o.team_id = c.team_id AND o.system_role = 'optouts'))))));
  END IF;
  PERFORM emit_event(c.team_id, 'campaign.started', jsonb_build_object('campaign', jsonb_build_object(
    'uuid', c.uuid, 'name', c.name, 'status', c.status, 'recipients', recipients, 'submitted', c.submitted_count,
    'delivered', c.delivered_count, 'failed', c.failed_count, 'unsent', c.unsent_count)));
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER campaigns_started_event AFTER UPDATE OF status ON campaigns
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.test_of IS NULL AND OLD.status = 0 AND NEW.status = 1)
  EXECUTE FUNCTION campaign_started_event();
