// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import astro from 'eslint-plugin-astro';
import globals from 'globals';

// The rooms of src/ and what each may import (ARCHITECTURE.md, "Rooms"). An import string is
// matched as a gitignore pattern, so the group `**` + `/authoring/**` catches
// '../authoring/load.ts' and '../../src/authoring/load.ts' alike; test/unit/layering.test.ts
// proves the rules bite.
const ROOMS = [
  'domain',
  'lib',
  'dataset',
  'authoring',
  'api',
  'server',
  'access',
  'telemetry',
  'store',
  'representation',
  'http',
  'importers',
  'pages',
  'charts',
  'openapi',
  'layouts',
];
/** The rule for code in `files` that may import only the rooms in `allowed` (and packages). */
const onlyImports = (files, allowed, why) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ROOMS.filter((room) => !allowed.includes(room)).map((room) => `**/${room}/**`),
            message: why,
          },
        ],
      },
    ],
  },
});
/** The rule for code in `files` that must not import the rooms in `refused`. */
const neverImports = (files, refused, why) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: [{ group: refused.map((room) => `**/${room}/**`), message: why }] },
    ],
  },
});
const LAYERS = [
  onlyImports(['src/lib/**'], ['lib'], 'src/lib holds generic helpers: it imports only src/lib.'),
  onlyImports(['src/domain/**'], ['domain', 'lib'], 'src/domain imports only domain and lib.'),
  onlyImports(
    ['src/dataset/**'],
    ['domain', 'lib', 'dataset'],
    'src/dataset (derivation and built file formats) imports only domain, lib and dataset.',
  ),
  onlyImports(
    ['src/authoring/**'],
    ['domain', 'lib', 'dataset', 'api', 'authoring'],
    'src/authoring (build time) imports only domain, lib, dataset, api and authoring.',
  ),
  onlyImports(
    ['src/api/**'],
    ['domain', 'lib', 'dataset', 'api'],
    'src/api (request time) imports only domain, lib, dataset and api — never authoring.',
  ),
  onlyImports(
    ['src/importers/**'],
    ['domain', 'lib', 'dataset', 'authoring', 'importers'],
    'src/importers imports only domain, lib, dataset, authoring and importers.',
  ),
  onlyImports(
    ['src/representation/**'],
    ['domain', 'lib', 'dataset', 'api', 'representation'],
    'src/representation (the built bodies and the one writer of answers, shared by the server and Astro) imports only domain, lib, dataset, api and representation.',
  ),
  onlyImports(
    ['src/http/**'],
    ['domain', 'lib', 'dataset', 'api', 'representation', 'http'],
    "src/http (Astro's endpoint adapters) imports only domain, lib, dataset, api, representation and http — never src/server: what both share lives in src/representation.",
  ),
  neverImports(
    ['src/server/**'],
    ['authoring', 'importers', 'http'],
    'src/server never imports build-time code (authoring, importers) nor src/http (the Astro side): what both share lives in src/representation.',
  ),
  neverImports(
    ['src/access/**', 'src/telemetry/**'],
    ['authoring', 'importers'],
    'The service never imports build-time code (authoring, importers).',
  ),
  neverImports(
    ['src/store/**'],
    ['authoring', 'importers', 'telemetry'],
    'src/store never imports build-time code nor src/telemetry (an arrow up): shared policy lives in src/domain.',
  ),
  neverImports(
    ['src/pages/**', 'src/charts/**', 'src/openapi/**', 'src/layouts/**'],
    ['authoring', 'importers', 'store'],
    'Pages, charts and the OpenAPI document never import authoring, importers or the store.',
  ),
  neverImports(
    ['scripts/**'],
    ['src/server'],
    'scripts/ never imports src/server: shared code lives in src/dataset, src/lib or src/config.ts.',
  ),
];

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'build/',
      '.releases/',
      'dist',
      'build',
      'var/',
      '.bench-tmp/',
      '.astro/',
      'node_modules/',
      'public/scalar/',
      'bench/results/',
      'clients/typescript/dist/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...astro.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-control-regex': 'off',
    },
  },
  {
    files: ['public/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  ...LAYERS,
  {
    // No function over 100 lines (CONTRIBUTING.md). Counted as the rule counts by default: every
    // line of the function, blank lines and comments included, so a long function cannot pass by
    // thinning its comments.
    files: ['src/**/*.ts', 'scripts/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 100 }] },
  },
);
