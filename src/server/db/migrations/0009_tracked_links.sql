-- Per-recipient short links: each `::NAME::` in a sent message is its own code, so a click names
-- the recipient. Clicks are recorded as they come.
CREATE TABLE short_links (
  code text PRIMARY KEY,
  message_id bigint NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  link_id bigint REFERENCES links (id) ON DELETE SET NULL,
  link_name text NOT NULL,
  destination text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX short_links_message_idx ON short_links (message_id);

CREATE TABLE link_clicks (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  code text NOT NULL REFERENCES short_links (code) ON DELETE CASCADE,
  clicked_at timestamptz NOT NULL DEFAULT now(),
  user_agent text,
  ip text
);
CREATE INDEX link_clicks_code_idx ON link_clicks (code, clicked_at);
