import type { Profile } from '@inkwell/core';
import { useMutation } from '@tanstack/react-query';
import { MoreHorizontal } from 'lucide-react';
import { useCallback, useId, useRef, useState } from 'react';
import { buttonClasses } from '../../../components/ui/Button';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { LazyReportDialog } from '../../../components/ui/LazyReportDialog';
import { useDismiss } from '../../../hooks/useDismiss';
import { useMenuKeys } from '../../../hooks/useMenuKeys';
import { errorMessage } from '../../../lib/api';
import { queryClient } from '../../../lib/queryClient';
import { profileKeys } from '../../../lib/queryKeys';
import { toast } from '../../../lib/toast';
import { type Relation, setRelation } from '../api/relations';

type Action = { relation: Relation; on: boolean; label: string };
type MenuItem = Action | { relation: 'report'; label: string };

/**
 * The '⋯' menu on someone else's profile (issue 15): Block / Unblock, Mute / Unmute and Report.
 * Blocking asks first, since it also ends any follow between the two; Report opens its dialog;
 * the rest happens at once.
 */
export function ProfileMenu({ user }: { user: Profile }) {
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [reporting, setReporting] = useState(false);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const actions: MenuItem[] = [
    user.isBlocked ? { relation: 'block', on: false, label: 'Unblock' } : { relation: 'block', on: true, label: 'Block' },
    user.isMuted ? { relation: 'mute', on: false, label: 'Unmute' } : { relation: 'mute', on: true, label: 'Mute' },
    { relation: 'report', label: 'Report' },
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

  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, close, [buttonRef, menuRef], buttonRef);
  const onKeyDown = useMenuKeys(open, menuRef, close);
  const choose = (a: MenuItem) => {
    setOpen(false);
    if (a.relation === 'report') {
      // The dialog gives the focus back to what had it on open: the '⋯' button, not this item.
      buttonRef.current?.focus();
      setReporting(true);
    } else if (a.relation === 'block' && a.on) setConfirming(true);
    else change.mutate(a);
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
          tabIndex={-1}
          onKeyDown={onKeyDown}
          className="absolute right-0 z-20 mt-2 w-40 rounded-lg border border-gray-200 bg-white py-1 text-left shadow-lg dark:border-gray-700 dark:bg-gray-900"
        >
          {actions.map((a) => (
            <button key={a.label} type="button" role="menuitem" onClick={() => choose(a)} className="menu-row">
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
      <LazyReportDialog
        open={reporting}
        target={{ type: 'user', id: user._id }}
        title={`Report ${user.name}`}
        onClose={() => setReporting(false)}
      />
    </div>
  );
}
