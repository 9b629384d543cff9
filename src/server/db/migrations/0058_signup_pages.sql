-- The hosted sign-up page (issue 36, point 3): one per team, public at /join/{slug} on the service's
-- own address and on the team's link domains. A post opens a double opt-in request (opt_in_requests)
-- whose YES joins `group_id`; the page itself keeps only what the admin configured.
CREATE TABLE signup_pages (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  team_id bigint NOT NULL UNIQUE REFERENCES teams (id) ON DELETE CASCADE,
  -- Unique across Herald: the address does not name the team. Lowercase letters, digits and inner
  -- hyphens, 3 to 40 characters (the service refuses reserved words before this check is reached).
  slug text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9][a-z0-9-]{1,38}[a-z0-9]$'),
  enabled boolean NOT NULL DEFAULT false,
  heading text NOT NULL,
  consent_text text NOT NULL,
  frequency_text text NOT NULL,
  -- The group a confirmed number joins. Deleting the group leaves the page without one: it then
  -- answers 404 until an admin chooses another (the API requires one on every save).
  group_id bigint REFERENCES contact_groups (id) ON DELETE SET NULL,
  ask_first_name boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
