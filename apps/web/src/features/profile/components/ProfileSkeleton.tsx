const bar = 'animate-pulse rounded bg-gray-200 dark:bg-gray-800';

/** Placeholder of the profile while it loads. */
export function ProfileSkeleton() {
  return (
    <div role="status" aria-label="Loading profile" className="mx-auto max-w-6xl px-4 py-8">
      <div className="rounded-2xl border border-gray-200 bg-white p-6 dark:border-gray-800 dark:bg-gray-900">
        <div className="flex flex-col items-center gap-5 sm:flex-row sm:items-start">
          <div className="h-24 w-24 animate-pulse rounded-full bg-gray-200 dark:bg-gray-800" />
          <div className="flex w-full flex-1 flex-col items-center gap-3 sm:items-start">
            <div className={`h-7 w-48 ${bar}`} />
            <div className={`h-4 w-28 ${bar}`} />
            <div className={`h-4 w-full max-w-md ${bar}`} />
            <div className="flex gap-6 pt-2">
              <div className={`h-5 w-20 ${bar}`} />
              <div className={`h-5 w-20 ${bar}`} />
              <div className={`h-5 w-20 ${bar}`} />
            </div>
          </div>
        </div>
      </div>
      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_300px]">
        <div className="space-y-4">
          <div className={`h-10 w-72 ${bar}`} />
          {[0, 1, 2].map((i) => (
            <div key={i} className="h-40 animate-pulse rounded-xl bg-gray-200 dark:bg-gray-800" />
          ))}
        </div>
        <div className="hidden space-y-4 lg:block">
          <div className="h-40 animate-pulse rounded-xl bg-gray-200 dark:bg-gray-800" />
          <div className="h-48 animate-pulse rounded-xl bg-gray-200 dark:bg-gray-800" />
        </div>
      </div>
    </div>
  );
}
