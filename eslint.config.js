import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
      // Dependencies point one way (ARCHITECTURE.md): apps never import each other, packages never
      // import apps, the web bundle never reaches server or database code, shared depends on zod only.
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './apps/web', from: './apps/server', message: 'The web app never imports server code.' },
            { target: './apps/web', from: './packages/db', message: 'The web app never imports the database package.' },
            { target: './apps/server', from: './apps/web', message: 'Apps never import each other.' },
            { target: './packages', from: './apps', message: 'Packages never import apps.' },
            { target: './packages/shared', from: './packages/db', message: 'packages/shared depends on zod only.' },
          ],
        },
      ],
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@connect/server', '@connect/server/*'], message: 'No package imports the server.' }] },
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
    },
  },
);
