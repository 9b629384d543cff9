-- Approvals that hold (issue 32): the audience is counted again when sending starts, so an approval
-- records how many recipients it covered, and a campaign held at its start says why.

-- Who made the campaign: told when it is approved or rejected, and never its own approver. Earlier
-- campaigns take it from the audit log (its creation), else from who last asked for an approval.
ALTER TABLE campaigns
  ADD COLUMN created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  -- The recipients an approval covered (counted when an admin approved); NULL for one given before
  -- this release, which covers no count at the threshold: such a campaign is asked about again.
  ADD COLUMN approval_recipients integer,
  -- Why the engine held the campaign at its start (its audience reached the threshold); NULL otherwise.
  ADD COLUMN approval_notice text;
UPDATE campaigns c
   SET created_by = coalesce(
         (SELECT u.id FROM audit_events a JOIN users u ON u.uuid = a.actor_uuid
           WHERE a.team_id = c.team_id AND a.resource_uuid = c.uuid AND a.action IN ('createCampaign', 'sendTestCampaign')
           ORDER BY a.id LIMIT 1),
         c.approval_requested_by);

-- Numbers anyone of the team may send tests to, besides the members' own (admins send tests anywhere).
ALTER TABLE teams ADD COLUMN test_numbers text[] NOT NULL DEFAULT '{}';
