// Initialises the Scalar API reference (loaded from our own origin, /scalar/standalone.js) on #app.
// Everything that would reach another origin is off: default fonts, telemetry, the agent, the
// proxy. persistAuth stays off, so a key typed into the reference is not stored.
const mount = document.getElementById('app');
const scalar = window.Scalar;
// The reference follows the system colour scheme, as the rest of the site does (no toggle of its
// own, so the two cannot disagree).
const darkQuery = window.matchMedia('(prefers-color-scheme: dark)');
const colourScheme = () => (darkQuery.matches ? 'dark' : 'light');

if (mount && scalar && typeof scalar.createApiReference === 'function') {
  const app = scalar.createApiReference('#app', {
    url: '/openapi.json',
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    // Not read by @scalar/api-reference 1.46 (unknown options are dropped); kept so the intent
    // survives an upgrade that adds it.
    mcp: { disabled: true },
    showDeveloperTools: 'never',
    hideClientButton: false,
    persistAuth: false,
    documentDownloadType: 'json',
    darkMode: darkQuery.matches,
    forceDarkModeState: colourScheme(),
    hideDarkModeToggle: true,
    // Five operations: show them all at once rather than behind collapsed tags.
    defaultOpenAllTags: true,
    authentication: {
      preferredSecurityScheme: 'ApiKeyHeader',
      securitySchemes: { ApiKeyHeader: { value: 'DEMO_KEY' } },
    },
  });
  darkQuery.addEventListener('change', () => {
    if (app && typeof app.updateConfiguration === 'function')
      app.updateConfiguration({ darkMode: darkQuery.matches, forceDarkModeState: colourScheme() });
  });
} else if (mount) {
  const loading = document.getElementById('api-reference-loading');
  const note = document.createElement('p');
  note.textContent =
    'The interactive reference could not start. The operations are listed below; the full contract is in openapi.json.';
  loading?.prepend(note);
}
