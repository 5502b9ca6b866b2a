// Copy buttons: <button data-copy="ID"> copies the text of the element with that id. The result is
// announced in the nearest [data-copy-status] live region (or the first one on the page).

/** Copies text to the clipboard; falls back to a hidden textarea where the API is unavailable. */
export async function copyText(text) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Permission refused or unavailable: use the fallback below.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'visually-hidden';
  document.body.append(area);
  area.select();
  let ok;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

function statusFor(button) {
  const scope = button.closest('[data-copy-scope]') ?? document;
  return scope.querySelector('[data-copy-status]') ?? document.querySelector('[data-copy-status]');
}

/** Announces a message in the copy status region next to the button. */
export function announceCopy(button, message) {
  const status = statusFor(button);
  if (status) status.textContent = message;
}

document.addEventListener('click', async (event) => {
  const target = event.target instanceof Element ? event.target : null;
  const button = target?.closest('button[data-copy]');
  if (!button) return;
  const source = document.getElementById(button.dataset.copy ?? '');
  if (!source) return;
  const label = button.dataset.copyLabel ?? button.getAttribute('aria-label') ?? 'text';
  const ok = await copyText(source.textContent ?? '');
  announceCopy(
    button,
    ok ? `Copied ${label} to the clipboard.` : 'Copying failed: select the text and copy it.',
  );
});
