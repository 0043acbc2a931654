import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The boundaries of docs/architecture.md hold because lint refuses to cross them
 * (eslint.config.js). Each case lints a two-line file placed where the rule applies, importing a
 * real module (the rules look at where an import resolves), and expects the rule's message — or,
 * for what the rules allow, none.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** A real module in `dir` (relative to the root), other than its index.ts, as a path from the root. */
function someModuleIn(dir: string): string {
  const entries = readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true });
  const file = entries.find(
    (entry) =>
      entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && entry.name !== 'index.ts',
  );
  if (!file) throw new Error(`no module in ${dir}`);
  return path.relative(ROOT, path.join(file.parentPath, file.name));
}

/**
 * The messages ESLint gives a file at `filePath` (from the root) that imports `imported`: a module
 * of the repository (from the root, `apps/...`) or a package.
 */
async function lintImport(eslint: ESLint, filePath: string, imported: string, what = '* as imported') {
  let specifier = imported;
  if (imported.startsWith('apps/')) {
    specifier = path.relative(path.dirname(filePath), imported).split(path.sep).join('/');
    if (!specifier.startsWith('.')) specifier = `./${specifier}`;
  }
  const code = `import ${what} from '${specifier}';\nexport const probe = imported;\n`;
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, filePath) });
  return result!.messages.map((message) => `${message.ruleId}: ${message.message}`);
}

describe('lint boundaries', () => {
  let eslint: ESLint;
  beforeAll(() => {
    eslint = new ESLint({ cwd: ROOT });
  });

  /** The file at `filePath` importing `imported` is refused with the rule's message. */
  async function expectRefused(filePath: string, imported: string, message: string, what?: string) {
    expect(await lintImport(eslint, filePath, imported, what), filePath).toEqual([expect.stringContaining(message)]);
  }

  async function expectAllowed(filePath: string, imported: string, what?: string) {
    expect(await lintImport(eslint, filePath, imported, what), filePath).toEqual([]);
  }

  it('a web feature never imports another feature', async () => {
    const probe = 'apps/web/src/features/tokens/probe.ts';
    await expectRefused(probe, someModuleIn('apps/web/src/features/auth'), 'A feature never imports another feature');
    // Its own files are its to use.
    await expectAllowed(probe, someModuleIn('apps/web/src/features/tokens'));
  });

  it('src/components/ and src/lib/ never import a feature', async () => {
    const feature = someModuleIn('apps/web/src/features/auth');
    for (const shared of ['apps/web/src/components/probe.ts', 'apps/web/src/lib/probe.ts']) {
      await expectRefused(shared, feature, 'src/components/ and src/lib/ are shared by every feature');
    }
  });

  it('an adapter never imports a service', async () => {
    await expectRefused(
      'apps/server/src/adapters/identity-admin/probe.ts',
      'apps/server/src/services/identity/index.ts',
      'An adapter never imports a service',
    );
  });

  it("a service never imports another service's internals, only its index.ts", async () => {
    const probe = 'apps/server/src/services/tokenise/probe.ts';
    await expectRefused(
      probe,
      someModuleIn('apps/server/src/services/connect'),
      'A service uses another service only through its index.ts',
    );
    await expectAllowed(probe, 'apps/server/src/services/connect/index.ts');
  });

  it('jobs and start-up work reach the services only through the module list', async () => {
    for (const home of ['jobs', 'startup']) {
      const probe = `apps/server/src/${home}/probe.ts`;
      await expectRefused(
        probe,
        someModuleIn('apps/server/src/services/tokenise'),
        'Jobs and start-up work reach the services only through the module list',
      );
      // A service's jobs and start-up tasks live in its folder: its index.ts is not the way either.
      await expectRefused(
        probe,
        'apps/server/src/services/tokenise/index.ts',
        'Jobs and start-up work reach the services only through the module list',
      );
      await expectAllowed(probe, 'apps/server/src/services/index.ts');
    }
  });

  it("the app's root files and src/routes/ reach the services only through the module list", async () => {
    for (const probe of ['apps/server/src/app.ts', 'apps/server/src/server.ts', 'apps/server/src/routes/probe.ts']) {
      for (const service of [
        someModuleIn('apps/server/src/services/payment'),
        'apps/server/src/services/payment/index.ts',
      ]) {
        await expectRefused(probe, service, 'reach the services only through the module list');
      }
      await expectAllowed(probe, 'apps/server/src/services/index.ts');
    }
  });

  it('types.ts and modules.ts import no service, not even the module list, and not for a type', async () => {
    for (const probe of ['apps/server/src/types.ts', 'apps/server/src/modules.ts']) {
      await expectRefused(probe, 'apps/server/src/services/index.ts', 'sit below every service', 'type * as imported');
      await expectRefused(
        probe,
        someModuleIn('apps/server/src/services/tokenise'),
        'sit below every service',
        'type * as imported',
      );
    }
  });

  it('src/lib/, src/plugins/ and src/repositories/ never import a service', async () => {
    for (const below of ['lib', 'plugins', 'repositories']) {
      const probe = `apps/server/src/${below}/probe.ts`;
      await expectRefused(probe, 'apps/server/src/services/identity/index.ts', 'never import a service');
      // Type imports too: a service's types never reach below the services.
      await expectRefused(
        probe,
        'apps/server/src/services/identity/index.ts',
        'never import a service',
        'type * as imported',
      );
    }
  });

  it('only repositories import drizzle-orm or the tables; types may be imported anywhere', async () => {
    const service = 'apps/server/src/services/identity/service.ts';
    await expectRefused(service, 'drizzle-orm', 'Only repositories build queries', '{ eq as imported }');
    await expectRefused(service, '@connect/db', 'Only repositories use the tables', '{ users as imported }');
    await expectAllowed(service, '@connect/db', 'type { Database as imported }');
    await expectAllowed('apps/server/src/repositories/probe.ts', 'drizzle-orm', '{ eq as imported }');
  });

  it('tests may arrange data through any module', async () => {
    await expectAllowed(
      'apps/server/src/services/tokenise/probe.test.ts',
      someModuleIn('apps/server/src/services/connect'),
    );
  });

  it('the SPA never decides from message text', async () => {
    const code = `export const isTaken = (error: { detail?: string }) => error.detail === 'taken';\n`;
    const lint = async (filePath: string) =>
      (await eslint.lintText(code, { filePath: path.join(ROOT, filePath) }))[0]!.messages.map((m) => m.message);
    expect(await lint('apps/web/src/features/tokens/probe.ts')).toEqual([
      expect.stringContaining('Decide from the problem code'),
    ]);
    expect(await lint('apps/web/src/lib/identity-errors.ts')).toEqual([]);
  });
});
