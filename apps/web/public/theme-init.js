/* Applies the saved theme before first paint (no inline scripts under the CSP). Mirrors src/lib/theme.ts. */
(() => {
  let dark = false;
  try {
    const saved = localStorage.getItem('theme');
    dark = saved === 'dark' || ((!saved || saved === 'system') && window.matchMedia('(prefers-color-scheme: dark)').matches);
  } catch {
    /* storage unavailable: keep the light default */
  }
  if (dark) document.documentElement.classList.add('dark');
})();
