import { Download } from 'lucide-react';
import { useState } from 'react';
import { errorMessage } from '../../../lib/api';
import { downloadFromApi } from '../../../lib/download';
import { toast } from '../../../lib/toast';
import { FormError } from './FormError';

/**
 * Settings → Account: 'Download my data' (issue 16), a zip of every post as Markdown plus a JSON
 * file with the profile, posts, comments, likes, saves and follows, streamed by the server.
 */
export function DownloadMyData() {
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState<string | null>(null);

  const download = async () => {
    setBusy(true);
    setStatus('Preparing your data…');
    setFailure(null);
    try {
      const name = await downloadFromApi('/account/export', 'inkwell-data.zip');
      setStatus(`Downloaded ${name}.`);
    } catch (error) {
      setStatus('');
      const message = errorMessage(error);
      setFailure(message);
      toast.error(message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="download-my-data" className="mb-6 border-b border-gray-200 pb-6 dark:border-gray-800">
      <h2 id="download-my-data" className="text-lg font-semibold text-gray-900 dark:text-gray-100">
        Download my data
      </h2>
      <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">
        A zip file with each of your posts and drafts as Markdown, and a JSON file with your profile, posts, comments, likes, saves and
        follows.
      </p>
      <button
        type="button"
        onClick={download}
        disabled={busy}
        aria-busy={busy || undefined}
        className="mt-3 inline-flex items-center gap-2 rounded-lg border border-gray-300 px-4 py-2 text-sm font-medium text-gray-800 transition hover:bg-gray-50 disabled:cursor-not-allowed disabled:opacity-60 dark:border-gray-700 dark:text-gray-100 dark:hover:bg-gray-800"
      >
        <Download size={16} aria-hidden="true" />
        {busy ? 'Preparing…' : 'Download my data'}
      </button>
      <p role="status" className="mt-2 text-xs text-gray-600 dark:text-gray-400">
        {status}
      </p>
      <FormError id="download-my-data-error" className="mt-2" message={failure} />
    </section>
  );
}
