import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'packages/*/dist/**', 'node_modules/**', 'coverage/**', 'data/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
      eqeqeq: ['error', 'smart'],
      // `require` only for what loads on first use instead of with the package (see each call site).
      '@typescript-eslint/no-require-imports': [
        'error',
        {
          allow: [
            '^class-validator$',
            '^class-transformer$',
            '^inversify$',
            '^\\./composition/',
            '^\\./hosting/start-in-worker$',
            '^\\.\\./database-connection$',
            '^\\./application/services/service-list$',
            '^class-validator-jsonschema$',
            '^class-transformer/cjs/storage$',
            '^\\.\\./package\\.json$',
            '^\\.\\./adapters/redis$',
            '^\\.\\./adapters/(opentelemetry|prometheus)$',
            '^\\.\\./\\.\\./src/adapters/opentelemetry$',
            '^socket\\.io(-adapter)?$',
            '^undici$',
            '^@casl/ability(/extra)?$',
          ],
        },
      ],
    },
  },
  {
    // Lines of at most 120 characters (Prettier's printWidth; it leaves comments and long strings as they are).
    ignores: ['src/application/services/service-types.generated.ts'],
    rules: { 'max-len': ['error', { code: 120, ignoreUrls: true, ignorePattern: '^import |^export \\* from' }] },
  },
  {
    // Tests may hold data that is code of its own: a child process's script, a pattern to match.
    files: ['test/**'],
    rules: {
      'max-len': ['error', { code: 120, ignoreUrls: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true }],
    },
  },
  {
    files: ['test/**', 'bench/**', 'scripts/**', 'src/main.ts', 'src/embedded-mongo/cli.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { module: 'writable', require: 'readonly', __dirname: 'readonly', process: 'readonly' },
    },
    // CommonJS files (configs, the jest reporter) load their modules with require.
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
