import { useMutation } from '@tanstack/react-query';
import { SelectField } from '../../../components/ui/Field';
import { isRateLimited } from '../../../lib/api';
import { queryClient } from '../../../lib/queryClient';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { changeVisibility } from '../api/settings';
import { FormError } from './FormError';

export const SETTINGS_FAILED = 'Failed to update settings';

/** SPEC.md 8's text of a failed settings save; a rate limit says how long to wait instead. */
export const settingsFailure = (error: unknown) => (isRateLimited(error) ? error.message : SETTINGS_FAILED);

const OPTIONS = [
  { value: 'public', label: 'Visible to everyone' },
  { value: 'private', label: 'Only visible to me' },
];

/** Privacy Settings: who sees the Saved and Liked tabs; saved on change (session update kind 'visibility'). */
export function PrivacySettings() {
  const showSavedBlogs = useSession((s) => s.user.showSavedBlogs ?? false);
  const showLikedBlogs = useSession((s) => s.user.showLikedBlogs ?? false);
  const update = useSession((s) => s.update);

  const save = useMutation({
    mutationFn: changeVisibility,
    onSuccess: (data) => {
      update({ kind: 'visibility', fields: { showLikedBlogs: data.showLikedBlogs, showSavedBlogs: data.showSavedBlogs } });
      void queryClient.invalidateQueries({ queryKey: ['profile'] });
      toast.success(data.message);
    },
    onError: (error) => toast.error(settingsFailure(error)),
  });

  const set = (field: 'showSavedBlogs' | 'showLikedBlogs') => (value: string) =>
    save.mutate({ showSavedBlogs, showLikedBlogs, [field]: value === 'public' });

  return (
    <div className="space-y-6">
      <header>
        <h2 className="text-lg font-semibold text-gray-900 dark:text-gray-100">Privacy Settings</h2>
        <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">Choose who can see the blogs you saved and liked on your profile.</p>
      </header>
      <SelectField
        id="privacy-saved"
        label="Show Saved Blogs on Profile"
        value={showSavedBlogs ? 'public' : 'private'}
        options={OPTIONS}
        onChange={set('showSavedBlogs')}
        disabled={save.isPending}
      />
      <SelectField
        id="privacy-liked"
        label="Show Liked Blogs on Profile"
        value={showLikedBlogs ? 'public' : 'private'}
        options={OPTIONS}
        onChange={set('showLikedBlogs')}
        disabled={save.isPending}
      />
      <FormError id="privacy-error" message={save.isError ? settingsFailure(save.error) : null} />
    </div>
  );
}
