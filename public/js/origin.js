// Examples are prerendered with a placeholder origin; show the origin the reader is actually on.
for (const el of document.querySelectorAll('[data-origin-text]')) {
  const placeholder = el.getAttribute('data-origin-text');
  if (placeholder && el.textContent) {
    el.textContent = el.textContent.replaceAll(placeholder, window.location.origin);
  }
}
