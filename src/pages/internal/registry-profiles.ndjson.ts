// Build artifact, never a public route: every asset profile's response bytes, one per line as
// "<TFIN>\t<body>", streamed (a large registry does not fit one string). scripts/postbuild.ts
// packs them, compressed, for the server's lookup fast path.
import type { APIRoute } from 'astro';
import { readDataset, readProfiles } from '../../dataset/artifact.ts';
import { assetProfileBody } from '../../api/bodies.ts';

export const prerender = true;

export const GET: APIRoute = () => {
  const core = readDataset();
  const profiles = readProfiles();
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk: string[] = [];
      for (let i = 0; i < 500; i++) {
        const next = profiles.next();
        if (next.done) {
          if (chunk.length) controller.enqueue(encoder.encode(chunk.join('')));
          controller.close();
          return;
        }
        chunk.push(`${next.value.tfin}\t${assetProfileBody(core, next.value)}\n`);
      }
      controller.enqueue(encoder.encode(chunk.join('')));
    },
  });
  return new Response(stream, { headers: { 'Content-Type': 'application/x-ndjson' } });
};
