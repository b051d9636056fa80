// Lint rules: typescript-eslint's recommended set, type-aware, over src, test, bench and packages.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'test-output/**', 'packages/local-slack/src/workspace/page/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['eslint.config.js', 'packages/local-slack/scripts/*.mjs', 'src/store/pglite-worker.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      'no-console': ['error', { allow: ['error'] }],
    },
  },
  {
    // The demo's launcher and install step: plain JavaScript run by Node before anything is compiled.
    files: ['packages/local-slack/scripts/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    // The embedded database's worker thread: plain JavaScript, started by Node without a loader.
    files: ['src/store/pglite-worker.mjs'],
    languageOptions: { globals: { Blob: 'readonly' } },
  },
  {
    files: ['test/**', 'bench/**', 'packages/*/test/**', 'src/sandbox/cli.ts'],
    rules: {
      'no-console': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
    },
  },
);
