import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// Imports flow one way: shared <- server, shared <- app. app and server never import each other.
const noImport = (...zones) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: zones.map((zone) => ({
        group: [`**/${zone}/*`],
        message: `This layer may not import from src/${zone} (see ARCHITECTURE.md: imports flow one way).`,
      })),
    },
  ],
});

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'src/app/api/gen', 'data', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  { files: ['src/shared/**'], rules: noImport('server', 'app') },
  { files: ['src/server/**'], rules: noImport('app') },
  {
    files: ['src/app/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules, ...noImport('server') },
  },
);
