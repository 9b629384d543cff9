-- Tokens bound to a team, read-only tokens, and three roles (issue 18).

-- A token belongs to the team it was made in, whatever its user does later. Existing tokens keep
-- the team their user was in when this ran (what they saw until now).
ALTER TABLE api_tokens ADD COLUMN team_id bigint REFERENCES teams (id) ON DELETE CASCADE;
UPDATE api_tokens t SET team_id = coalesce(
  (SELECT m.team_id FROM users u JOIN memberships m ON m.user_id = u.id AND m.team_id = u.current_team_id WHERE u.id = t.user_id),
  (SELECT min(m.team_id) FROM memberships m WHERE m.user_id = t.user_id));
-- A token of a user in no team reached nothing; it cannot be bound, so it goes.
DELETE FROM api_tokens WHERE team_id IS NULL;
ALTER TABLE api_tokens ALTER COLUMN team_id SET NOT NULL;
CREATE INDEX api_tokens_team_idx ON api_tokens (team_id);

-- `read_only`: every request but a GET is refused.
ALTER TABLE api_tokens ADD COLUMN scope text NOT NULL DEFAULT 'full' CHECK (scope IN ('full', 'read_only'));

-- admin: everything; editor: content, audiences, campaigns; viewer: reads, and asks for report e-mails.
ALTER TABLE memberships DROP CONSTRAINT memberships_role_check;
UPDATE memberships SET role = 'editor' WHERE role = 'member';
ALTER TABLE memberships ADD CONSTRAINT memberships_role_check CHECK (role IN ('admin', 'editor', 'viewer'));

-- A token moved to another team (a session switched) is a change cached owners must hear of.
DROP TRIGGER api_tokens_auth_changed ON api_tokens;
CREATE TRIGGER api_tokens_auth_changed AFTER UPDATE ON api_tokens FOR EACH ROW
  WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.expires_at IS DISTINCT FROM NEW.expires_at
        OR OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD.token_hash IS DISTINCT FROM NEW.token_hash
        OR OLD.team_id IS DISTINCT FROM NEW.team_id OR OLD.scope IS DISTINCT FROM NEW.scope)
  EXECUTE FUNCTION auth_changed();
