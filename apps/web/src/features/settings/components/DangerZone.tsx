import { TriangleAlert } from 'lucide-react';
import { DeleteAccount } from './DeleteAccount';
import { TransferAccount } from './TransferAccount';

/** Account tab of Settings: the danger zone with transfer and deletion (SPEC.md 2). */
export function DangerZone() {
  return (
    <div className="space-y-6">
      <header>
        <h2 className="flex items-center gap-2 text-lg font-semibold text-red-600 dark:text-red-400">
          <TriangleAlert size={20} aria-hidden="true" />
          Danger Zone
        </h2>
        <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">These actions change who owns your work or remove it for good.</p>
      </header>
      <TransferAccount />
      <DeleteAccount />
    </div>
  );
}
