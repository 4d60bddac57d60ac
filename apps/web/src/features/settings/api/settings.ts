import { apiRequest } from '../../../lib/api';

export interface VisibilityResponse {
  success: true;
  message: string;
  showLikedBlogs: boolean;
  showSavedBlogs: boolean;
}

/** PATCH /change-saved-liked-blog-visibility {showLikedBlogs, showSavedBlogs}. */
export function changeVisibility(body: { showLikedBlogs: boolean; showSavedBlogs: boolean }) {
  return apiRequest<VisibilityResponse>('/change-saved-liked-blog-visibility', { method: 'PATCH', body });
}
