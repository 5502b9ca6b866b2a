/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** Provided by our server (src/server): the in-memory registry and the request id. */
    registry?: import('./api/registry-runtime.ts').RegistryRuntime;
    status?: import('./telemetry/status.ts').StatusService;
    requestId?: string;
    /** The answers' loaded state (src/api/answers.ts), when the server passes it. */
    answers?: import('./api/answers.ts').AnswerState;
    /** Signs the /v1 answers (SIGNING_KEY_FILE), when the server has a key. */
    signer?: import('./representation/response-signer.ts').ResponseSigner;
  }
}
