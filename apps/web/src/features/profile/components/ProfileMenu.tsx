import type { Profile } from '@inkwell/core';
import { useMutation } from '@tanstack/react-query';
import { MoreHorizontal } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { buttonClasses } from '../../../components/ui/Button';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { errorMessage } from '../../../lib/api';
import { queryClient } from '../../../lib/queryClient';
import { profileKeys } from '../../../lib/queryKeys';
import { toast } from '../../../lib/toast';
import { type Relation, setRelation } from '../api/relations';

type Action = { relation: Relation; on: boolean; label: string };

/**
 * The '⋯' menu on someone else's profile (issue 15): Block / Unblock and Mute / Unmute. Blocking
 * asks first, since it also ends any follow between the two; the rest happens at once.
 */
export function ProfileMenu({ user }: { user: Profile }) {
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const actions: Action[] = [
    user.isBlocked ? { relation: 'block', on: false, label: 'Unblock' } : { relation: 'block', on: true, label: 'Block' },
    user.isMuted ? { relation: 'mute', on: false, label: 'Unmute' } : { relation: 'mute', on: true, label: 'Mute' },
  ];

  const change = useMutation({
    mutationFn: (a: Action) => setRelation(user._id, a.relation, a.on),
    onSuccess: (data) => {
      setConfirming(false);
      toast.success(data.message);
      // Counts (a block ends follows) and the flags of every cached view of this profile.
      void queryClient.invalidateQueries({ queryKey: profileKeys.all });
    },
    onError: (error) => toast.error(errorMessage(error, 'Could not change that. Please try again.')),
  });

  useEffect(() => {
    if (open) menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);

  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };
  const choose = (a: Action) => {
    setOpen(false);
    if (a.relation === 'block' && a.on) setConfirming(true);
    else change.mutate(a);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const index = items.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      items[(index + step + items.length) % items.length]?.focus();
    }
  };

  return (
    <div className="relative shrink-0">
      <button
        ref={buttonRef}
        type="button"
        aria-label={`More actions for ${user.name}`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((o) => !o)}
        className={buttonClasses('secondary', 'md')}
      >
        <MoreHorizontal size={18} aria-hidden="true" />
      </button>
      {open && (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label={`Actions for ${user.name}`}
          onKeyDown={onKeyDown}
          onBlur={(e) => {
            if (!e.currentTarget.contains(e.relatedTarget as Node | null) && e.relatedTarget !== buttonRef.current) setOpen(false);
          }}
          className="absolute right-0 z-20 mt-2 w-40 rounded-lg border border-gray-200 bg-white py-1 text-left shadow-lg dark:border-gray-700 dark:bg-gray-900"
        >
          {actions.map((a) => (
            <button
              key={a.label}
              type="button"
              role="menuitem"
              tabIndex={-1}
              onClick={() => choose(a)}
              className="block w-full px-4 py-2 text-left text-sm text-gray-800 hover:bg-gray-100 focus:bg-gray-100 focus:outline-none dark:text-gray-200 dark:hover:bg-gray-800 dark:focus:bg-gray-800"
            >
              {a.label}
            </button>
          ))}
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        texts={{
          title: `Block ${user.name}?`,
          message: `${user.name} will no longer be able to follow you, comment on or reply to your posts, like your comments or notify you. Any follow between you is removed. They are not told.`,
          confirm: 'Block',
          busy: 'Blocking...',
        }}
        busy={change.isPending}
        onConfirm={() => change.mutate({ relation: 'block', on: true, label: 'Block' })}
        onClose={() => setConfirming(false)}
      />
    </div>
  );
}
