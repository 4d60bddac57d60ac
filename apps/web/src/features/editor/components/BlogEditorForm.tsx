import {
  BLOG_MESSAGES,
  type Blog,
  MAX_DESCRIPTION_LENGTH,
  MAX_TITLE_LENGTH,
  normalizeText,
  type PendingAutosaveResponse,
  scheduledFor,
} from '@inkwell/core';
import type { MarkdownPost } from '@inkwell/core/markdown';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { type BlogWriteInput, saveBlog } from '../api';
import { AutosaveBar } from '../autosave/AutosaveBar';
import type { AutosaveFields } from '../autosave/api';
import { editorStart } from '../autosave/editorStart';
import { useAutosave } from '../autosave/useAutosave';
import { BlockEditor, type BlockEditorHandle } from '../BlockEditor';
import { sendableText } from '../content';
import { contentLimitProblem, PUBLISH_MESSAGES, publishProblems } from '../limits';
import { type FeaturedImage, FeaturedImageField } from './FeaturedImageField';
import { MarkdownTools } from './MarkdownTools';
import { PublishToggle } from './PublishToggle';
import { ScheduleControl } from './ScheduleDialog';
import { SeriesField } from './SeriesField';
import { TagsInput } from './TagsInput';

/** The submit button's text (SPEC.md 2, "Blog editor"). */
export function submitLabel(editing: boolean, draft: boolean, busy: boolean, scheduled = false): string {
  if (busy) return 'Processing...';
  if (scheduled) return 'Schedule Blog';
  if (editing) return draft ? 'Update Draft' : 'Update Blog';
  return draft ? 'Save as Draft' : 'Publish Blog';
}

const inputClasses =
  'w-full rounded-lg border bg-white px-3 py-2.5 text-gray-900 placeholder-gray-400 outline-none transition focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 disabled:opacity-70 dark:bg-gray-800 dark:text-gray-100 dark:placeholder-gray-500';
const labelClasses = 'mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300';
const cardClasses = 'rounded-2xl border border-gray-200 bg-white shadow-sm dark:border-gray-800 dark:bg-gray-900';

/** Enter in a single-line field moves on instead of submitting the whole form. */
function nextFieldOnEnter(event: KeyboardEvent<HTMLInputElement>, nextId: string) {
  if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
  event.preventDefault();
  document.getElementById(nextId)?.focus();
}

interface BlogEditorFormProps {
  /** The blog being edited; absent when creating. */
  blog?: Blog;
  /** The author's pending autosave of the blog and the version to save against. */
  pending?: PendingAutosaveResponse | null;
}

/** The one form of /add-blog and /edit/{id}. */
export function BlogEditorForm({ blog, pending }: BlogEditorFormProps) {
  const editing = Boolean(blog);
  const id = useId();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const editorRef = useRef<BlockEditorHandle | null>(null);
  // The editor is only shown signed in; the id keys this user's copies in localStorage.
  const userId = useSession((s) => s.user.id) ?? 'anonymous';
  // Read once: the newest of the post, its pending autosave and this browser's unsent copy.
  const [start] = useState(() => editorStart(userId, blog, pending));

  const [title, setTitle] = useState(start.title);
  const [titleError, setTitleError] = useState<string | null>(null);
  const [description, setDescription] = useState(start.description);
  /** What stops the post from being saved as it is: publishing rules and content limits. */
  const [problems, setProblems] = useState<string[]>([]);
  const descriptionMissing = problems.includes(PUBLISH_MESSAGES.needsDescription);
  const [tags, setTags] = useState<string[]>(start.tags);
  const startImage = start.image === undefined ? blog?.image : start.image;
  const [image, setImage] = useState<FeaturedImage>(startImage ? { kind: 'saved', url: startImage } : { kind: 'none' });
  const [draft, setDraft] = useState(blog?.draft ?? false);
  /** When the server publishes this draft by itself (UTC ISO); a scheduled post is a draft until then. */
  const [scheduledAt, setScheduledAt] = useState<string | null>(blog?.scheduledAt ?? null);
  const [submitting, setSubmitting] = useState(false);

  const mutation = useMutation({ mutationFn: ({ input, blogId }: { input: BlogWriteInput; blogId?: string }) => saveBlog(input, blogId) });
  const busy = submitting || mutation.isPending;

  /** A Markdown import replaces the blocks and fills what the file's front matter says. */
  const applyImport = async (post: MarkdownPost) => {
    await editorRef.current?.render(post.content);
    if (post.title) setTitle(sendableText(post.title));
    if (post.title) setTitleError(null);
    if (post.description) setDescription(sendableText(post.description));
    if (post.tags.length) setTags(post.tags);
    if (post.coverImage) setImage({ kind: 'saved', url: post.coverImage });
    if (post.draft !== null) setDraft(post.draft);
    setProblems([]);
  };

  // Autosave reads the latest fields through a ref (its timers outlive renders).
  const latest = useRef({ title, description, tags, image });
  latest.current = { title, description, tags, image };
  // React empties editorRef when the editor unmounts, before the last autosave reads it (leaving
  // through an in-app link); the handle kept here still answers with what the editor last held.
  const lastEditor = useRef<BlockEditorHandle | null>(null);
  const keepEditor = useCallback((handle: BlockEditorHandle | null) => {
    editorRef.current = handle;
    if (handle) lastEditor.current = handle;
  }, []);
  const read = async (): Promise<AutosaveFields | null> => {
    const content = await (editorRef.current ?? lastEditor.current)?.save().catch(() => null);
    if (!content) return null;
    const { image: img, ...fields } = latest.current;
    return { ...fields, content, image: img.kind === 'saved' ? img.url : img.kind === 'none' ? null : undefined };
  };
  const autosave = useAutosave({
    userId,
    blogId: blog?.blogId,
    version: start.version,
    read,
    unsent: start.unsent,
    serverHas:
      start.content && !start.unsent
        ? { title: start.title, description: start.description, tags: start.tags, content: start.content, image: startImage ?? null }
        : undefined,
    // A new post's address comes from its title: create it once the writer has left the title field.
    canCreate: () => document.activeElement?.id !== `${id}-title`,
  });
  const firstRender = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a change of any field is a change to save
  useEffect(() => {
    if (firstRender.current) firstRender.current = false;
    else autosave.changed();
  }, [title, description, tags, image]);

  const goBack = () => {
    if (location.key !== 'default') navigate(-1);
    else navigate(blog ? `/blog/${encodeURIComponent(blog.blogId)}` : '/');
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const cleanTitle = normalizeText(title);
    if (!cleanTitle) {
      setTitleError(BLOG_MESSAGES.titleRequired);
      document.getElementById(`${id}-title`)?.focus();
      return;
    }
    const editor = editorRef.current;
    if (!editor) return;
    setSubmitting(true);

    let content: BlogWriteInput['content'];
    try {
      // A click right after the page shows its text waits for the editor instead of failing.
      await editor.ready();
      content = await editor.save();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'The content could not be read');
      setSubmitting(false);
      return;
    }
    const found = [
      // A scheduled post is published unattended: it must be publishable now.
      ...(draft && !scheduledAt ? [] : publishProblems({ description, blocks: content.blocks })),
      ...[contentLimitProblem(content)].filter((p): p is string => p !== null),
    ];
    setProblems(found);
    if (found.length) {
      setSubmitting(false);
      // After the re-render that enables the fields again.
      if (found.includes(PUBLISH_MESSAGES.needsDescription)) {
        requestAnimationFrame(() => document.getElementById(`${id}-description`)?.focus());
      }
      return;
    }
    // Read-only while the request runs: nothing can change (or be saved) half-way.
    await editor.setReadOnly(true);
    // An autosave in flight finishes first: it may have created the draft this submit updates.
    const saved = await autosave.settle();

    let featured: File | string | null | undefined;
    if (image.kind === 'file') featured = image.file;
    else if (image.kind === 'none' && (blog?.image || start.image)) featured = null;
    else if (image.kind === 'saved' && image.url !== blog?.image) featured = image.url;

    mutation.mutate(
      {
        input: {
          title: cleanTitle,
          description: description.trim(),
          tags,
          content,
          draft,
          image: featured,
          version: saved.version,
          scheduledAt: draft ? scheduledAt : undefined,
        },
        blogId: saved.blogId,
      },
      {
        onSuccess: (result) => {
          autosave.finish();
          // A new post that autosave had already made a draft is still "created" for its author.
          if (result.blog.scheduledAt) toast.success(scheduledFor(result.blog.scheduledAt));
          else toast.success(blog ? result.message : draft ? BLOG_MESSAGES.createdDraft : BLOG_MESSAGES.created);
          void queryClient.invalidateQueries({ queryKey: ['blogs'] });
          void queryClient.invalidateQueries({ queryKey: ['blog', result.blog.blogId] });
          if (blog && blog.blogId !== result.blog.blogId) void queryClient.invalidateQueries({ queryKey: ['blog', blog.blogId] });
          // Profile tabs and counts (features/profile keys start with ['profile']).
          void queryClient.invalidateQueries({ queryKey: ['profile'] });
          navigate('/');
        },
        onError: (error) => {
          autosave.resume();
          if (error instanceof ApiError && error.status === 409) autosave.conflict(error.message);
          else toast.error(errorMessage(error));
          setSubmitting(false);
          void editorRef.current?.setReadOnly(false);
        },
      },
    );
  };

  return (
    <section className="mx-auto w-full max-w-4xl px-4 py-6 sm:py-10">
      <button
        type="button"
        onClick={goBack}
        className="-ml-2 inline-flex items-center gap-1.5 rounded-lg px-2 py-1.5 text-sm font-medium text-gray-600 transition hover:bg-gray-100 hover:text-gray-900 dark:text-gray-300 dark:hover:bg-gray-800 dark:hover:text-white"
      >
        <ArrowLeft size={18} aria-hidden="true" />
        Back
      </button>
      <h1 className="mt-3 text-2xl font-bold text-gray-900 sm:text-3xl dark:text-gray-100">
        {editing ? 'Edit Blog Post' : 'Create New Blog Post'}
      </h1>
      <div className="mt-4">
        <MarkdownTools blogId={blog?.blogId} disabled={busy} onImport={applyImport} />
      </div>
      <AutosaveBar
        autosave={autosave}
        restoredFrom={start.restoredFrom}
        // History compares with the editor's text: opened while the editor loads, it waits for it.
        read={async () => {
          await editorRef.current?.ready();
          return read();
        }}
        disabled={busy}
      />

      {/* The block editor stays outside the <form>: Enter in its own inputs (link, toolbox filter)
          must never submit the blog. The submit button joins the form through its form attribute. */}
      <form id={`${id}-form`} onSubmit={onSubmit} noValidate aria-busy={busy || undefined} className="mt-6">
        <div className={`${cardClasses} space-y-5 p-4 sm:p-6`}>
          <div>
            <label htmlFor={`${id}-title`} className={labelClasses}>
              Title
            </label>
            <input
              id={`${id}-title`}
              type="text"
              value={title}
              maxLength={MAX_TITLE_LENGTH}
              disabled={busy}
              required
              aria-required="true"
              aria-invalid={titleError ? true : undefined}
              aria-describedby={titleError ? `${id}-title-error` : undefined}
              placeholder="Give your post a clear title"
              onChange={(event) => {
                setTitle(sendableText(event.target.value));
                if (titleError) setTitleError(null);
              }}
              onKeyDown={(event) => nextFieldOnEnter(event, `${id}-description`)}
              className={`${inputClasses} text-lg font-semibold ${titleError ? 'border-red-500 dark:border-red-500' : 'border-gray-300 dark:border-gray-700'}`}
            />
            {titleError && (
              <p id={`${id}-title-error`} role="alert" className="mt-1 text-xs text-red-600 dark:text-red-400">
                {titleError}
              </p>
            )}
          </div>

          <FeaturedImageField value={image} onChange={setImage} disabled={busy} />

          <div>
            <label htmlFor={`${id}-description`} className={labelClasses}>
              Description
            </label>
            <textarea
              id={`${id}-description`}
              value={description}
              rows={3}
              maxLength={MAX_DESCRIPTION_LENGTH}
              disabled={busy}
              placeholder="A short summary shown on blog cards"
              aria-invalid={descriptionMissing ? true : undefined}
              aria-describedby={`${id}-description-count${descriptionMissing ? ` ${id}-description-error` : ''}`}
              onChange={(event) => {
                setDescription(sendableText(event.target.value));
                if (descriptionMissing) setProblems((list) => list.filter((p) => p !== PUBLISH_MESSAGES.needsDescription));
              }}
              className={`${inputClasses} resize-y ${descriptionMissing ? 'border-red-500 dark:border-red-500' : 'border-gray-300 dark:border-gray-700'}`}
            />
            {descriptionMissing && (
              <p id={`${id}-description-error`} className="mt-1 text-xs text-red-600 dark:text-red-400">
                {PUBLISH_MESSAGES.needsDescription}
              </p>
            )}
            <p id={`${id}-description-count`} className="mt-1 text-right text-xs text-gray-500 dark:text-gray-400">
              {description.length}/{MAX_DESCRIPTION_LENGTH}
            </p>
          </div>

          <TagsInput tags={tags} onChange={setTags} disabled={busy} />
        </div>
      </form>

      {blog && (
        <div className={`${cardClasses} mt-6 p-4 sm:p-6`}>
          <SeriesField blogId={blog.blogId} />
        </div>
      )}

      <div className={`${cardClasses} mt-6`}>
        <div className="border-b border-gray-200 px-4 py-3 sm:px-6 dark:border-gray-800">
          <h2 id={`${id}-content`} className="text-sm font-medium text-gray-700 dark:text-gray-300">
            Content
          </h2>
          <p className="text-xs text-gray-500 dark:text-gray-400">
            Type <kbd className="rounded border border-gray-300 px-1 font-mono dark:border-gray-600">/</kbd> in an empty line to add a
            heading, list, image, code, quote, table or embed.
          </p>
        </div>
        <div className="px-3 py-4 sm:px-6">
          <BlockEditor ref={keepEditor} initialContent={start.content} labelledBy={`${id}-content`} onChange={autosave.changed} />
        </div>
      </div>

      <div className={`${cardClasses} mt-6 flex flex-col gap-4 p-4 sm:flex-row sm:items-end sm:justify-between sm:p-6`}>
        <div className="sm:w-80">
          <PublishToggle
            draft={draft}
            onChange={(value) => {
              setDraft(value);
              // Publishing now replaces a schedule.
              if (!value) setScheduledAt(null);
              setProblems([]);
            }}
            disabled={busy}
          />
        </div>
        <ScheduleControl
          live={Boolean(blog && !blog.draft)}
          scheduledAt={scheduledAt}
          onChange={(at) => {
            setScheduledAt(at);
            if (at) setDraft(true);
            setProblems([]);
          }}
          disabled={busy}
        />
        {problems.length > 0 && (
          <div
            role="alert"
            aria-labelledby={`${id}-problems`}
            className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 sm:flex-1 dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-200"
          >
            <p id={`${id}-problems`} className="font-medium">
              {draft && !scheduledAt ? 'This draft cannot be saved yet:' : 'Before publishing:'}
            </p>
            <ul className="mt-1 list-disc space-y-0.5 pl-5">
              {problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          </div>
        )}
        <button
          type="submit"
          form={`${id}-form`}
          disabled={busy}
          className="inline-flex items-center justify-center rounded-lg bg-indigo-600 px-6 py-2.5 font-semibold text-white transition hover:bg-indigo-700 disabled:cursor-not-allowed disabled:opacity-60 dark:bg-indigo-500 dark:hover:bg-indigo-600"
        >
          {submitLabel(editing, draft, busy, !!scheduledAt)}
        </button>
      </div>
    </section>
  );
}
