import { type KeyboardEvent, type RefObject, useEffect } from 'react';

const ITEM = '[role="menuitem"]:not([disabled])';

function items(menu: HTMLElement | null): HTMLElement[] {
  return menu ? [...menu.querySelectorAll<HTMLElement>(ITEM)] : [];
}

/**
 * Keyboard model of an ARIA menu: the first item gets focus on open; ArrowUp/ArrowDown move
 * (wrapping), Home/End jump, Tab closes. Escape and outside clicks are handled by useDismiss.
 */
export function useMenuKeys(open: boolean, menuRef: RefObject<HTMLElement | null>, onClose: () => void) {
  useEffect(() => {
    if (open) items(menuRef.current)[0]?.focus();
  }, [open, menuRef]);

  return (event: KeyboardEvent<HTMLElement>) => {
    const list = items(menuRef.current);
    const index = list.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => {
      event.preventDefault();
      list[(to + list.length) % list.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(index + 1);
    else if (event.key === 'ArrowUp') move(index - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(list.length - 1);
    else if (event.key === 'Tab') onClose();
  };
}
