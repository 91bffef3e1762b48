// ESLint (typescript-eslint, flat config). The domain package stays pure: no I/O modules,
// no clock, no randomness (house style: time, ids and randomness come in as arguments).
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.data/**', '.tmp*/**', 'web/dist/**', '**/*.d.ts', '!packages/local-infra/src/*.d.ts'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['packages/domain/src/**/*.ts'],
    ignores: ['packages/domain/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['node:*', 'fs', 'path', 'crypto', 'http', 'net', 'child_process', 'os'], message: 'domain is pure: no I/O modules' },
          { group: ['fastify*', '@fastify/*', 'kysely', 'pg', 'bullmq', 'ioredis', 'react', 'react-dom', '@sinilill/*'], message: 'domain imports no infrastructure and no other workspace' },
        ],
      }],
      'no-restricted-syntax': ['error',
        { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: 'time comes in as an argument (DecisionContext.now)' },
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'time comes in as an argument (DecisionContext.now)' },
        { selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']", message: 'randomness comes in as an argument' },
      ],
    },
  },
  {
    files: ['services/*/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@sinilill/command-api', '@sinilill/query-api', '@sinilill/projector', '@sinilill/cli', '@sinilill/gateway', '../../*/src/*'], message: 'services depend on packages, never on each other' }] }],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@sinilill/command-api', '@sinilill/query-api', '@sinilill/projector', '@sinilill/cli', '@sinilill/gateway', '@sinilill/event-store', '@sinilill/read-models', '@sinilill/commands', '@sinilill/messaging', '@sinilill/config', '@sinilill/local-infra'], message: 'web depends on contracts (and domain pure math) only' }] }],
    },
  },
);
