/**
 * A toast without sonner, for when its chunk cannot be loaded (the browser went offline before
 * fetching it): "You are offline" must still be seen. A plain line at the top of the page, read
 * out by screen readers, gone after 6 s or on a click.
 */
export function showPlainToast(kind: 'success' | 'error' | 'info' | 'message', message: string): void {
  let region = document.getElementById('plain-toasts');
  const created = !region;
  if (!region) {
    // A live region already in the page when the message comes, so screen readers announce it.
    region = document.createElement('div');
    region.id = 'plain-toasts';
    region.setAttribute('aria-live', 'polite');
    region.className = 'pointer-events-none fixed inset-x-0 top-[72px] z-[1000] flex flex-col items-center gap-2 px-4 sm:top-[76px]';
    document.body.append(region);
  }
  if ([...region.children].some((shown) => shown.textContent === message)) return;
  const item = document.createElement('div');
  item.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  item.className =
    kind === 'error'
      ? 'pointer-events-auto max-w-sm rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800 shadow-lg dark:border-red-900 dark:bg-red-950 dark:text-red-200'
      : 'pointer-events-auto max-w-sm rounded-lg border border-gray-200 bg-white px-4 py-3 text-sm text-gray-900 shadow-lg dark:border-gray-700 dark:bg-gray-900 dark:text-gray-100';
  item.textContent = message;
  const remove = () => item.remove();
  item.addEventListener('click', remove);
  window.setTimeout(remove, 6000);
  const target = region;
  if (created) window.setTimeout(() => target.append(item), 100);
  else target.append(item);
}
