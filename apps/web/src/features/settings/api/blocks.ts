import type { BlockListResponse, RelationResponse } from '@inkwell/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';

export type BlockKind = 'blocked' | 'muted';
export const BLOCKS_PAGE_SIZE = 20;
export const blocksKey = (kind: BlockKind) => ['blocks', kind] as const;

/** GET /blocks?kind=&page=&limit= → the users I blocked or muted, newest first. */
export function useBlocks(kind: BlockKind) {
  return useInfiniteQuery({
    queryKey: blocksKey(kind),
    queryFn: ({ pageParam, signal }) =>
      apiRequest<BlockListResponse>('/blocks', { query: { kind, page: pageParam, limit: BLOCKS_PAGE_SIZE }, signal }),
    initialPageParam: 1,
    getNextPageParam: (last, _pages, lastPage) => (last.hasMore ? lastPage + 1 : undefined),
  });
}

/** DELETE /users/{id}/block|mute: the Undo of the Settings list. */
export function undoRelation(userId: string, kind: BlockKind) {
  return apiRequest<RelationResponse>(`/users/${encodeURIComponent(userId)}/${kind === 'blocked' ? 'block' : 'mute'}`, {
    method: 'DELETE',
  });
}
