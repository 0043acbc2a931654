import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromSrc, importsOf, serviceOf, sourceFiles, SRC } from './source-files.ts';

/**
 * No two services import each other, not even through a third (docs/architecture.md). Lint's
 * `import/no-cycle` sees cycles between files only: account-plan/index.ts importing
 * payment/index.ts while payment/invoices/pay.ts imports account-plan/index.ts is no file cycle,
 * yet the two services depend on each other. This test builds the graph of services from the
 * imports of every non-test file under services/<name>/ (type-only imports included: a type is a
 * dependency too) and fails on any cycle, naming the files that make each edge.
 */

type Graph = Map<string, Map<string, string[]>>;

/** service → the services it imports → the imports that make the edge (`file → imported`). */
function serviceGraph(): Graph {
  const graph: Graph = new Map();
  for (const file of sourceFiles(path.join(SRC, 'services'))) {
    const from = serviceOf(file)!;
    const edges = graph.get(from) ?? new Map<string, string[]>();
    graph.set(from, edges);
    for (const imported of importsOf(file)) {
      if (!path.isAbsolute(imported)) continue;
      const to = serviceOf(imported);
      if (!to || to === from) continue;
      edges.set(to, [...(edges.get(to) ?? []), `${fromSrc(file)} → ${fromSrc(imported)}`]);
    }
  }
  return graph;
}

/** Every elementary cycle's services, each found once (starting from its smallest name). */
function cycles(graph: Graph): string[][] {
  const found: string[][] = [];
  const walk = (start: string, node: string, trail: string[]) => {
    for (const next of graph.get(node)?.keys() ?? []) {
      if (next === start) found.push([...trail, start]);
      else if (next > start && !trail.includes(next)) walk(start, next, [...trail, next]);
    }
  };
  for (const start of [...graph.keys()].sort()) walk(start, start, [start]);
  return found;
}

describe('the service graph', () => {
  it('has no cycle: no two services import each other, directly or through others', () => {
    const graph = serviceGraph();
    const described = cycles(graph).map((cycle) =>
      [
        cycle.join(' → '),
        ...cycle.slice(1).flatMap((to, i) =>
          graph
            .get(cycle[i]!)!
            .get(to)!
            .map((edge) => `    ${edge}`),
        ),
      ].join('\n'),
    );
    expect(described, `service cycles:\n${described.join('\n')}`).toEqual([]);
  });

  it('sees the imports it is meant to see', () => {
    // A guard on the test itself: the graph is built from real edges (payment's QNT payments
    // reach the chains through an adapter, never a service, so pick an edge that exists today).
    const graph = serviceGraph();
    expect([...graph.keys()].sort()).toEqual(expect.arrayContaining(['account-plan', 'payment', 'connect']));
    expect([...graph.values()].some((edges) => edges.size > 0)).toBe(true);
  });
});
