import { Feather } from 'lucide-react';
import { Link } from 'react-router';

/** The Inkwell logo, linking to '/'. */
export function Logo() {
  return (
    <Link to="/" aria-label="Inkwell home" className="flex shrink-0 items-center gap-2 rounded-lg">
      <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-indigo-600 text-white">
        <Feather size={18} aria-hidden="true" />
      </span>
      <span className="text-xl font-extrabold tracking-tight text-gray-900 dark:text-white">Inkwell</span>
    </Link>
  );
}
