// Build artifact, never a public route: every asset profile's response bytes, one per line as
// "<TFIN>\t<body>", loaded by our server so lookup hits are answered from memory.
import type { APIRoute } from 'astro';
import { readDataset } from '../../dataset/artifact.ts';
import { assetProfileBody } from '../../dataset/bodies.ts';

export const prerender = true;

export const GET: APIRoute = () => {
  const dataset = readDataset();
  const lines = dataset.assets.map((a) => `${a.tfin}\t${assetProfileBody(dataset, a)}\n`);
  return new Response(lines.join(''), { headers: { 'Content-Type': 'application/x-ndjson' } });
};
