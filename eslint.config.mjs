// ESLint 9 flat config. `npm run lint` runs it over the whole tree (src/, test/, bench/, scripts/,
// and the root config files), then `prettier --check .`.
//
// Most of this file is the architecture's guardrails (docs/architecture.md, "Boundaries the linter
// holds"): transport never imports the ORM or db/, modules never import transport/, shared/
// imports nothing above it, jobs/ (a generic runner) imports only db/, shared/ and config.ts,
// observability/ never imports a door or the wiring, providers/ nothing of the domain, and no
// import cycles. test/unit/lint-boundaries.test.ts shows each rule firing.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;

const NO_DATABASE_IN_TRANSPORT = {
  group: ['@mikro-orm/*', 'pg', 'knex'],
  message: 'transport/ never touches the database: no ORM, no driver. Call a service; per-operation ORM contexts come from app.ts.',
};
// Not a service locator: a route module or resolver declares the services it calls (its `UsedServices`).
const NO_SERVICE_LOCATOR = {
  regex: '(^|/)container$',
  message:
    'transport/ takes no bag of services from the container: declare the services this file calls (type UsedServices = { … }); the door entry (rest/index.ts, graphql/schema.ts) passes them.',
};

export default defineConfig([
  // dashboard/src/generated/: written by `npm run codegen` (and checked current by `npm run codegen:check`);
  // sdk/src/generated/ and sdk/dist/: written by `npm run sdk:generate` (checked by `npm run sdk:check`) and the SDK's own build;
  // cli/dist/: the CLI's own build.
  globalIgnores(['dist/', 'coverage/', '.data/', 'bench/results/', 'dashboard/src/generated/', 'sdk/src/generated/', 'sdk/dist/', 'cli/dist/']),

  js.configs.recommended,
  // Not the type-aware presets: they build the whole TypeScript program and took about four times
  // as long here (42 s against 10 s on 2 cores); `tsc` (strict, noUnused*) already runs in CI.
  tseslint.configs.recommended,

  {
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { 'import-x': importX },
    settings: {
      // Resolves the relative and package imports the way tsc does, for no-cycle and no-restricted-paths.
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: `${root}/tsconfig.json` })],
      // The files no-cycle reads to follow the graph (without these it silently follows nothing).
      'import-x/extensions': ['.ts', '.js', '.mjs', '.cjs'],
      'import-x/external-module-folders': ['node_modules'],
    },
    rules: {
      // No import cycles. Type-only imports (`import type`, or `import { type X }` with every
      // specifier a type) are not counted: TypeScript erases them, so they cannot make a module
      // see another one half-initialised at run time. Counting them would flag three harmless
      // pairs today (logger/request-logger, kyc.service/kyc.serializer, the two OpenAPI operation
      // files), each a type used back by the module that imports its values.
      // A plain `import { X }` used only as a type still counts (tsc would drop it, but it reads as
      // a run-time edge): write `import type` when that is what it is.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      'import-x/no-duplicates': 'error',

      // As tsc's noUnusedLocals/noUnusedParameters: an `_` prefix marks a parameter a signature
      // requires, or a rest sibling destructured away (`const { secret: _secret, ...rest } = x`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],

      // A package's version read from its package.json (`require('x/package.json').version`) is
      // the plain CommonJS way; any other require() is an error.
      '@typescript-eslint/no-require-imports': ['error', { allow: ['/package\\.json$'] }],

      // A few more that catch real mistakes and cost nothing.
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-var': 'error',
      'prefer-const': 'error',
    },
  },

  // The layer boundaries. Path zones are resolved files, so `../../db/orm` and `../db` are caught
  // whatever the relative path; type-only imports count here (a type from db/ in transport/ is
  // still transport depending on storage's shape).
  {
    files: ['src/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: [
            {
              target: 'src/transport',
              from: 'src/db',
              message: 'transport/ never imports db/: call a service, or take what it needs (e.g. an ORM context runner) from app.ts.',
            },
            {
              target: 'src/modules',
              from: 'src/transport',
              message: 'modules/ never import transport/: the doors depend on the services, not the other way round.',
            },
            {
              target: 'src/observability',
              from: ['src/transport', 'src/container.ts', 'src/app.ts', 'src/bootstrap.ts', 'src/main.ts', 'src/cli'],
              message:
                'observability/ sits below the wiring and the doors: it keeps the metrics and health checks; their HTTP routes live in transport/, and it is built by the composition root.',
            },
            {
              target: 'src/providers',
              from: ['src/modules', 'src/jobs', 'src/events', 'src/transport', 'src/container.ts', 'src/app.ts'],
              message:
                'providers/ holds the connectors, below the modules: they translate to a provider and back, and import nothing of the domain (the rails service that uses them lives in modules/rails).',
            },
            {
              target: 'src/shared',
              from: 'src/**',
              // no-restricted-paths matches glob exceptions, as they are, against absolute paths (and only globs).
              except: [`${root}/src/shared/**`, `${root}/src/config.*`],
              message: 'shared/ is the bottom layer: it imports only shared/ and config.ts, never modules, doors, db or wiring.',
            },
            {
              target: 'src/jobs',
              from: 'src/**',
              except: [`${root}/src/jobs/**`, `${root}/src/db/**`, `${root}/src/shared/**`, `${root}/src/config.*`],
              message:
                'jobs/ is a generic runner: it imports only jobs/, db/, shared/ and config.ts. Modules declare their own jobs (<module>.jobs.ts); the catalogue and the handlers belong to the composition root (src/job-catalogue.ts, src/workers.ts).',
            },
          ],
        },
      ],
    },
  },
  // Time is read through the clock (shared/clock.ts): the injected one, or `systemClock` where a reading must be
  // real time whatever the service's clock; a duration through performance.now(). Tests then control time.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/shared/clock.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'Read time through the clock: the injected Clock, systemClock (real time on purpose), or performance.now() for a duration.',
        },
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'Read time through the clock: the injected Clock, or systemClock (real time on purpose).',
        },
      ],
    },
  },
  {
    files: ['src/transport/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_DATABASE_IN_TRANSPORT, NO_SERVICE_LOCATOR] }] },
  },
  // Each door's entry point hands every route module and resolver the services it names; only they see the whole bag.
  {
    files: ['src/transport/rest/index.ts', 'src/transport/graphql/schema.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_DATABASE_IN_TRANSPORT] }] },
  },
  {
    files: ['src/modules/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['fastify', '@fastify/*', '@apollo/*', '@as-integrations/*', 'type-graphql', 'graphql', 'graphql-ws', 'graphql-ws/*', 'ws'],
              message: 'modules/ know nothing of the doors: HTTP and GraphQL types belong in transport/ (entities are not GraphQL types).',
            },
          ],
        },
      ],
    },
  },

  // Tests and the benchmark read untyped JSON answers (`res.body.data.x`) on every other line:
  // typing each one would add nothing that the assertions do not already check (125 uses in test/).
  // In src/ the few `any`s left are library signatures, each with its reason beside it.
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },

  // The merchant dashboard runs in a browser, on the public API alone: it may not import the service's code.
  {
    files: ['dashboard/**/*.{ts,tsx,mts}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { zones: [{ target: `${root}/dashboard`, from: `${root}/src`, message: 'The dashboard uses only the public API (GraphQL, graphql-ws, OAuth).' }] },
      ],
    },
  },

  // The SDK is published apart from the service and speaks only its public API (REST, GraphQL, webhooks).
  {
    files: ['sdk/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: `${root}/sdk`,
              from: [`${root}/src`, `${root}/test`, `${root}/dashboard`],
              message: 'The SDK uses only the public API and its generated types (sdk/src/generated/).',
            },
          ],
        },
      ],
    },
  },

  // The CLI (@payments-gateway/cli) is published apart from the service too, and speaks only its public API
  // (OAuth, REST, graphql-ws).
  {
    files: ['cli/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: `${root}/cli`,
              from: [`${root}/src`, `${root}/test`, `${root}/dashboard`, `${root}/sdk`],
              message: 'The CLI uses only the public API (OAuth, REST, graphql-ws).',
            },
          ],
        },
      ],
    },
  },

  // Plain CommonJS scripts and config files.
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
]);
