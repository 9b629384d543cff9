-- The inbox (issue 36, point 1): a conversation's state per team and number, the member who wrote an
-- inbox reply, and a team's saved replies.

-- A conversation is every message to and from one number in a team (campaign messages, everything in
-- outbound_replies, inbound messages); this row holds only what those messages cannot say. It is made
-- when a message arrives from the number or a member writes to it. `status` is stored as set: a
-- snoozed conversation whose `snoozed_until` has passed is read as open (no job wakes it), and a new
-- inbound message reopens a closed or snoozed one. `last_activity_at` is the latest inbound message
-- or inbox reply (the list's order); the conversation is unread while `last_inbound_at` is after
-- `read_at` (read by any member of the team: the marker is the team's, not each member's).
CREATE TABLE conversations (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  phone_number text NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed', 'snoozed')),
  assignee_id bigint REFERENCES users (id) ON DELETE SET NULL,
  snoozed_until timestamptz,
  last_activity_at timestamptz NOT NULL,
  last_inbound_at timestamptz,
  read_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (team_id, phone_number),
  CHECK (status <> 'snoozed' OR snoozed_until IS NOT NULL)
);
CREATE INDEX conversations_team_activity_idx ON conversations (team_id, last_activity_at DESC, id DESC);

-- Who wrote an inbox reply (NULL for every other kind, and once the user is deleted).
ALTER TABLE outbound_replies ADD COLUMN author_id bigint REFERENCES users (id) ON DELETE SET NULL;
-- A thread reads the number's messages through indexes that exist: inbound_messages_team_number_idx
-- (0047), outbound_replies_team_number_idx (0053) and messages_phone_number_idx (0027), each campaign
-- message then checked for its team.

-- A team's saved replies: a name and the text a member picks in the composer.
CREATE TABLE saved_replies (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  name text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX saved_replies_team_idx ON saved_replies (team_id, name, id);
