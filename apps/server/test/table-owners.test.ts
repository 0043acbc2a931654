import path from 'node:path';
import * as db from '@connect/db';
import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPOSITORY_OWNERS, TABLE_OWNERS } from '../src/table-owners.ts';
import { fromSrc, parse, serviceOf, sourceFiles, SRC } from './source-files.ts';

/**
 * One owner per table (issue 29 §2): only the owner's repositories write a table
 * (src/table-owners.ts), and read models (src/read-models/) write nothing. The test reads the
 * source of every non-test file of apps/server/src and finds its writes: Drizzle's
 * `.insert(table)`, `.update(table)` and `.delete(table)`, and in every SQL text (tagged `sql`
 * templates, raw strings) `insert into x`, `update x` and `delete from x` — inside CTEs too — where x
 * is a table's name or an interpolated table (`${invoices}`). Only lint keeps queries in
 * repositories; this test reads every file all the same.
 */

/** The schema's tables: exported name → SQL name. */
const TABLES = new Map<string, string>(
  Object.entries(db.schema)
    .filter(([, value]) => typeof value === 'object' && value !== null && is(value, PgTable))
    .map(([name, table]) => [name, getTableName(table as PgTable)]),
);
const TABLE_NAMES = new Set(TABLES.values());

type Write = { file: string; line: number; table: string; how: string };

/** Read models: screens' reads across services, declared here; they write nothing. */
const READ_MODELS = 'read-models/';

/** The owner of a file's writes: its service, or what REPOSITORY_OWNERS declares; null when undeclared. */
function ownerOf(file: string): string | null {
  return serviceOf(file) ?? REPOSITORY_OWNERS[fromSrc(file)] ?? null;
}

const SQL_WRITE = /\b(insert\s+into|update|delete\s+from)\s+(?:only\s+)?(?:\$\{([^}]*)\}|"?([a-z_][a-z0-9_]*)"?)/gi;

/** Every write to a table in `file`'s source. */
function writesOf(file: string): Write[] {
  const source = parse(file);
  // What the file imports from @connect/db: local name → table's exported name; namespaces.
  const named = new Map<string, string>();
  const namespaces = new Set<string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || (statement.moduleSpecifier as ts.StringLiteral).text !== '@connect/db') {
      continue;
    }
    const bindings = statement.importClause?.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) namespaces.add(bindings.name.text);
    if (bindings && ts.isNamedImports(bindings)) {
      for (const element of bindings.elements) {
        const imported = (element.propertyName ?? element.name).text;
        if (imported === 'schema') namespaces.add(element.name.text);
        else named.set(element.name.text, imported);
      }
    }
  }
  /** The SQL name of the table an expression's text names (`invoices`, `schema.invoices`), or null. */
  const tableOf = (text: string): string | null => {
    const [first, second, ...rest] = text.trim().split('.');
    if (rest.length === 0 && second === undefined) return TABLES.get(named.get(first!) ?? '') ?? null;
    if (rest.length === 0 && namespaces.has(first!)) {
      const inner = namespaces.has(second!) ? null : TABLES.get(second!);
      return inner ?? null;
    }
    return null;
  };
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line + 1;
  const writes: Write[] = [];
  const scanSql = (text: string, start: number) => {
    for (const match of text.matchAll(SQL_WRITE)) {
      const before = text.slice(0, match.index);
      // `for update`, `for no key update`, `on conflict … do update set` lock or merge; they name no table.
      if (/\b(for|do|key)\s*$/i.test(before)) continue;
      const table = match[2] !== undefined ? tableOf(match[2]) : TABLE_NAMES.has(match[3]!) ? match[3]! : null;
      if (!table) continue;
      const line = lineOf(start) + (before.match(/\n/g)?.length ?? 0);
      writes.push({ file: fromSrc(file), line, table, how: match[1]!.toLowerCase().replace(/\s+/g, ' ') });
    }
  };
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ['insert', 'update', 'delete'].includes(node.expression.name.text) &&
      node.arguments.length === 1
    ) {
      const table = tableOf(node.arguments[0]!.getText(source));
      if (table) {
        writes.push({
          file: fromSrc(file),
          line: lineOf(node.getStart(source)),
          table,
          how: node.expression.name.text,
        });
      }
    }
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) scanSql(node.text, node.getStart(source));
    if (ts.isTemplateExpression(node)) {
      const text =
        node.head.text +
        node.templateSpans.map((span) => `\${${span.expression.getText(source)}}${span.literal.text}`).join('');
      scanSql(text, node.getStart(source));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return writes;
}

let writes: Write[] | undefined;

/** Every write in the server's source (read once: parsing the whole server takes seconds). */
function allWrites(): Write[] {
  writes ??= sourceFiles(SRC).flatMap((file) => writesOf(file));
  return writes;
}

/**
 * The writes past the owner that are still to go (issue 29 counted 18; none is left). Each is
 * `file → table`, with what takes it away. The list only shrinks: a write not on it fails, and so
 * does an entry that no longer happens. A statement that writes another owner's table in one of
 * its CTEs embeds the SQL that owner's repository builds (storePlatformTxSql,
 * deploymentRecordSql, takeCounterSql): the write's text lives in the owner's file.
 */
const NOT_YET_OWNED: readonly { file: string; table: string; why: string }[] = [];

const describeWrite = (write: Write, owner: string | null) =>
  `${write.file}:${write.line} ${write.how} ${write.table} (owner ${TABLE_OWNERS[write.table as keyof typeof TABLE_OWNERS] ?? '?'}, written by ${owner ?? 'an undeclared owner'})`;

describe('tables and their owners', () => {
  it('names an owner for every table of the schema, and only tables', () => {
    expect([...TABLE_NAMES].filter((name) => !(name in TABLE_OWNERS)).sort(), 'tables without an owner').toEqual([]);
    expect(
      Object.keys(TABLE_OWNERS).filter((name) => !TABLE_NAMES.has(name)),
      'owners of no table',
    ).toEqual([]);
  });

  it('finds the writes it is meant to find', () => {
    // A guard on the parser itself: Drizzle calls, raw SQL, interpolated tables and CTEs.
    const writes = allWrites();
    const seen = (file: string, table: string, how: string) =>
      writes.some((write) => write.file === file && write.table === table && write.how === how);
    expect(seen('events/repository.ts', 'outbox_events', 'insert into')).toBe(true);
    expect(seen('events/repository.ts', 'event_deliveries', 'delete from')).toBe(true);
    expect(seen('repositories/ledger.ts', 'ledger_balances', 'update')).toBe(true);
    expect(seen('repositories/account-plans.ts', 'account_plans', 'insert')).toBe(true);
    expect(seen('repositories/invoice-numbers.ts', 'invoice_counters', 'update')).toBe(true);
    // Fragments an owner builds for another service's statement (tokenise's token insert).
    expect(seen('repositories/usage-records.ts', 'usage_records', 'insert into')).toBe(true);
    expect(seen('repositories/platform.ts', 'platform_transactions', 'insert into')).toBe(true);
  });

  it('lets only the owner write a table', () => {
    const past = allWrites()
      .map((write) => ({ write, owner: ownerOf(path.join(SRC, write.file)) }))
      .filter(({ write }) => !write.file.startsWith(READ_MODELS))
      .filter(({ write, owner }) => owner !== TABLE_OWNERS[write.table as keyof typeof TABLE_OWNERS]);
    const known = (write: Write) =>
      NOT_YET_OWNED.some((entry) => entry.file === write.file && entry.table === write.table);
    const violations = past.filter(({ write }) => !known(write)).map(({ write, owner }) => describeWrite(write, owner));
    expect(violations, `${violations.length} writes by others than the owner:\n${violations.join('\n')}`).toEqual([]);
    const gone = NOT_YET_OWNED.filter(
      (entry) => !past.some(({ write }) => write.file === entry.file && write.table === entry.table),
    ).map((entry) => `${entry.file} → ${entry.table}`);
    expect(gone, 'owned now: take them off NOT_YET_OWNED').toEqual([]);
  });

  it('lets read models write nothing', () => {
    const writes = allWrites()
      .filter((write) => write.file.startsWith(READ_MODELS))
      .map((write) => describeWrite(write, 'a read model'));
    expect(writes, `read models that write:\n${writes.join('\n')}`).toEqual([]);
  });
});
