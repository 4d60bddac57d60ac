/** A comment as the API returns it (GET /blogs/{blogId}/comments and the write calls). */
export interface CommentUser {
  _id: string;
  name: string;
  username: string;
  profilePic: string | null;
}

export interface Comment {
  _id: string;
  comment: string;
  user: CommentUser | null;
  likeCount: number;
  isLiked: boolean;
  replyCount: number;
  parentComment: string | null;
  createdAt: string;
  updatedAt: string;
  replies: Comment[];
}

export interface CommentsPage {
  comments: Comment[];
  hasMore: boolean;
  total: number;
}
