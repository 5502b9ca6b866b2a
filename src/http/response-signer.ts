// What every response signature covers, for the pages that document it (docs/verifying.astro);
// the signer itself is src/representation/response-signer.ts.
export { SIGNED_COMPONENTS } from '../representation/response-signer.ts';
