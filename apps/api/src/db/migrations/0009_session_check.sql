-- The bearer-token check of every API request as ONE statement (issue 15): finds the session
-- with its user and clinic in the system context, refreshes its last activity at most every
-- `activity_interval_ms` and locks it once idle longer than the clinic's lock_after_minutes, and
-- answers what the auth plugin decides on. It replaces a transaction of four round trips (begin,
-- set_config, select, commit, plus an update now and then). Nothing is cached: every request
-- reads the session, so a revoked, expired, locked or deactivated one is refused at once.
-- SECURITY INVOKER: it switches to odontia_system itself (transaction-local, like withSystem)
-- and back to the caller's role and clinic before it returns. Times compare in milliseconds,
-- as the application's clock (`at`, JavaScript's) does.
CREATE OR REPLACE FUNCTION odontia_session_check(
  token_hash text, at timestamptz, background boolean, activity_interval_ms integer
) RETURNS TABLE (
  session_id uuid, user_id uuid, account_id uuid, level text, time_zone text, refusal text, locked boolean
)
  LANGUAGE plpgsql VOLATILE
  AS $$
DECLARE
  caller_role text := current_setting('role');
  caller_account text := coalesce(current_setting('app.account_id', true), '');
  checked record;
  session_found boolean;
  idle interval;
BEGIN
  PERFORM set_config('role', 'odontia_system', true), set_config('app.account_id', '', true);
  SELECT s.account_id, s.id, s.user_id, s.revoked_at, s.locked_at,
         date_trunc('milliseconds', s.expires_at) AS expires_at,
         date_trunc('milliseconds', s.last_activity_at) AS last_activity_at,
         u.level, u.active, a.lock_after_minutes, a.time_zone
    INTO checked
    FROM sessions s
    JOIN users u ON u.account_id = s.account_id AND u.id = s.user_id
    JOIN accounts a ON a.id = s.account_id
   WHERE s.token_hash = odontia_session_check.token_hash;
  session_found := FOUND;
  IF session_found THEN
    session_id := checked.id;
    user_id := checked.user_id;
    account_id := checked.account_id;
    level := checked.level;
    time_zone := checked.time_zone;
    locked := checked.locked_at IS NOT NULL;
    idle := odontia_session_check.at - checked.last_activity_at;
    IF checked.revoked_at IS NOT NULL OR NOT checked.active THEN
      refusal := 'unauthorized';
    ELSIF checked.expires_at <= odontia_session_check.at THEN
      refusal := 'session_expired';
    ELSIF NOT locked AND idle > make_interval(mins => checked.lock_after_minutes) THEN
      locked := true;
      UPDATE sessions SET locked_at = odontia_session_check.at
       WHERE sessions.account_id = checked.account_id AND sessions.id = checked.id;
    ELSIF NOT locked AND NOT background AND idle >= activity_interval_ms * interval '1 millisecond' THEN
      UPDATE sessions SET last_activity_at = odontia_session_check.at
       WHERE sessions.account_id = checked.account_id AND sessions.id = checked.id;
    END IF;
  END IF;
  PERFORM set_config('role', caller_role, true), set_config('app.account_id', caller_account, true);
  IF session_found THEN
    RETURN NEXT;
  END IF;
END
$$;
