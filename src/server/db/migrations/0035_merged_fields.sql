-- One recipient's custom fields merged over its contacts in several groups (db/audience.ts,
-- docs/engine.md "One number in several groups"). `fields` in the order of the campaign's included
-- groups. Field by field: a non-empty value beats an empty (or JSON null) or missing one; between
-- non-empty values the earliest wins; a field empty everywhere stays empty (the earliest's).
-- It runs for every number in several groups of a send: jsonb operators and simple expressions only
-- (no statement inside), so a million of them cost seconds, not minutes.
CREATE FUNCTION herald_merged_fields(fields jsonb[]) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  present jsonb := '{}';
  filled jsonb := '{}';
  f jsonb;
  empty jsonb;
BEGIN
  FOREACH f IN ARRAY fields LOOP
    present := f || present;
    IF f @? '$.* ? (@ == "" || @ == null)' THEN
      empty := jsonb_path_query_array(f, '$.keyvalue() ? (@.value == "" || @.value == null).key');
      FOR i IN 0 .. jsonb_array_length(empty) - 1 LOOP
        f := f - (empty ->> i);
      END LOOP;
    END IF;
    filled := f || filled;
  END LOOP;
  RETURN present || filled;
END
$$;
