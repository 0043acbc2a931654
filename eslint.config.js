import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const SERVER = './apps/server/src';
const WEB = './apps/web/src';
/** The folders under `dir`, read when lint starts: a new service or feature is held to the rules at once. */
const foldersIn = (dir) =>
  readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
const SERVICES = foldersIn(`${SERVER}/services`);
/** The files at the root of the server's src/ (app.ts, types.ts, server.ts...), read when lint starts. */
const SERVER_ROOT_FILES = readdirSync(path.join(ROOT, SERVER), { withFileTypes: true })
  .filter((entry) => entry.isFile() && /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name))
  .map((entry) => `${SERVER}/${entry.name}`);
/** The root files every service builds on: they import no service at all, not even the module list. */
const SERVER_FOUNDATION_FILES = [`${SERVER}/types.ts`, `${SERVER}/modules.ts`];
const FEATURES = foldersIn(`${WEB}/features`);

// Dependencies point one way (ARCHITECTURE.md): apps never import each other, packages never
// import apps, the web bundle never reaches server or database code, shared depends on zod only.
const DEPENDENCY_ZONES = [
  { target: './apps/web', from: './apps/server', message: 'The web app never imports server code.' },
  { target: './apps/web', from: './packages/db', message: 'The web app never imports the database package.' },
  { target: './apps/server', from: './apps/web', message: 'Apps never import each other.' },
  { target: './packages', from: './apps', message: 'Packages never import apps.' },
  { target: './packages/shared', from: './packages/db', message: 'packages/shared depends on zod only.' },
];

// The boundaries inside each app (docs/architecture.md, "Rules and how they are enforced").
const BOUNDARY_ZONES = [
  ...FEATURES.map((feature) => ({
    target: `${WEB}/features/${feature}`,
    from: `${WEB}/features`,
    except: [`./${feature}`],
    message:
      'A feature never imports another feature: route modules in src/app/ compose features, and what several need goes to src/components/ or src/lib/.',
  })),
  {
    target: [`${WEB}/components`, `${WEB}/lib`],
    from: `${WEB}/features`,
    message: 'src/components/ and src/lib/ are shared by every feature: they never import a feature.',
  },
  {
    target: `${SERVER}/adapters`,
    from: `${SERVER}/services`,
    message:
      'An adapter never imports a service: services use adapters through their ports; what both need goes to src/lib/ or src/repositories/.',
  },
  ...SERVICES.map((service) => ({
    target: `${SERVER}/services/${service}`,
    from: `${SERVER}/services`,
    except: [`./${service}`, ...SERVICES.filter((other) => other !== service).map((other) => `./${other}/index.ts`)],
    message:
      "A service uses another service only through its index.ts (its public face), never the other service's internals.",
  })),
  {
    // A service's jobs and start-up tasks live in its folder and its module.ts lists them.
    target: [`${SERVER}/jobs`, `${SERVER}/startup`],
    from: `${SERVER}/services`,
    except: ['./index.ts'],
    message:
      "Jobs and start-up work reach the services only through the module list (services/index.ts): a service's own jobs and tasks live in its folder, listed by its module.ts.",
  },
  {
    target: [...SERVER_ROOT_FILES.filter((file) => !SERVER_FOUNDATION_FILES.includes(file)), `${SERVER}/routes`],
    from: `${SERVER}/services`,
    except: ['./index.ts'],
    message:
      "The app's root files and src/routes/ reach the services only through the module list (services/index.ts), never a service's files: what the app needs of a service is in its module.ts, what the platform needs goes to src/lib/.",
  },
  {
    target: SERVER_FOUNDATION_FILES,
    from: `${SERVER}/services`,
    message:
      "types.ts and modules.ts sit below every service: they never import one (a service declares its runtime face's type in its own module.ts, merged into Runtime).",
  },
  {
    target: [
      `${SERVER}/lib`,
      `${SERVER}/plugins`,
      `${SERVER}/repositories`,
      `${SERVER}/events`,
      `${SERVER}/read-models`,
    ],
    from: `${SERVER}/services`,
    message:
      'src/lib/, src/plugins/, src/repositories/, src/events/ and src/read-models/ sit below the services: they never import a service (move what they need to src/lib/).',
  },
];

/** Files that arrange data for tests may reach any module: the boundaries hold for shipped code. */
const TEST_FILES = [
  '**/*.test.{ts,tsx}',
  '**/testing.ts',
  '**/test-support.ts',
  '**/test-utils.{ts,tsx}',
  'apps/*/test/**',
  'apps/web/src/test/**',
];

/** Where the database is touched: repositories only (ARCHITECTURE.md, "Where the database is touched"). */
const REPOSITORY_FILES = [
  'apps/server/src/repositories/**',
  // Read models: screens' reads across services, which write nothing (src/read-models/README.md).
  'apps/server/src/read-models/**',
  'apps/server/src/**/repository.ts',
  'apps/server/src/**/*-repository.ts',
  'apps/server/src/**/repository-*.ts',
];

/** The SPA never decides from a message's text (apps/web: see its no-restricted-syntax). */
const DECIDE_BY_CODE =
  'Decide from the problem code (lib/problems.ts), not from message text; Cognito messages are read only in lib/identity-errors.ts.';
const TEXT = '[property.name=/^(detail|message)$/]';
const SEARCH = '/^(includes|startsWith|endsWith|match|matchAll|search|indexOf|lastIndexOf|localeCompare)$/';
const MESSAGE_TEXT_SELECTORS = [
  // error.message === '...'
  `BinaryExpression[operator=/^[!=]==?$/] > MemberExpression.left${TEXT}`,
  `BinaryExpression[operator=/^[!=]==?$/] > MemberExpression.right${TEXT}`,
  // error.message.includes('...'), error.detail.toLowerCase().startsWith('...'), error.message.match(/.../)
  `CallExpression[callee.property.name=${SEARCH}] > MemberExpression.callee MemberExpression${TEXT}`,
  // ['...'].includes(error.message)
  `CallExpression[callee.property.name=/^(includes|indexOf)$/][arguments.0.property.name=/^(detail|message)$/]`,
  // /.../.test(error.message), pattern.exec(error.detail ?? '')
  `CallExpression[callee.property.name=/^(test|exec)$/] MemberExpression${TEXT}`,
  // switch (error.message)
  `SwitchStatement > MemberExpression.discriminant${TEXT}`,
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.data/**',
      'packages/db/migrations/**',
      'test-results/**',
      'playwright-report/**',
      '**/fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    plugins: { import: importPlugin },
    settings: {
      'import/resolver': {
        typescript: { project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json'], noWarnOnMultipleProjects: true },
        node: true,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'import/no-cycle': 'error',
      'import/no-restricted-paths': ['error', { basePath: ROOT, zones: [...DEPENDENCY_ZONES, ...BOUNDARY_ZONES] }],
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@connect/server', '@connect/server/*'], message: 'No package imports the server.' }] },
      ],
    },
  },
  {
    files: TEST_FILES,
    rules: { 'import/no-restricted-paths': ['error', { basePath: ROOT, zones: DEPENDENCY_ZONES }] },
  },
  {
    // Queries are methods of repositories, named for their intent; everything else calls them.
    // Types (Database, a status union) may be imported anywhere.
    files: ['apps/server/src/**/*.ts'],
    ignores: [...REPOSITORY_FILES, ...TEST_FILES],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'drizzle-orm',
              allowTypeImports: true,
              message: 'Only repositories build queries: add a method named for its intent to a repository.',
            },
            {
              name: '@connect/db',
              allowTypeImports: true,
              allowImportNames: ['openDatabase', 'seedReferenceData'],
              message: 'Only repositories use the tables: add a method named for its intent to a repository.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod$|zod/|\\.{1,2}/)',
              message: 'packages/shared depends on zod only (and its own files).',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests of the shared rules need their runner; only the shipped code is held to zod-only.
    files: ['packages/shared/**/*.test.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@connect/db', '@connect/db/*', '@connect/server', '@connect/server/*'],
              message: 'Server and database code never reach the web bundle.',
            },
            { group: ['node:*'], message: 'The web bundle runs in the browser.' },
          ],
        },
      ],
      // The SPA decides from a problem's code (lib/problems.ts), never from its text: no comparison,
      // search (includes, startsWith, match...), regular expression or switch on a `message` or `detail`.
      'no-restricted-syntax': [
        'error',
        ...MESSAGE_TEXT_SELECTORS.map((selector) => ({ selector, message: DECIDE_BY_CODE })),
      ],
    },
  },
  {
    // The one module that reads Cognito's messages (real Cognito gives no other signal), and tests.
    files: ['apps/web/src/lib/identity-errors.ts', 'apps/web/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
