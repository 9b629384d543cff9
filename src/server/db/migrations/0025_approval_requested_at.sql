-- When a campaign last asked for approval (its creation or last edit), for the approvers (issue 18).
ALTER TABLE campaigns ADD COLUMN approval_requested_at timestamptz;
UPDATE campaigns SET approval_requested_at = updated_at WHERE approval_status <> 'not_required';
-- Admins list what waits for them.
CREATE INDEX campaigns_pending_approval_idx ON campaigns (team_id, created_at DESC) WHERE approval_status = 'pending';
