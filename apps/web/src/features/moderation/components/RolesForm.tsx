import { type Profile, USER_ROLES, type UserRole } from '@inkwell/core';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { Field, SelectField } from '../../../components/ui/Field';
import { ApiError, apiRequest, errorMessage } from '../../../lib/api';
import { queryClient } from '../../../lib/queryClient';
import { toast } from '../../../lib/toast';
import { moderationKeys } from '../api/moderation';
import { MODERATION_TEXTS, ROLE_LABELS, usernameOf } from '../texts';

/**
 * The admins' 'Roles' tab: give someone the moderator or admin role, or take it back, by their
 * username (PUT /moderation/users/{id}/role; the server refuses anyone but an admin, and one's own role).
 */
export function RolesForm() {
  const ids = useId();
  const [username, setUsername] = useState('');
  const [role, setRole] = useState<UserRole>('moderator');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const name = usernameOf(username);
    if (!name) {
      setProblem(MODERATION_TEXTS.usernameRequired);
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const { user } = await apiRequest<{ user: Profile }>(`/users/${encodeURIComponent(name)}`);
      const answer = await apiRequest<{ message: string }>(`/moderation/users/${encodeURIComponent(user._id)}/role`, {
        method: 'PUT',
        body: { role },
      });
      toast.success(answer.message);
      setUsername('');
      void queryClient.invalidateQueries({ queryKey: moderationKeys.audit });
    } catch (error) {
      setProblem(error instanceof ApiError && error.status === 404 ? MODERATION_TEXTS.noSuchUser : errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="space-y-4 rounded-xl border border-gray-200 bg-white p-4 sm:p-5 dark:border-gray-800 dark:bg-gray-900"
    >
      <p className="text-sm text-gray-600 dark:text-gray-400">{MODERATION_TEXTS.rolesHint}</p>
      <Field
        id={`${ids}-username`}
        label="Username"
        value={username}
        onChange={(e) => {
          setUsername(e.target.value);
          setProblem(null);
        }}
        autoComplete="off"
        spellCheck={false}
        placeholder="@username"
        disabled={busy}
        error={problem}
      />
      <SelectField
        id={`${ids}-role`}
        label="Role"
        value={role}
        options={USER_ROLES.map((value) => ({ value, label: ROLE_LABELS[value] }))}
        onChange={(value) => setRole(value as UserRole)}
        disabled={busy}
      />
      <div className="flex justify-end">
        <Button type="submit" disabled={busy}>
          {busy ? 'Changing...' : 'Change role'}
        </Button>
      </div>
    </form>
  );
}
