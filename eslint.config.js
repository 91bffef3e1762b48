// ESLint (typescript-eslint, flat config). The domain package stays pure: no I/O modules,
// no clock, no randomness (house style: time, ids and randomness come in as arguments).
import tseslint from 'typescript-eslint';

// One door to the log: only packages/event-store speaks SQL to the log's table; everything else
// reads through the EventStore interface, so every feature runs on every engine
// (docs/decisions/0070-every-read-of-the-log-goes-through-event-store.md). Tests may inspect the
// stored rows. Listed in every block that sets no-restricted-syntax (a later block replaces it).
const LOG_SQL = 'only packages/event-store reads es.events: use the EventStore interface (readEvents, countEvents, readStream, readAll)';
const noLogSql = [
  { selector: 'Literal[value=/\\bes\\.events\\b/]', message: LOG_SQL },
  { selector: 'TemplateElement[value.raw=/\\bes\\.events\\b/]', message: LOG_SQL },
];

// One error answer: every refusal is errorBody(code) of packages/http (spec §8's catalogue code in
// `message`), never a body written by hand that a change of the answer's shape would miss.
const noHandWrittenErrorBody = [
  { selector: "CallExpression[callee.property.name='send'] > ObjectExpression > Property[key.name='message']", message: 'answer errors with errorBody(code) from @sinilill/http' },
];

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
    files: ['packages/*/src/**/*.ts', 'services/*/src/**/*.ts', 'web/src/**/*.{ts,tsx}'],
    ignores: ['packages/event-store/**', '**/*.test.ts', '**/*.test.tsx'],
    rules: { 'no-restricted-syntax': ['error', ...noLogSql, ...noHandWrittenErrorBody] },
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
        ...noLogSql,
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
