// The sandbox: builds a form for the chosen operation from /openapi.json, executes the call live
// from the browser and lays out the answer (status, time, the headers that matter, the body as a
// collapsible tree, problem details). The page address carries the operation and its parameters
// (never the key), so a call can be shared; a key the reader types lives only in sessionStorage.
const DEMO_KEY = 'DEMO_KEY';
const KEY_STORAGE = 'tai.sandbox.api-key';
const COUNT_STORAGE = 'tai.sandbox.calls';
const SHOWN_HEADERS = [
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'ETag',
  'Cache-Control',
  'X-Request-Id',
];
/** Reason phrases, for connections (HTTP/2) that do not carry one. */
const REASONS = {
  200: 'OK',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  414: 'URI Too Long',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};
/** Depth up to which the body tree opens by itself. */
const OPEN_DEPTH = 2;

const $ = (id) => document.getElementById(id);
const form = $('sandbox-form');
const endpoint = $('endpoint');
const endpointDesc = $('endpoint-desc');
const fields = $('param-fields');
const keyInput = $('api-key');
const execute = $('execute');
const requestLine = $('request-line');
const formStatus = $('form-status');
const callCount = $('call-count');
const result = $('result');

/** @type {{ operationId: string, path: string, summary: string, description: string, params: any[] }[]} */
let operations = [];
let busy = false;
/** Builds the children of a collapsed body-tree node on first opening. */
const builders = new WeakMap();

// ---- storage (sessionStorage only; it can be unavailable, e.g. with storage disabled) ----

function sessionGet(name) {
  try {
    return window.sessionStorage.getItem(name);
  } catch {
    return null;
  }
}

function sessionSet(name, value) {
  try {
    if (value === null) window.sessionStorage.removeItem(name);
    else window.sessionStorage.setItem(name, value);
  } catch {
    // Storage refused: the value simply does not outlive the page.
  }
}

function readCount() {
  const n = Number.parseInt(sessionGet(COUNT_STORAGE) ?? '0', 10);
  return Number.isFinite(n) && n >= 0 ? n : 0;
}

function countCall() {
  const n = readCount() + 1;
  sessionSet(COUNT_STORAGE, String(n));
  callCount.textContent = String(n);
}

// ---- small DOM helpers ----

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'class') node.className = value;
    else if (name === 'text') node.textContent = value;
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Text with `code` spans (as in the OpenAPI descriptions) as nodes. */
function richText(text) {
  const frag = document.createDocumentFragment();
  String(text ?? '')
    .split('`')
    .forEach((part, i) => {
      if (part) frag.append(i % 2 ? el('code', { text: part }) : document.createTextNode(part));
    });
  return frag;
}

// ---- the OpenAPI document → operations ----

function resolveRef(doc, value) {
  if (!value || typeof value.$ref !== 'string' || !value.$ref.startsWith('#/')) return value;
  return value.$ref
    .slice(2)
    .split('/')
    .reduce(
      (node, key) => (node ? node[key.replaceAll('~1', '/').replaceAll('~0', '~')] : node),
      doc,
    );
}

function readOperations(doc) {
  const ops = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    const op = item?.get;
    if (!op?.operationId) continue;
    const params = (op.parameters ?? [])
      .map((p) => resolveRef(doc, p))
      .filter((p) => p && p.in === 'query');
    ops.push({
      operationId: op.operationId,
      path,
      summary: op.summary ?? '',
      description: op.description ?? '',
      params,
    });
  }
  return ops;
}

/** The pattern as the browser's `pattern` attribute compiles it (v flag), when it can. */
function patternAttribute(pattern) {
  if (!pattern) return null;
  try {
    new RegExp(`^(?:${pattern})$`, 'v');
    return pattern;
  } catch {
    return null;
  }
}

function currentOperation() {
  return operations.find((o) => o.operationId === endpoint.value) ?? operations[0];
}

function paramControls() {
  return [...fields.querySelectorAll('[data-param]')];
}

/** The parameters that go into the request, in the order of the form; empty fields are left out. */
function currentParams() {
  return paramControls()
    .filter((c) => c.value !== '')
    .map((c) => [c.dataset.param, c.value]);
}

function requestPath() {
  const op = currentOperation();
  const query = new URLSearchParams(currentParams()).toString();
  return query ? `${op.path}?${query}` : op.path;
}

// ---- the form ----

function buildField(param, value) {
  const schema = param.schema ?? {};
  const id = `param-${param.name}`;
  const descId = `${id}-desc`;
  const msgId = `${id}-msg`;
  const label = el('label', { for: id }, el('code', { text: param.name }));
  if (param.required) label.append(el('span', { class: 'req', text: 'required' }));

  let control;
  if (Array.isArray(schema.enum)) {
    control = el('select', { id, name: param.name });
    control.append(el('option', { value: '', text: param.required ? '— choose —' : '(any)' }));
    for (const v of schema.enum) control.append(el('option', { value: v, text: v }));
    control.value = schema.enum.includes(value) ? value : '';
  } else {
    control = el('input', {
      id,
      name: param.name,
      type: 'text',
      autocomplete: 'off',
      autocapitalize: 'off',
      spellcheck: 'false',
      maxlength: schema.maxLength,
      pattern: patternAttribute(schema.pattern),
      placeholder: param.example ? `e.g. ${param.example}` : undefined,
      list: param.name === 'tfin' ? 'tfin-list' : undefined,
    });
    control.value = value ?? '';
  }
  control.dataset.param = param.name;
  control.dataset.testid = id;
  if (param.required) control.setAttribute('aria-required', 'true');
  control.setAttribute('aria-describedby', `${descId} ${msgId}`);

  const hint = el('p', { class: 'hint', id: descId }, richText(param.description));
  const rules = [];
  if (schema.pattern) rules.push(['Pattern', schema.pattern]);
  if (schema.maxLength && !schema.enum) rules.push(['Up to', `${schema.maxLength} characters`]);
  if (param.name === 'tfin') rules.push(['Suggestions', 'the registry’s TFINs as you type']);
  for (const [name, text] of rules) {
    hint.append(
      el('br'),
      `${name}: `,
      name === 'Pattern' ? el('code', { text }) : document.createTextNode(text),
    );
  }
  return el(
    'div',
    { class: 'field' },
    label,
    control,
    hint,
    el('p', { class: 'field-msg', id: msgId, 'aria-live': 'polite' }),
  );
}

/** Advisory only: the call is still made, so the reader sees the API's own answer. */
function checkField(control) {
  const param = currentOperation().params.find((p) => p.name === control.dataset.param);
  const msg = $(`${control.id}-msg`);
  if (!param || !msg) return;
  const schema = param.schema ?? {};
  const value = control.value;
  let problem = '';
  if (value === '' && param.required) problem = 'Required: the API will answer 400 without it.';
  else if (value !== '' && schema.pattern && control.tagName === 'INPUT') {
    let re;
    try {
      re = new RegExp(schema.pattern, 'u');
    } catch {
      re = null;
    }
    // The API normalises case for identifiers, so an upper-cased match counts.
    if (re && !re.test(value) && !re.test(value.trim().toUpperCase()))
      problem = 'Does not match the documented pattern; the API will refuse it.';
  }
  msg.textContent = problem;
  if (problem && control.tagName === 'INPUT') control.setAttribute('aria-invalid', 'true');
  else control.removeAttribute('aria-invalid');
}

function renderForm(values = {}) {
  const op = currentOperation();
  endpointDesc.replaceChildren(
    el('code', { class: 'endpoint-path', text: `GET ${op.path}` }),
    el('br'),
    richText(op.description),
  );
  fields.replaceChildren();
  if (op.params.length === 0) {
    fields.append(el('p', { class: 'hint', text: 'This operation takes no query parameters.' }));
  }
  // An operation that takes "exactly one of" several optional selectors (the asset lookup) starts
  // with the first one's example filled in, as a required parameter does.
  const selector =
    op.params.every((p) => !p.required) && /\bexactly one of\b/i.test(op.description)
      ? op.params.find((p) => p.example !== undefined)
      : undefined;
  const anyGiven = op.params.some((p) => values[p.name] !== undefined);
  for (const param of op.params) {
    const given = values[param.name];
    const prefill = param.required || (param === selector && !anyGiven);
    const initial = given ?? (prefill ? (param.example ?? '') : '');
    fields.append(buildField(param, initial));
  }
  for (const control of paramControls()) if (control.value !== '') checkField(control);
}

// ---- address, snippets ----

function syncAddress() {
  const query = new URLSearchParams([['op', currentOperation().operationId], ...currentParams()]);
  const url = `${window.location.pathname}?${query.toString()}`;
  if (url !== `${window.location.pathname}${window.location.search}`)
    window.history.replaceState(window.history.state, '', url);
}

function shellQuote(text) {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function renderSnippets() {
  const op = currentOperation();
  const key = keyInput.value;
  const url = `${window.location.origin}${requestPath()}`;
  const base = `${window.location.origin}${op.path}`;
  const params = currentParams();
  $('snippet-curl').textContent =
    `curl -sS -H ${shellQuote(`X-API-Key: ${key}`)} \\\n  ${shellQuote(url)}`;
  $('snippet-fetch').textContent = [
    `const response = await fetch(${JSON.stringify(url)}, {`,
    `  headers: { 'X-API-Key': ${JSON.stringify(key)} },`,
    '});',
    'const body = await response.json();',
    'console.log(response.status, body);',
  ].join('\n');
  const pyParams = params.length
    ? `    params={${params.map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(', ')}},\n`
    : '';
  $('snippet-python').textContent = [
    'import requests',
    '',
    'response = requests.get(',
    `    ${JSON.stringify(base)},`,
    `${pyParams}    headers={"X-API-Key": ${JSON.stringify(key)}},`,
    '    timeout=30,',
    ')',
    'print(response.status_code)',
    'print(response.json())',
  ].join('\n');
  requestLine.textContent = `GET ${requestPath()}`;
}

function refresh() {
  syncAddress();
  renderSnippets();
}

// ---- the quota (RateLimit / RateLimit-Policy header fields, IETF draft) ----

/** Parses `"name";a=1;b=2` (the first list member) into { name, params }. */
function parseLimitField(value) {
  if (!value) return null;
  const first = value.split(',')[0].trim();
  const parts = first.split(';').map((p) => p.trim());
  const name = parts[0].replace(/^"|"$/g, '');
  const params = {};
  for (const p of parts.slice(1)) {
    const [k, v] = p.split('=');
    if (k && v !== undefined && /^\d+$/.test(v.trim())) params[k.trim()] = Number(v.trim());
  }
  return { name, params };
}

const PER = { 60: 'minute', 3600: 'hour', 86400: 'day' };

function duration(seconds) {
  if (seconds < 90) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** Shows what is left of the key's quota, and warns before the demo quota runs out. */
function showQuota(status, headers) {
  const box = $('quota');
  const out = $('quota-status');
  if (!box || !out || !headers) return;
  const limit = parseLimitField(headers.get('RateLimit'));
  const policy = parseLimitField(headers.get('RateLimit-Policy'));
  const retryAfter = Number.parseInt(headers.get('Retry-After') ?? '', 10);
  const demo = keyInput.value === DEMO_KEY;
  const getKey = () => el('a', { href: '/#get-a-key', text: 'get a key' });
  out.replaceChildren();
  if (status === 429) {
    box.dataset.state = 'exhausted';
    const wait = Number.isFinite(retryAfter) ? retryAfter : limit?.params.t;
    out.append(
      el('strong', { text: 'Quota used up. ' }),
      wait !== undefined ? `It resets in ${duration(wait)}. ` : 'It resets when the window ends. ',
      demo
        ? 'DEMO_KEY is shared by every call from your address. To keep going now, paste your own key above, or '
        : 'Your key has made all the calls its plan allows in this window; for a larger quota, ',
      getKey(),
      '.',
    );
    return;
  }
  if (!limit || limit.params.r === undefined) {
    box.dataset.state = 'unknown';
    out.textContent = 'This answer carried no RateLimit header.';
    return;
  }
  const left = limit.params.r;
  const quota = policy?.params.q;
  const windowSeconds = policy?.params.w;
  const reset = limit.params.t;
  const low = quota !== undefined ? left <= Math.max(5, Math.ceil(quota * 0.1)) : left <= 5;
  box.dataset.state = low ? 'low' : 'ok';
  box.dataset.remaining = String(left);
  out.append(
    el('strong', { 'data-testid': 'quota-left', text: `${left}` }),
    quota !== undefined ? ` of ${quota} calls left` : ' calls left',
    windowSeconds !== undefined
      ? ` (quota per ${PER[windowSeconds] ?? duration(windowSeconds)}, `
      : ' (',
    `tier “${limit.name}”)`,
    reset !== undefined ? `; the window resets in ${duration(reset)}.` : '.',
  );
  if (low) {
    out.append(
      ' ',
      el('strong', { text: 'Running low. ' }),
      demo
        ? 'The demo quota is shared with curl and the API reference from your address; paste your own key above, or '
        : 'For a larger quota, ',
      getKey(),
      '.',
    );
  }
}

// ---- the answer ----

function jsonTree(value, key, depth) {
  const keyNode =
    key === undefined
      ? null
      : el('span', { class: 'j-key', text: typeof key === 'number' ? `${key}: ` : `"${key}": ` });
  if (value === null || typeof value !== 'object') {
    const type =
      value === null
        ? 'j-null'
        : typeof value === 'string'
          ? 'j-str'
          : typeof value === 'number'
            ? 'j-num'
            : 'j-bool';
    return el(
      'div',
      { class: 'j-leaf' },
      keyNode,
      el('span', { class: type, text: JSON.stringify(value) }),
    );
  }
  const isArray = Array.isArray(value);
  const entries = isArray ? value.map((v, i) => [i, v]) : Object.entries(value);
  const preview = isArray
    ? `[${entries.length} item${entries.length === 1 ? '' : 's'}]`
    : `{${entries.length} key${entries.length === 1 ? '' : 's'}}`;
  const details = el(
    'details',
    {},
    el('summary', {}, keyNode, el('span', { class: 'j-preview', text: preview })),
  );
  // Children are built when first opened, so large bodies render at once.
  const build = () => {
    if (details.dataset.built) return;
    details.dataset.built = 'true';
    const list = el('ul');
    for (const [k, v] of entries) list.append(el('li', {}, jsonTree(v, k, depth + 1)));
    details.append(list);
  };
  builders.set(details, build);
  details.addEventListener('toggle', () => {
    if (details.open) build();
  });
  if (depth < OPEN_DEPTH && entries.length > 0) {
    build();
    details.open = true;
  }
  return details;
}

function setAll(open) {
  const tree = $('result-tree');
  const visit = (details) => {
    if (open) builders.get(details)?.();
    details.open = open;
  };
  // Opening builds children, which may hold more <details>: repeat until nothing new appears.
  let seen = 0;
  for (let pass = 0; pass < 64; pass++) {
    const all = tree.querySelectorAll('details');
    all.forEach(visit);
    if (!open || all.length === seen) break;
    seen = all.length;
  }
}

function problemPanel(body) {
  const panel = $('result-problem');
  panel.replaceChildren();
  panel.className = 'problem';
  const title = String(body.title ?? 'Problem');
  panel.append(el('h3', { id: 'problem-title', 'data-testid': 'problem-title', text: title }));
  if (body.detail) panel.append(el('p', { id: 'problem-detail', text: String(body.detail) }));
  const facts = el('dl', { class: 'facts' });
  const add = (term, node) => facts.append(el('dt', { text: term }), el('dd', {}, node));
  if (body.status !== undefined)
    add('Status', el('span', { id: 'problem-status', text: String(body.status) }));
  if (body.code)
    add('Code', el('code', { id: 'problem-code', 'data-testid': 'problem-code', text: body.code }));
  if (typeof body.type === 'string') {
    let href = null;
    try {
      const url = new URL(body.type, window.location.origin);
      if (url.protocol === 'https:' || url.protocol === 'http:') href = url.href;
    } catch {
      href = null;
    }
    add(
      'Type',
      href
        ? el('a', { id: 'problem-type', href, text: `${body.type} (explanation)` })
        : el('code', { text: body.type }),
    );
  }
  if (body.instance) add('Instance', el('code', { text: String(body.instance) }));
  panel.append(facts);

  if (Array.isArray(body.errors) && body.errors.length) {
    const list = el('ul', { id: 'problem-errors' });
    for (const e of body.errors) {
      list.append(
        e && typeof e === 'object'
          ? el(
              'li',
              {},
              el('code', { text: String(e.parameter ?? '') }),
              ` ${String(e.message ?? '')}`,
            )
          : el('li', { text: String(e) }),
      );
    }
    panel.append(el('h4', { text: 'Errors' }), list);
  }
  if (Array.isArray(body.allowed) && body.allowed.length) {
    panel.append(
      el('h4', { text: 'Allowed' }),
      el(
        'p',
        {},
        ...body.allowed.flatMap((a, i) => [i ? ', ' : '', el('code', { text: String(a) })]),
      ),
    );
  }
  if (Array.isArray(body.suggestions) && body.suggestions.length) {
    const list = el('ul', { id: 'problem-suggestions' });
    const tfinControl = fields.querySelector('[data-param="tfin"]');
    for (const s of body.suggestions) {
      const item = el('li', {}, el('code', { text: String(s) }));
      if (tfinControl) {
        const use = el('button', {
          class: 'button small',
          type: 'button',
          text: 'Use',
          'aria-label': `Use ${String(s)}`,
        });
        use.addEventListener('click', () => {
          tfinControl.value = String(s);
          checkField(tfinControl);
          refresh();
          tfinControl.focus();
        });
        item.append(' ', use);
      }
      list.append(item);
    }
    panel.append(el('h4', { text: 'Did you mean' }), list);
  }
  panel.hidden = false;
}

function statusClass(status) {
  return `status-${String(status)[0]}`;
}

function showResult({ status, statusText, ms, headers, contentType, text, path, error }) {
  $('result-empty').hidden = true;
  $('result-content').hidden = false;
  const statusNode = $('result-status');
  statusNode.textContent = error ? 'Network error' : `${status} ${statusText}`.trim();
  statusNode.className = error ? 'status-5' : statusClass(status);
  statusNode.dataset.status = error ? '0' : String(status);
  $('result-time').textContent = `${Math.round(ms)} ms`;
  $('result-time').dataset.ms = String(Math.round(ms));
  $('result-type').textContent = contentType || 'no content type';
  $('result-request').textContent = `GET ${path}`;

  const rows = SHOWN_HEADERS.map((name) => {
    const value = headers?.get(name) ?? null;
    return el(
      'tr',
      { 'data-header': name.toLowerCase() },
      el('td', { text: name }),
      value === null ? el('td', { class: 'absent', text: 'not sent' }) : el('td', { text: value }),
    );
  });
  $('result-headers').tBodies[0].replaceChildren(...rows);

  const problem = $('result-problem');
  problem.hidden = true;
  problem.replaceChildren();
  const tree = $('result-tree');
  let body;
  let parsed = false;
  if (!error && text) {
    try {
      body = JSON.parse(text);
      parsed = true;
    } catch {
      parsed = false;
    }
  }
  $('result-raw').textContent = error
    ? String(error)
    : parsed
      ? JSON.stringify(body, null, 2)
      : text || '(empty body)';
  tree.replaceChildren(
    parsed
      ? jsonTree(body, undefined, 0)
      : el('p', { text: error ? String(error) : text || '(empty body)' }),
  );

  const isProblem =
    parsed &&
    body &&
    typeof body === 'object' &&
    (contentType.includes('problem+json') || (status >= 400 && 'title' in body));
  if (isProblem) problemPanel(body);

  const summary = error
    ? `The request failed after ${Math.round(ms)} ms: ${String(error)}`
    : `${status} ${statusText} in ${Math.round(ms)} ms${isProblem ? `: ${body.title}` : ''}.`;
  $('result-announce').textContent = summary;
  if (!error) showQuota(status, headers);
  // Stacked layout (phones): bring the answer into view if it is below the fold.
  const top = $('result-heading').getBoundingClientRect().top;
  if (top > window.innerHeight || top < 0) $('result-heading').scrollIntoView({ block: 'start' });
}

async function run() {
  if (busy || operations.length === 0) return;
  for (const control of paramControls()) checkField(control);
  refresh();
  const path = requestPath();
  const key = keyInput.value;
  busy = true;
  execute.disabled = true;
  execute.textContent = 'Executing…';
  result.setAttribute('aria-busy', 'true');
  countCall();
  const started = performance.now();
  try {
    const headers = { Accept: 'application/json, application/problem+json' };
    if (key !== '') headers['X-API-Key'] = key;
    const response = await fetch(path, {
      headers,
      cache: 'no-store',
      credentials: 'omit',
      redirect: 'error',
    });
    const text = await response.text();
    showResult({
      status: response.status,
      statusText: response.statusText || REASONS[response.status] || '',
      ms: performance.now() - started,
      headers: response.headers,
      contentType: response.headers.get('content-type') ?? '',
      text,
      path,
    });
  } catch (error) {
    showResult({
      status: 0,
      statusText: '',
      ms: performance.now() - started,
      headers: null,
      contentType: '',
      text: '',
      path,
      error: error instanceof Error ? error.message : String(error),
    });
  } finally {
    busy = false;
    execute.disabled = false;
    execute.textContent = 'Execute';
    result.setAttribute('aria-busy', 'false');
  }
}

/** After a change of key: the quota shown belonged to the previous one. */
function quotaPending() {
  const box = $('quota');
  if (!box || box.dataset.state === 'unknown') return;
  box.dataset.state = 'unknown';
  $('quota-status').textContent = 'The quota of this key appears after its first call.';
}

// ---- start ----

function restoreFromAddress() {
  const query = new URLSearchParams(window.location.search);
  const wanted = query.get('op');
  const op = operations.find((o) => o.operationId === wanted);
  if (wanted && !op)
    formStatus.textContent = `Unknown operation “${wanted}” in the address; showing the first.`;
  endpoint.value = (op ?? operations[0]).operationId;
  const values = {};
  for (const param of currentOperation().params) {
    const v = query.get(param.name);
    if (v !== null) values[param.name] = v;
  }
  renderForm(values);
}

async function start() {
  callCount.textContent = String(readCount());
  const storedKey = sessionGet(KEY_STORAGE);
  keyInput.value = storedKey ?? DEMO_KEY;

  let doc;
  try {
    const response = await fetch('/openapi.json', { headers: { Accept: 'application/json' } });
    if (!response.ok) throw new Error(`/openapi.json answered ${response.status}`);
    doc = await response.json();
  } catch (error) {
    endpoint.replaceChildren(el('option', { value: '', text: 'Operations unavailable' }));
    formStatus.textContent = `The API description could not be loaded (${error instanceof Error ? error.message : String(error)}). Reload the page to try again.`;
    return;
  }
  operations = readOperations(doc);
  endpoint.replaceChildren(
    ...operations.map((o) => el('option', { value: o.operationId, text: o.summary })),
  );
  restoreFromAddress();
  refresh();
  execute.disabled = false;
  form.dataset.ready = 'true';

  endpoint.addEventListener('change', () => {
    formStatus.textContent = '';
    renderForm();
    refresh();
  });
  fields.addEventListener('input', (event) => {
    if (event.target instanceof HTMLElement && event.target.dataset.param) checkField(event.target);
    refresh();
  });
  fields.addEventListener('change', refresh);
  keyInput.addEventListener('input', () => {
    // Only a key the reader typed is kept, and only for this tab.
    sessionSet(KEY_STORAGE, keyInput.value === DEMO_KEY ? null : keyInput.value);
    renderSnippets();
    quotaPending();
  });
  $('use-demo-key').addEventListener('click', () => {
    keyInput.value = DEMO_KEY;
    sessionSet(KEY_STORAGE, null);
    renderSnippets();
    quotaPending();
    keyInput.focus();
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void run();
  });
  form.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void run();
    }
  });
  $('expand-all').addEventListener('click', () => setAll(true));
  $('collapse-all').addEventListener('click', () => setAll(false));
}

void start();
