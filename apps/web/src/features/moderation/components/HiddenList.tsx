import { type HiddenItem, type HiddenListKind, type HiddenListResponse, relativeTime } from '@inkwell/core';
import type { InfiniteData } from '@tanstack/react-query';
import { EyeOff } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/Button';
import { LocalTime } from '../../../components/ui/LocalTime';
import { queryClient } from '../../../lib/queryClient';
import { type ModeratorCall, moderationKeys, useHiddenList } from '../api/moderation';
import { HIDDEN_KINDS, hiddenByText, hiddenItemView, MODERATION_TEXTS, targetKind } from '../texts';
import { CallDialog } from './CallDialog';
import { ListState, LoadMore } from './ListState';

const KIND_OF = { post: 'post', comment: 'comment', user: 'user' } as const;

/** Drops an item from the cached pages of its list at once (the refetch that follows agrees). */
function dropItem(kind: HiddenListKind, key: string) {
  queryClient.setQueryData<InfiniteData<HiddenListResponse>>(moderationKeys.hidden(kind), (data) =>
    data
      ? { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.filter((i) => hiddenItemView(i).key !== key) })) }
      : data,
  );
}

/** Posts / Comments / Users: radio buttons drawn as one segmented control (arrow keys move between them). */
function KindChoice({ kind, onChange }: { kind: HiddenListKind; onChange: (kind: HiddenListKind) => void }) {
  const name = useId();
  return (
    <fieldset className="min-w-0">
      <legend className="sr-only">{MODERATION_TEXTS.hiddenKindLabel}</legend>
      <div className="inline-flex max-w-full rounded-lg border border-gray-300 bg-white p-0.5 dark:border-gray-700 dark:bg-gray-900">
        {HIDDEN_KINDS.map((k) => (
          <label key={k.value} className="relative cursor-pointer">
            <input
              type="radio"
              name={name}
              value={k.value}
              checked={kind === k.value}
              onChange={() => onChange(k.value)}
              className="peer sr-only"
            />
            <span className="block rounded-md px-3 py-1.5 text-sm font-medium text-gray-700 transition-colors peer-checked:bg-indigo-600 peer-checked:text-white peer-focus-visible:ring-2 peer-focus-visible:ring-indigo-500 peer-focus-visible:ring-offset-2 hover:bg-gray-100 peer-checked:hover:bg-indigo-600 sm:px-4 dark:text-gray-300 dark:peer-checked:bg-indigo-500 dark:peer-focus-visible:ring-offset-gray-900 dark:hover:bg-gray-800 dark:peer-checked:hover:bg-indigo-500">
              {k.label}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function HiddenRow({ item, onAct }: { item: HiddenItem; onAct: (item: HiddenItem, call: ModeratorCall) => void }) {
  const view = hiddenItemView(item);
  const kind = targetKind(KIND_OF[item.kind]);
  return (
    <li className="flex flex-col gap-3 px-4 py-3 sm:flex-row sm:items-start">
      <div className="min-w-0 flex-1 text-sm">
        <p className="font-semibold wrap-anywhere text-gray-900 dark:text-gray-100">
          <span className="sr-only">{kind}: </span>
          {view.href ? (
            <Link to={view.href} className="hover:text-indigo-600 hover:underline dark:hover:text-indigo-400">
              {view.subject.title}
            </Link>
          ) : (
            view.subject.title
          )}
        </p>
        {view.author ? (
          <p className="mt-0.5 wrap-anywhere text-gray-600 dark:text-gray-400">
            by{' '}
            <Link to={`/@${view.author.username}`} className="font-medium text-gray-800 hover:underline dark:text-gray-200">
              {view.author.name}
            </Link>{' '}
            @{view.author.username}
            {view.on && (
              <>
                {' '}
                on{' '}
                {view.on.href ? (
                  <Link to={view.on.href} className="font-medium text-gray-800 hover:underline dark:text-gray-200">
                    {view.on.title}
                  </Link>
                ) : (
                  view.on.title
                )}
              </>
            )}
          </p>
        ) : (
          item.kind === 'user' && <p className="mt-0.5 wrap-anywhere text-gray-600 dark:text-gray-400">@{item.user.username}</p>
        )}
        <p className="mt-1 wrap-anywhere text-gray-600 dark:text-gray-400">
          {hiddenByText(item)}
          {' · '}
          <LocalTime date={item.action.at}>{relativeTime(item.action.at)}</LocalTime>
        </p>
        {item.action.reason && (
          <p className="mt-1 whitespace-pre-wrap wrap-anywhere text-gray-800 dark:text-gray-200">“{item.action.reason}”</p>
        )}
      </div>
      <Button
        size="sm"
        variant="secondary"
        className="self-start"
        aria-haspopup="dialog"
        aria-label={`${view.action.label} ${item.kind === 'user' ? view.subject.title : `${kind.toLowerCase()} “${view.subject.title}”`}`}
        onClick={() => onAct(item, view.action.call)}
      >
        {view.action.label}
      </Button>
    </li>
  );
}

/**
 * The 'Hidden and suspended' tab: posts and comments a moderator hid, and suspended users, newest
 * first, each with Restore or Unsuspend (the reason dialog of the queue), so that a hide outlives
 * its report without becoming a command-line job.
 */
export function HiddenList({ kind, onKindChange }: { kind: HiddenListKind; onKindChange: (kind: HiddenListKind) => void }) {
  const list = useHiddenList(kind, true);
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const [acting, setActing] = useState<{ item: HiddenItem; call: ModeratorCall } | null>(null);
  const listRef = useRef<HTMLElement>(null);
  const removed = useRef(false);
  const words = HIDDEN_KINDS.find((k) => k.value === kind)!;

  // The restored item leaves with the button that had the focus: the focus goes to the list.
  useEffect(() => {
    if (!removed.current) return;
    removed.current = false;
    if (!document.activeElement || document.activeElement === document.body) listRef.current?.focus();
  });

  return (
    <div className="space-y-4">
      <KindChoice kind={kind} onChange={onKindChange} />
      <section ref={listRef} tabIndex={-1} aria-label={`${MODERATION_TEXTS.hiddenTab}: ${words.label}`} className="outline-none">
        <ListState
          query={list}
          count={items.length}
          loadingLabel={words.loading}
          failed={MODERATION_TEXTS.hiddenFailed}
          empty={words.empty}
          emptyIcon={<EyeOff size={32} aria-hidden="true" className="text-gray-400" />}
        >
          <ul
            aria-label={`${MODERATION_TEXTS.hiddenTab}: ${words.label}`}
            className="divide-y divide-gray-100 overflow-hidden rounded-xl border border-gray-200 bg-white dark:divide-gray-800 dark:border-gray-800 dark:bg-gray-900"
          >
            {items.map((item) => (
              <HiddenRow key={hiddenItemView(item).key} item={item} onAct={(i, call) => setActing({ item: i, call })} />
            ))}
          </ul>
          <LoadMore query={list} />
        </ListState>
      </section>
      {acting && (
        <CallDialog
          call={acting.call}
          subject={hiddenItemView(acting.item).subject}
          onClose={() => setActing(null)}
          onDone={() => {
            removed.current = true;
            dropItem(kind, hiddenItemView(acting.item).key);
          }}
        />
      )}
    </div>
  );
}
