// npm run build's second step, after data:build and before `astro build`: one pass over the built
// dataset writes every prebuilt body into build/bodies/ (src/authoring/prebuilt-bodies.ts), which
// Astro's prerendered endpoints send and postbuild moves into dist/client.
import path from 'node:path';
import { writePrebuiltBodies } from '../src/authoring/prebuilt-bodies.ts';
import { datasetPath, readDataset, readProfiles } from '../src/dataset/artifact.ts';
import { bodiesDir } from '../src/dataset/built-files.ts';

const t0 = performance.now();
const file = datasetPath();
const dir = bodiesDir(file);
const result = await writePrebuiltBodies(readDataset(file), readProfiles(file), dir);
console.log(
  `bodies: ${result.profiles} profiles (bodies, pack, summaries, exports), ${result.histories} amount histories and ${result.bodies.length} dataset bodies written to ${path.relative(process.cwd(), dir) || dir} in ${((performance.now() - t0) / 1000).toFixed(1)} s.`,
);
