// npm run build's second step, after data:build: the one emitter. ONE process parses the built
// core once (sharedDataset) and runs `astro build` in itself; everything below reads that object.
//   - Astro builds the pages, docs and sandbox; no page sends or copies a body (src/pages/v1 has
//     only the on-demand operations).
//   - Between Astro's bundling and its rendering of the pages (the `astro:build:ssr` hook: its
//     manifest of static files is made by then, so the bodies never enter its routing), the
//     emitter writes every prebuilt body straight into dist/client, each checked against its
//     response schema as it is written (src/authoring/prebuilt-bodies.ts: one pass over the
//     profiles). The pages then render on the same parsed core (their bundled sharedDataset finds
//     it on globalThis), the landing page reading the histories just written.
//   - Then the schemas, the precompression and the integrity manifest (postbuild.ts).
// Nothing moves or copies a body afterwards.
import path from 'node:path';
import { build, type AstroIntegration } from 'astro';
import { writePrebuiltBodies, type PassResult } from '../src/authoring/prebuilt-bodies.ts';
import { coreParses, datasetPath, readProfiles, sharedDataset } from '../src/dataset/artifact.ts';
import { clientDir } from '../src/dataset/built-files.ts';
import { PostbuildError, postbuild } from './postbuild.ts';

const seconds = (t0: number) => `${((performance.now() - t0) / 1000).toFixed(1)} s`;
const t0 = performance.now();
const file = datasetPath();
const client = clientDir();
// The one parse of the core in the build: every reader below, Astro's pages too, gets this object.
const core = sharedDataset(file);
let result: PassResult | null = null;
const emitter: AstroIntegration = {
  name: 'tai:emitter',
  hooks: {
    async 'astro:build:ssr'() {
      const started = performance.now();
      result = await writePrebuiltBodies(core, readProfiles(file), client);
      console.log(
        `emit: ${result.profiles} profiles (bodies, pack, summaries, exports), ${result.histories} amount histories and ${result.bodies.length} dataset bodies written to ${path.relative(process.cwd(), client) || client} in ${seconds(started)}.`,
      );
    },
  },
};
await build({ root: process.cwd(), integrations: [emitter] });
if (!result) {
  console.error(
    'emit: astro build finished without running the emitter (its astro:build:ssr hook): no body was written.',
  );
  process.exit(1);
}
try {
  postbuild(client, core, file);
} catch (error) {
  if (!(error instanceof PostbuildError)) throw error;
  console.error(`postbuild: ${error.message}`);
  process.exit(1);
}
console.log(
  `emit: the release in ${path.dirname(client)} written in ${seconds(t0)}; cores parsed in this process: ${coreParses()}.`,
);
// Astro may leave handles open (its telemetry, file watchers): the build is done.
process.exit(0);
