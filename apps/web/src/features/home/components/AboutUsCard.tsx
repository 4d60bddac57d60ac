import { Link } from 'react-router';

/** Sidebar 'About Us' card. */
export function AboutUsCard() {
  return (
    <section aria-labelledby="about-us" className="rounded-xl border border-gray-200 bg-white p-5 dark:border-gray-800 dark:bg-gray-900">
      <h2 id="about-us" className="text-lg font-bold text-gray-900 dark:text-gray-100">
        About Us
      </h2>
      <p className="mt-3 text-sm leading-relaxed text-gray-600 dark:text-gray-400">
        Inkwell is an open-source home for developers and tech writers to share what they learn: tutorials, deep dives and lessons from
        building real software.
      </p>
      <Link to="/about" className="mt-3 inline-block text-sm font-semibold text-indigo-600 hover:underline dark:text-indigo-400">
        Learn more about Inkwell
      </Link>
    </section>
  );
}
