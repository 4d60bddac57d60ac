import { POPULAR_TOPICS, tagSlug } from '@inkwell/core';
import { Link } from 'react-router';

/** Sidebar card: each popular topic links to its canonical tag page, /tag/{tagSlug(topic)} (Node.js: /tag/nodejs). */
export function PopularTopics() {
  return (
    <section
      aria-labelledby="popular-topics"
      className="rounded-xl border border-gray-200 bg-white p-5 dark:border-gray-800 dark:bg-gray-900"
    >
      <h2 id="popular-topics" className="text-lg font-bold text-gray-900 dark:text-gray-100">
        Popular Topics
      </h2>
      <ul className="mt-4 flex flex-wrap gap-2">
        {POPULAR_TOPICS.map((topic) => (
          <li key={topic}>
            <Link
              to={`/tag/${encodeURIComponent(tagSlug(topic))}`}
              className="inline-block rounded-full bg-gray-100 px-3 py-1.5 text-sm font-medium text-gray-700 transition hover:bg-indigo-100 hover:text-indigo-700 dark:bg-gray-800 dark:text-gray-300 dark:hover:bg-indigo-500/20 dark:hover:text-indigo-300"
            >
              {topic}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
