import { MAX_BIO_LENGTH, MAX_NAME_LENGTH, MAX_USERNAME_LENGTH } from '@inkwell/core';
import { useMutation } from '@tanstack/react-query';
import { Camera, Trash2 } from 'lucide-react';
import { type ChangeEvent, type FormEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Avatar } from '../../../components/ui/Avatar';
import { Button, buttonClasses } from '../../../components/ui/Button';
import { Field, inputClasses } from '../../../components/ui/Field';
import { useFocusLater } from '../../../hooks/useFocusLater';
import { errorMessage } from '../../../lib/api';
import { queryClient } from '../../../lib/queryClient';
import { profileKeys } from '../../../lib/queryKeys';
import { useSession } from '../../../lib/session';
import { readTabDraft, writeTabDraft } from '../../../lib/tabDrafts';
import { toast } from '../../../lib/toast';
import { updateProfile } from '../api/profile';

export const UPDATE_FAILED = 'Failed to update profile';

type Picture = { kind: 'keep' } | { kind: 'file'; file: File; preview: string } | { kind: 'remove' };
type TextFields = { name: string; username: string; bio: string };
const DRAFT_KEY = 'profile';

/** The fields as typed and not yet saved, kept in the tab (lib/tabDrafts): a session ending under the form keeps them. */
function readProfileDraft(saved: TextFields): TextFields {
  try {
    const draft = JSON.parse(readTabDraft(DRAFT_KEY) || 'null') as Partial<TextFields> | null;
    if (!draft || typeof draft !== 'object') return saved;
    const text = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback);
    return { name: text(draft.name, saved.name), username: text(draft.username, saved.username), bio: text(draft.bio, saved.bio) };
  } catch {
    return saved;
  }
}

/**
 * Edit profile (SPEC.md 2, 5): picture (upload, change, remove; any image type), name, username
 * with the profile URL preview, bio up to 160 with a counter. Saves only what changed; the session is
 * refreshed from the answer and the person goes to their profile.
 */
export function EditProfileForm() {
  const user = useSession((s) => s.user);
  const login = useSession((s) => s.login);
  const navigate = useNavigate();
  const fileRef = useRef<HTMLInputElement>(null);
  const ids = useId();
  const [typed] = useState(() => readProfileDraft({ name: user.name ?? '', username: user.username ?? '', bio: user.bio ?? '' }));
  const [name, setName] = useState(typed.name);
  const [username, setUsername] = useState(typed.username);
  const [bio, setBio] = useState(typed.bio);
  const [picture, setPicture] = useState<Picture>({ kind: 'keep' });

  useEffect(() => {
    if (picture.kind !== 'file') return;
    return () => URL.revokeObjectURL(picture.preview);
  }, [picture]);

  const cleanUsername = username.trim().toLowerCase();
  const changes = useMemo(() => {
    const out: { name?: string; username?: string; bio?: string } = {};
    if (name.trim() !== (user.name ?? '')) out.name = name.trim();
    if (cleanUsername !== (user.username ?? '')) out.username = cleanUsername;
    if (bio.trim() !== (user.bio ?? '').trim()) out.bio = bio.trim();
    return out;
  }, [name, cleanUsername, bio, user.name, user.username, user.bio]);
  const changed = Object.keys(changes).length > 0 || picture.kind !== 'keep';
  const textChanged = Object.keys(changes).length > 0;

  // A picture is not kept (a file cannot be stored in the tab); the texts are, until saved or cancelled.
  useEffect(() => {
    writeTabDraft(DRAFT_KEY, textChanged ? JSON.stringify({ name, username, bio }) : '');
  }, [textChanged, name, username, bio]);

  const focusLater = useFocusLater();
  const submitRef = useRef<HTMLButtonElement>(null);
  const save = useMutation({
    mutationFn: () => {
      const form = new FormData();
      for (const [key, value] of Object.entries(changes)) form.append(key, value);
      if (picture.kind === 'file') form.append('profilePic', picture.file);
      else if (picture.kind === 'remove') form.append('profilePic', '');
      return updateProfile(user.id ?? user._id ?? '', form);
    },
    onSuccess: (data) => {
      writeTabDraft(DRAFT_KEY, '');
      login(data.user);
      void queryClient.invalidateQueries({ queryKey: profileKeys.all });
      toast.success(data.message);
      navigate(`/@${data.user.username}`);
    },
    onError: (error) => {
      toast.error(errorMessage(error, UPDATE_FAILED));
      // The disabled button lost the keyboard's focus while saving: it gets it back.
      focusLater(() => submitRef.current);
    },
  });

  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      toast.error('Please choose an image file');
      return;
    }
    setPicture({ kind: 'file', file, preview: URL.createObjectURL(file) });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!changed || save.isPending) return;
    save.mutate();
  };

  const shownPic = picture.kind === 'file' ? picture.preview : picture.kind === 'remove' ? null : user.profilePic;
  const origin = typeof window === 'undefined' ? '' : window.location.origin;

  return (
    <form onSubmit={onSubmit} className="space-y-6" aria-busy={save.isPending || undefined}>
      <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-center">
        <Avatar key={shownPic ?? 'none'} name={name || user.name} src={shownPic} size={96} />
        <div className="flex flex-col items-center gap-2 sm:items-start">
          <p className="text-sm font-medium text-gray-700 dark:text-gray-300">Profile picture</p>
          <div className="flex flex-wrap justify-center gap-2">
            <Button variant="secondary" size="sm" onClick={() => fileRef.current?.click()}>
              <Camera size={16} aria-hidden="true" />
              {shownPic ? 'Change picture' : 'Upload picture'}
            </Button>
            {shownPic && (
              <Button
                variant="ghost"
                size="sm"
                onClick={() => setPicture(user.profilePic && picture.kind !== 'remove' ? { kind: 'remove' } : { kind: 'keep' })}
                className="text-red-600 dark:text-red-400"
              >
                <Trash2 size={16} aria-hidden="true" />
                Remove picture
              </Button>
            )}
          </div>
          <input
            ref={fileRef}
            id={`${ids}-pic`}
            type="file"
            accept="image/*"
            onChange={onPick}
            className="sr-only"
            aria-label="Profile picture file"
            tabIndex={-1}
          />
        </div>
      </div>

      <Field
        id={`${ids}-name`}
        label="Name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        required
        maxLength={MAX_NAME_LENGTH}
        autoComplete="name"
      />
      <Field
        id={`${ids}-username`}
        label="Username"
        value={username}
        onChange={(e) => setUsername(e.target.value)}
        required
        minLength={3}
        maxLength={MAX_USERNAME_LENGTH}
        autoCapitalize="none"
        autoComplete="username"
        spellCheck={false}
        hint={
          <>
            Your profile URL:{' '}
            <span className="font-medium break-all text-gray-700 dark:text-gray-300">{`${origin}/@${cleanUsername}`}</span>
          </>
        }
      />
      <div>
        <label htmlFor={`${ids}-bio`} className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">
          Bio
        </label>
        <textarea
          id={`${ids}-bio`}
          value={bio}
          onChange={(e) => setBio(e.target.value.slice(0, MAX_BIO_LENGTH))}
          maxLength={MAX_BIO_LENGTH}
          rows={4}
          placeholder="Tell readers about yourself"
          aria-describedby={`${ids}-bio-count`}
          className={`${inputClasses()} resize-none`}
        />
        <p id={`${ids}-bio-count`} className="mt-1 text-right text-xs text-gray-500 dark:text-gray-400">
          {bio.length}/{MAX_BIO_LENGTH}
        </p>
      </div>

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Link to={`/@${user.username ?? ''}`} onClick={() => writeTabDraft(DRAFT_KEY, '')} className={buttonClasses('secondary', 'md')}>
          Cancel
        </Link>
        <Button ref={submitRef} type="submit" disabled={!changed || save.isPending}>
          {save.isPending ? 'Saving...' : 'Save Changes'}
        </Button>
      </div>
    </form>
  );
}
