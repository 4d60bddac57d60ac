import { DangerZone } from './DangerZone';
import { DownloadMyData } from './DownloadMyData';
import { SignOutEverywhere } from './SignOutEverywhere';

/** Account tab of Settings: sessions first, then a copy of one's data, then the danger zone (transfer and deletion). */
export function AccountSettings() {
  return (
    <div className="space-y-8">
      <div className="space-y-4">
        <header>
          <h2 className="text-lg font-semibold text-gray-900 dark:text-gray-100">Sessions</h2>
          <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">
            Signed in somewhere you no longer use? Sign out of every browser and device at once, this one too.
          </p>
        </header>
        <SignOutEverywhere />
      </div>
      <DownloadMyData />
      <DangerZone />
    </div>
  );
}
