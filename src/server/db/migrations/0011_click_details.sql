-- What reports show of a click: the user agent read into device type, OS and browser, and whether
-- it was a link-preview bot (a chat app fetching the page) rather than a person.
ALTER TABLE link_clicks
  ADD COLUMN device_type text,
  ADD COLUMN os_version text,
  ADD COLUMN browser_version text,
  ADD COLUMN is_bot boolean NOT NULL DEFAULT false;
