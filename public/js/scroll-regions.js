// Boxes that scroll sideways on their own (wide tables on a phone, long code lines) can be scrolled
// from the keyboard: each one that overflows gets tabindex="0" and a name (from its aria-label,
// else the nearest heading before it). Boxes that fit are left out of the tab order. Runs on every
// page (src/layouts/Page.astro) and again when the window is resized.
const SELECTOR = 'main .table-scroll, main pre, main table';

function nameFor(box) {
  let node = box;
  while (node && node !== document.body) {
    let prev = node.previousElementSibling;
    while (prev) {
      if (/^H[1-6]$/.test(prev.tagName)) return prev.textContent.trim();
      prev = prev.previousElementSibling;
    }
    node = node.parentElement;
  }
  return 'Scrollable content';
}

function mark() {
  for (const box of document.querySelectorAll(SELECTOR)) {
    if (box.closest('.scalar-app, #app')) continue;
    const scrolls =
      box.scrollWidth > box.clientWidth + 1 && getComputedStyle(box).overflowX !== 'visible';
    if (box.dataset.scrollRegion === 'auto' && !scrolls) {
      box.removeAttribute('tabindex');
      box.removeAttribute('role');
      box.removeAttribute('aria-label');
      delete box.dataset.scrollRegion;
    } else if (scrolls && !box.hasAttribute('tabindex')) {
      box.setAttribute('tabindex', '0');
      if (box.tagName !== 'TABLE' && box.tagName !== 'PRE') {
        box.setAttribute('role', 'region');
        if (!box.hasAttribute('aria-label')) box.setAttribute('aria-label', nameFor(box));
      }
      box.dataset.scrollRegion = 'auto';
    }
  }
}

mark();
let pending = 0;
window.addEventListener('resize', () => {
  cancelAnimationFrame(pending);
  pending = requestAnimationFrame(mark);
});
