import type { DbHandle } from '@connect/db';

/** Per table `count:md5` of its rows, so two snapshots differ exactly when some table was written. */
export type TableSnapshot = Record<string, string>;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The name of a table's second checksum, over its rows without the columns named. */
export const withoutLabel = (table: string, columns: string[]) => `${table} without ${columns.join(', ')}`;

/**
 * Snapshots every table of the database in one statement (one round trip, so a test can take
 * one before and after each request): the row count and an md5 over the rows' text, ordered.
 * The table list comes from information_schema once per database handle. `alsoWithout` adds, for
 * a table, a second checksum over its rows without some columns, so a test can let those columns
 * change (bookkeeping such as a failed-attempt counter) and still see every other write.
 */
export function tableSnapshotter(
  dbh: DbHandle,
  options: { alsoWithout?: Record<string, string[]> } = {},
): () => Promise<TableSnapshot> {
  let statement: Promise<string> | undefined;
  const build = async () => {
    const { rows } = await dbh.query(
      `select table_schema as "schema", table_name as "name" from information_schema.tables
       where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')
       order by 1, 2`,
    );
    if (rows.length === 0) throw new Error('No tables to snapshot');
    const checksum = (label: string, table: string, row: string) =>
      `select '${label.replaceAll("'", "''")}' as "table", count(*)::text || ':' || md5(coalesce(string_agg(${row}, E'\\n' order by ${row}), '')) as "sum" from ${table} t`;
    return rows
      .flatMap(({ schema, name }) => {
        const table = `${quote(String(schema))}.${quote(String(name))}`;
        const label = `${String(schema)}.${String(name)}`;
        const omitted = options.alsoWithout?.[label];
        const without = omitted?.map((column) => `'${column.replaceAll("'", "''")}'`).join(', ');
        return [
          checksum(label, table, 't::text'),
          ...(omitted
            ? [checksum(withoutLabel(label, omitted), table, `(to_jsonb(t) - array[${without}])::text`)]
            : []),
        ];
      })
      .join('\nunion all\n');
  };
  return async () => {
    statement ??= build();
    const { rows } = await dbh.query(await statement);
    return Object.fromEntries(rows.map((row) => [String(row.table), String(row.sum)]));
  };
}

/** The tables whose rows differ between two snapshots. */
export function changedTables(before: TableSnapshot, after: TableSnapshot): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => before[name] !== after[name]).sort();
}
