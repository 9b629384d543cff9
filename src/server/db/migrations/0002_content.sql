-- Content of campaigns: vanity domains, templates and their links, webhooks, keywords; and the
-- campaign core that template locking reads (the campaign API builds on it).
CREATE TABLE vanity_domains (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  -- NULL for the service's own link domain (PUBLIC_URL/l), which follows PUBLIC_URL.
  domain text,
  status text NOT NULL DEFAULT '1',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX vanity_domains_team_domain_key ON vanity_domains (team_id, domain) WHERE domain IS NOT NULL;
CREATE UNIQUE INDEX vanity_domains_team_default_key ON vanity_domains (team_id) WHERE domain IS NULL;
CREATE INDEX vanity_domains_team_order_idx ON vanity_domains (team_id, created_at DESC, id DESC);
INSERT INTO vanity_domains (team_id, domain, created_at, updated_at) SELECT id, NULL, created_at, created_at FROM teams;

CREATE TABLE templates (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  name text NOT NULL,
  body text NOT NULL,
  sender text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX templates_team_order_idx ON templates (team_id, created_at DESC, id DESC);

CREATE TABLE links (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  template_id bigint NOT NULL REFERENCES templates (id) ON DELETE CASCADE,
  vanity_domain_id bigint NOT NULL REFERENCES vanity_domains (id),
  name text NOT NULL,
  destination text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX links_template_name_key ON links (template_id, name);
CREATE INDEX links_team_order_idx ON links (team_id, created_at DESC, id DESC);
CREATE INDEX links_vanity_domain_idx ON links (vanity_domain_id);

-- The signing secret is stored encrypted (AES-256-GCM: iv | tag | ciphertext).
CREATE TABLE webhooks (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  name text NOT NULL,
  url text NOT NULL,
  headers jsonb NOT NULL DEFAULT '{}'::jsonb,
  secret_encrypted bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_team_order_idx ON webhooks (team_id, created_at DESC, id DESC);

CREATE TABLE keywords (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  keyword text NOT NULL,
  message text NOT NULL DEFAULT '',
  help text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT '1',
  add_contact_to_group boolean NOT NULL DEFAULT false,
  call_webhook boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- Inbound messages share one short code, so a keyword belongs to one team across the service.
CREATE UNIQUE INDEX keywords_keyword_key ON keywords (lower(keyword));
CREATE INDEX keywords_team_order_idx ON keywords (team_id, created_at DESC, id DESC);

CREATE TABLE keyword_contact_groups (
  keyword_id bigint NOT NULL REFERENCES keywords (id) ON DELETE CASCADE,
  contact_group_id bigint NOT NULL REFERENCES contact_groups (id) ON DELETE CASCADE,
  position integer NOT NULL,
  PRIMARY KEY (keyword_id, contact_group_id)
);
CREATE TABLE keyword_webhooks (
  keyword_id bigint NOT NULL REFERENCES keywords (id) ON DELETE CASCADE,
  webhook_id bigint NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  position integer NOT NULL,
  PRIMARY KEY (keyword_id, webhook_id)
);
CREATE INDEX keyword_webhooks_webhook_idx ON keyword_webhooks (webhook_id);

CREATE TABLE campaigns (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  template_id bigint NOT NULL REFERENCES templates (id),
  name text NOT NULL,
  sender text NOT NULL,
  scheduled_send_date timestamptz NOT NULL,
  expiry_date timestamptz NOT NULL,
  -- 0 pending, 1 sending, 2 sent (spec §3).
  status smallint NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2)),
  throttled boolean NOT NULL DEFAULT false,
  scheduled_finish_date timestamptz,
  manually_paused boolean,
  is_test boolean NOT NULL DEFAULT false,
  started_sending_at timestamptz,
  finished_sending_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX campaigns_team_order_idx ON campaigns (team_id, created_at DESC, id DESC);
CREATE INDEX campaigns_template_idx ON campaigns (template_id, status);
CREATE INDEX campaigns_due_idx ON campaigns (scheduled_send_date) WHERE status = 0;
