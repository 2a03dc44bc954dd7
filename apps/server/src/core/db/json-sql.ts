/**
 * Text of statement pieces that build a reply's JSON in the database (the console's lists, sent
 * with `jsonReply`), written to give what the API's mapping in JavaScript and zod give. Each takes
 * and returns SQL text made of column names and constants only, never of request values.
 */

/** A timestamp as `Date.toISOString()` writes it (UTC, milliseconds, Z); null stays null. */
export const isoTime = (column: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Whether a jsonb value is truthy as JavaScript reads it (`value ? ... : ...`). */
export const jsonTruthy = (value: string) =>
  `coalesce(${value} not in ('null'::jsonb, 'false'::jsonb, '0'::jsonb, '""'::jsonb), false)`;

const keyList = (keys: readonly string[]) => keys.map((key) => `'${key}'`).join(', ');

/** A jsonb object cut to `keys` (those it has), as zod strips an object to its schema's fields. */
export const jsonPick = (value: string, keys: readonly string[]) =>
  `(case when jsonb_typeof(${value}) = 'object' then (select coalesce(jsonb_object_agg(k, v), '{}'::jsonb)
    from jsonb_each(${value}) as picked(k, v) where k in (${keyList(keys)})) else ${value} end)`;

/** Each object of a jsonb array cut to `keys` (jsonPick), in order. */
export const jsonPickEach = (value: string, keys: readonly string[]) =>
  `(case when jsonb_typeof(${value}) = 'array' then (select coalesce(jsonb_agg(${jsonPick('item', keys)} order by n), '[]'::jsonb)
    from jsonb_array_elements(${value}) with ordinality as items(item, n)) else ${value} end)`;
