-- Foundation: teams, users, memberships, API tokens, senders, contact groups (default_optouts).
CREATE TABLE teams (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- The CLI finds a team by name, so names are unique regardless of case.
CREATE UNIQUE INDEX teams_name_key ON teams (lower(name));

CREATE TABLE users (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  email text NOT NULL,
  name text NOT NULL,
  password_hash text NOT NULL,
  current_team_id bigint REFERENCES teams (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE memberships (
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('admin', 'member')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, team_id)
);
CREATE INDEX memberships_team_idx ON memberships (team_id);

-- Bearer tokens are stored only as SHA-256 digests; `hint` keeps the first characters to recognise one.
CREATE TABLE api_tokens (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('personal', 'session')),
  name text NOT NULL,
  token_hash bytea NOT NULL UNIQUE,
  hint text NOT NULL,
  expires_at timestamptz,
  last_used_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_tokens_user_idx ON api_tokens (user_id, created_at DESC, id DESC) WHERE revoked_at IS NULL;

CREATE TABLE senders (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  sender text NOT NULL,
  status text NOT NULL DEFAULT '1',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX senders_team_sender_key ON senders (team_id, sender);
CREATE INDEX senders_team_order_idx ON senders (team_id, created_at DESC, id DESC);

CREATE TABLE contact_groups (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text,
  deletable boolean NOT NULL DEFAULT true,
  -- 'optouts' marks the team's default_optouts group: exactly one per team, never deletable.
  system_role text CHECK (system_role IN ('optouts')),
  headers jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX contact_groups_team_optouts_key ON contact_groups (team_id) WHERE system_role = 'optouts';
CREATE INDEX contact_groups_team_order_idx ON contact_groups (team_id, created_at DESC, id DESC);
