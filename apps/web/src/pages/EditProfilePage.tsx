import { EditProfileForm } from '../features/profile/components/EditProfileForm';
import { usePageTitle } from '../hooks/usePageTitle';

/** Edit profile (/edit-profile); signed-in only (the route wraps it in RequireAuth). */
export default function EditProfilePage() {
  usePageTitle('Edit Profile');
  return (
    <section className="mx-auto max-w-2xl px-4 py-8 sm:py-10">
      <h1 className="text-2xl font-bold text-gray-900 sm:text-3xl dark:text-gray-100">Edit Profile</h1>
      <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">How readers see you across Inkwell.</p>
      <div className="mt-6 rounded-2xl border border-gray-200 bg-white p-5 sm:p-7 dark:border-gray-800 dark:bg-gray-900">
        <EditProfileForm />
      </div>
    </section>
  );
}
