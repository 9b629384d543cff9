-- Conversions and revenue (issue 35, point 3): the attribution windows of a team, and the shops
-- whose order webhooks record conversions (modules/conversions).

-- The windows a conversion is credited within (docs/conversions.md): the last human click on a
-- tracked link within `click_window_days` before the order, else the last delivered campaign message
-- within `view_window_hours`; 0 turns a window off.
ALTER TABLE teams
  ADD COLUMN click_window_days integer NOT NULL DEFAULT 5 CHECK (click_window_days BETWEEN 0 AND 90),
  ADD COLUMN view_window_hours integer NOT NULL DEFAULT 24 CHECK (view_window_hours BETWEEN 0 AND 720);

-- A shop (Shopify or WooCommerce) posting its new orders to `/hooks/shop/{uuid}`. `secret_encrypted`:
-- the secret the shop signs each webhook with, sealed with the key Herald keeps (lib/secret-box.ts);
-- never read back through the API, which shows a masked hint.
CREATE TABLE shop_connections (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  name text NOT NULL,
  platform text NOT NULL CHECK (platform IN ('shopify', 'woocommerce')),
  secret_encrypted bytea NOT NULL,
  last_order_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX shop_connections_team_order_idx ON shop_connections (team_id, created_at DESC, id DESC);

-- The shop whose webhook reported a conversion (null: the API, or a shop since deleted).
ALTER TABLE conversions ADD COLUMN shop_connection_id bigint REFERENCES shop_connections (id) ON DELETE SET NULL;
-- The list, newest order first.
CREATE INDEX conversions_team_order_idx ON conversions (team_id, occurred_at DESC, id DESC);
