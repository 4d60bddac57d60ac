import { DIGEST_FREQUENCIES, type DigestFrequency } from '@inkwell/core';
import { useMutation } from '@tanstack/react-query';
import { Button } from '../../../components/ui/Button';
import { SelectField } from '../../../components/ui/Field';
import { Spinner } from '../../../components/ui/Spinner';
import { queryClient } from '../../../lib/queryClient';
import { toast } from '../../../lib/toast';
import { DIGEST_KEY, saveDigestFrequency, useDigestSettings } from '../api/digest';
import { FormError } from './FormError';
import { settingsFailure } from './PrivacySettings';

const LABELS: Record<DigestFrequency, string> = {
  off: 'Off',
  daily: 'Daily (new posts of the day before)',
  weekly: 'Weekly (every Monday)',
};
const OPTIONS = DIGEST_FREQUENCIES.map((value) => ({ value, label: LABELS[value] }));

/** Email digest: new posts by the authors one follows, by mail (off, daily or weekly); saved on change. */
export function DigestSettings() {
  const settings = useDigestSettings();
  const save = useMutation({
    mutationFn: saveDigestFrequency,
    onSuccess: (data) => {
      queryClient.setQueryData(DIGEST_KEY, data);
      toast.success(data.message ?? 'Digest settings saved');
    },
    onError: (error) => toast.error(settingsFailure(error)),
  });

  return (
    <div className="space-y-4">
      <header>
        <h2 className="text-lg font-semibold text-gray-900 dark:text-gray-100">Email Digest</h2>
        <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">
          Get the new posts of the authors you follow by email. Every digest has a one-click unsubscribe link.
        </p>
      </header>
      {settings.isPending ? (
        <div className="flex items-center gap-2 text-sm text-gray-600 dark:text-gray-400">
          <Spinner size={18} label="Loading digest settings" />
          Loading digest settings...
        </div>
      ) : settings.isError ? (
        <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-red-700 dark:text-red-300">
          Could not load your digest settings.
          <Button size="sm" variant="secondary" onClick={() => void settings.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <SelectField
          id="digest-frequency"
          label="Digest of the authors you follow"
          value={save.isPending && save.variables ? save.variables : settings.data.frequency}
          options={OPTIONS}
          onChange={(value) => save.mutate(OPTIONS.find((o) => o.value === value)?.value ?? 'off')}
          disabled={save.isPending}
        />
      )}
      <FormError id="digest-error" message={save.isError ? settingsFailure(save.error) : null} />
    </div>
  );
}
