import { BlogFeed } from '../features/blogs/components/BlogFeed';
import { AboutUsCard } from '../features/home/components/AboutUsCard';
import { Hero } from '../features/home/components/Hero';
import { Newsletter } from '../features/home/components/Newsletter';
import { PopularTopics } from '../features/home/components/PopularTopics';
import { usePageTitle } from '../hooks/usePageTitle';

/** Home (/): hero, blog list with 'Load More', sidebar and newsletter (SPEC.md 2). */
export default function HomePage() {
  usePageTitle('Discover & Share Knowledge');
  return (
    <>
      <Hero />
      <div className="mx-auto grid max-w-6xl grid-cols-1 gap-8 px-4 py-10 lg:grid-cols-[minmax(0,1fr)_320px]">
        <section aria-labelledby="latest-heading" className="min-w-0">
          <h2 id="latest-heading" className="mb-5 text-2xl font-bold text-gray-900 dark:text-gray-100">
            Latest Articles
          </h2>
          <BlogFeed />
        </section>
        <aside className="space-y-6 lg:sticky lg:top-24 lg:self-start">
          <PopularTopics />
          <AboutUsCard />
        </aside>
      </div>
      <Newsletter />
    </>
  );
}
