-- Senders are a list (issue 32): an editor may only send as one of the team's senders or 88440.
-- What templates and campaigns (tests included) already send as joins each team's list, so existing
-- templates and campaigns keep working when edited by an editor.
INSERT INTO senders (team_id, sender)
SELECT team_id, sender FROM templates
UNION
SELECT team_id, sender FROM campaigns
ON CONFLICT (team_id, sender) DO NOTHING;
