import type { RelationResponse } from '@inkwell/core';
import { apiRequest } from '../../../lib/api';

export type Relation = 'block' | 'mute';

/** POST (on) or DELETE (off) /users/{id}/block|mute → the viewer's flags afterwards. */
export function setRelation(userId: string, relation: Relation, on: boolean) {
  return apiRequest<RelationResponse>(`/users/${encodeURIComponent(userId)}/${relation}`, { method: on ? 'POST' : 'DELETE' });
}
