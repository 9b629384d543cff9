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
        message: `This layer may not import from src/${zone} (see docs/ARCHITECTURE.md: imports flow one way).`,
      })),
    },
  ],
});

// A module of the service (src/server/modules/*) and a feature of the dashboard (src/app/features/*)
// never import another one: what they share lives in shared/, lib/, db/ or components/, and a
// service is handed what it needs from another module by services.ts. A module may name another's
// types (a dependency declared as `Pick<TemplatesRepository, 'find'>`): types make no coupling at run time.
const siblingImports = (allowTypeImports) => [
  {
    regex: '^\\.\\./(?!\\.\\.)',
    message:
      'A module (feature) may not import another module (feature): share it through shared/, lib/ or components/, or take it as a dependency (see docs/ARCHITECTURE.md, rules of the code).',
    allowTypeImports,
  },
  {
    regex: '^(\\.\\./)+(modules|features)/',
    message: 'A module (feature) may not import another module (feature) (see docs/ARCHITECTURE.md, rules of the code).',
    allowTypeImports,
  },
];

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
    files: ['src/server/modules/*/*'],
    // Tests compose modules as services.ts does.
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...noImport('app')['no-restricted-imports'][1].patterns, ...siblingImports(true)] }] },
  },
  {
    files: ['src/app/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules, ...noImport('server') },
  },
  {
    // Figures and times are written by lib/format.ts alone, in the browser's language (docs/ARCHITECTURE.md).
    files: ['src/app/**'],
    ignores: ['src/app/lib/format.ts', '**/*.test.ts', '**/*.test.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.object.name='Intl']", message: 'Format with src/app/lib/format.ts (the browser’s language).' },
        { selector: 'CallExpression[callee.property.name=/^toLocale/]', message: 'Format with src/app/lib/format.ts (the browser’s language).' },
      ],
    },
  },
  // Scripts the dashboard's page loads as they are (public/color-scheme.js, before the first paint).
  { files: ['public/**/*.js'], languageOptions: { globals: { ...globals.browser }, sourceType: 'script' } },
  {
    files: ['src/app/features/*/*'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...noImport('server')['no-restricted-imports'][1].patterns, ...siblingImports(false)] }] },
  },
);
