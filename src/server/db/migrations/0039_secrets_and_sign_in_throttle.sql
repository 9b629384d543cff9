-- Sign-in throttle (issue 32): failed sign-ins counted per e-mail address and client address
-- together, so that nobody can lock a known user out by failing on their address from elsewhere.
-- After LOGIN_RATE_LIMIT_PER_MINUTE failures in a row the pair waits, longer after each further
-- failure; a sign-in that succeeds clears its row.
CREATE TABLE login_failures (
  email text NOT NULL,
  address text NOT NULL,
  failures integer NOT NULL,
  last_failed_at timestamptz NOT NULL,
  PRIMARY KEY (email, address)
);
CREATE INDEX login_failures_last_failed_at ON login_failures (last_failed_at);
