import { FileText, Send } from 'lucide-react';
import { useId } from 'react';

interface PublishToggleProps {
  draft: boolean;
  onChange: (draft: boolean) => void;
  disabled?: boolean;
}

const OPTIONS = [
  { draft: false, label: 'Publish', Icon: Send },
  { draft: true, label: 'Draft', Icon: FileText },
] as const;

/** The Publish/Draft switch (SPEC.md 4 draft flag): two native radios, arrow keys move between them. */
export function PublishToggle({ draft, onChange, disabled = false }: PublishToggleProps) {
  const name = useId();
  return (
    <fieldset disabled={disabled} className="min-w-0" aria-describedby={`${name}-hint`}>
      <legend className="mb-1.5 text-sm font-medium text-gray-700 dark:text-gray-300">Status</legend>
      <div className="grid grid-cols-2 gap-1 rounded-xl bg-gray-100 p-1 dark:bg-gray-800">
        {OPTIONS.map(({ draft: value, label, Icon }) => (
          <label
            key={label}
            className="relative flex cursor-pointer items-center justify-center gap-2 rounded-lg px-3 py-2 text-sm font-medium text-gray-600 transition has-[:checked]:bg-white has-[:checked]:text-indigo-700 has-[:checked]:shadow-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-500 has-[:disabled]:cursor-not-allowed dark:text-gray-300 dark:has-[:checked]:bg-gray-950 dark:has-[:checked]:text-indigo-300"
          >
            <input
              type="radio"
              name={name}
              value={value ? 'draft' : 'publish'}
              checked={draft === value}
              onChange={() => onChange(value)}
              className="absolute inset-0 m-0 cursor-pointer appearance-none rounded-lg opacity-0 disabled:cursor-not-allowed"
            />
            <Icon size={16} aria-hidden="true" />
            <span>{label}</span>
          </label>
        ))}
      </div>
      <p id={`${name}-hint`} className="mt-1 text-xs text-gray-500 dark:text-gray-400">
        {draft ? 'Only you can see a draft.' : 'Everyone can read it once published.'}
      </p>
    </fieldset>
  );
}
