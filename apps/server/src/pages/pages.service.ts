import {
  type Blog,
  HOME_PAGE_SIZE,
  MAX_SEARCH_LENGTH,
  MAX_TAG_LENGTH,
  normalizeTag,
  PROFILE_PAGE_SIZE,
  type Profile,
  pageTitle,
  RESULTS_PAGE_SIZE,
} from '@inkwell/core';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { AppError } from '../lib/errors';
import { canSeeProfileList } from '../lib/policies';
import type { BlogsService } from '../modules/blogs/blogs.service';
import type { BlogTab, ProfileService } from '../modules/users/profile.service';
import { articleScreen, blogMissingScreen } from './article';
import { type OgImage, type PageHead, SITE_DESCRIPTION, SITE_NAME, SITE_TAGLINE } from './head';
import { absoluteUrl, truncate } from './html';
import { aboutScreen, appOnlyScreen, notFoundScreen, pageLayout } from './layout';
import { blogPath, homeScreen, profilePath, profileScreen, resultsScreen, tagPath } from './lists';
import type { SocialCards } from './social-card';

/** What a page route answers: a page with its status, or a permanent redirect to the page's one address. */
export type PageResult = { status: 200 | 404; head: PageHead; body: string; release?: 'start' } | { redirect: string };

export interface PagesDeps {
  db: Kysely<Database>;
  blogs: BlogsService;
  profiles: ProfileService;
  cards: SocialCards;
  publicUrl: string;
}

/** Profile tabs a visitor may be shown, in the app's order, and the list each one reads. */
const PUBLIC_TABS: Record<string, BlogTab> = { blogs: 'blogs', 'saved-blogs': 'saved-blogs', 'liked-blogs': 'liked-blogs' };
/** Tabs that exist but only their owner can see: the page is the profile, not listed by search engines. */
const OWNER_TABS = new Set(['draft-blogs']);
const TAB_LABELS: Record<string, string> = { 'saved-blogs': 'Saved', 'liked-blogs': 'Liked' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DESCRIPTION_LENGTH = 160;

/**
 * Head tags, JSON-LD and first HTML of every public page, read through the same services as the
 * API (BlogsService, ProfileService), so drafts and anything else those hide never appear here.
 */
export class PagesService {
  constructor(private readonly deps: PagesDeps) {}

  private url(path: string): string {
    return absoluteUrl(this.deps.publicUrl, path);
  }

  async home(): Promise<PageResult> {
    const { blogs } = await this.deps.blogs.list({ page: 1, limit: HOME_PAGE_SIZE });
    const canonical = this.url('/');
    return {
      status: 200,
      head: {
        title: pageTitle(SITE_TAGLINE),
        description: SITE_DESCRIPTION,
        canonical,
        ogType: 'website',
        image: await this.deps.cards.forSite(),
        feeds: [{ scope: { kind: 'site' }, title: SITE_NAME }],
        jsonLd: [
          {
            '@type': 'WebSite',
            name: SITE_NAME,
            url: canonical,
            description: SITE_DESCRIPTION,
            potentialAction: {
              '@type': 'SearchAction',
              target: { '@type': 'EntryPoint', urlTemplate: `${this.url('/search')}?q={search_term_string}` },
              'query-input': 'required name=search_term_string',
            },
          },
        ],
      },
      body: pageLayout(homeScreen(blogs)),
    };
  }

  async blog(id: string): Promise<PageResult> {
    const blog = await this.published(id);
    if (blog) return this.blogPage(blog);
    // The post's older address, by its internal id: moved permanently to its public one.
    if (UUID.test(id)) {
      const row = await this.deps.db.selectFrom('blogs').select('blog_id').where('id', '=', id.toLowerCase()).executeTakeFirst();
      if (row && (await this.published(row.blog_id))) return { redirect: blogPath(row.blog_id) };
    }
    return this.notFound(blogMissingScreen(), 'Blog not found');
  }

  private async blogPage(blog: Blog): Promise<PageResult> {
    const canonical = this.url(blogPath(blog.blogId));
    const description = truncate(blog.description || blog.title, DESCRIPTION_LENGTH);
    const image = (await this.featuredImage(blog)) ?? (await this.deps.cards.forBlog(blog)) ?? (await this.deps.cards.forSite());
    const authorUrl = blog.creator ? this.url(profilePath(blog.creator.username)) : undefined;
    return {
      status: 200,
      head: {
        title: pageTitle(blog.title),
        description,
        canonical,
        ogType: 'article',
        image,
        article: { publishedTime: blog.createdAt, modifiedTime: blog.updatedAt, authorUrl, tags: blog.tags },
        feeds: [
          { scope: { kind: 'site' }, title: SITE_NAME },
          ...(blog.creator
            ? [{ scope: { kind: 'author' as const, username: blog.creator.username }, title: `${blog.creator.name} on ${SITE_NAME}` }]
            : []),
        ],
        jsonLd: [
          {
            '@type': 'BlogPosting',
            headline: truncate(blog.title, 110),
            description,
            datePublished: blog.createdAt,
            dateModified: blog.updatedAt,
            url: canonical,
            mainEntityOfPage: { '@type': 'WebPage', '@id': canonical },
            ...(image ? { image: [image.url] } : {}),
            ...(blog.creator ? { author: { '@type': 'Person', name: blog.creator.name || blog.creator.username, url: authorUrl } } : {}),
            keywords: blog.tags.join(', '),
            timeRequired: `PT${blog.readingTime}M`,
            publisher: { '@type': 'Organization', name: SITE_NAME, url: this.url('/') },
          },
        ],
      },
      body: pageLayout(articleScreen(blog)),
    };
  }

  /** The featured image with its size when it is one of our uploads (width and height are on its row). */
  private async featuredImage(blog: Blog): Promise<OgImage | undefined> {
    if (!blog.image) return undefined;
    const row = await this.deps.db
      .selectFrom('uploads')
      .select(['width', 'height'])
      .where('blog_id', '=', blog._id)
      .where('url', '=', blog.image)
      .executeTakeFirst();
    return { url: this.url(blog.image), width: row?.width, height: row?.height, alt: blog.title };
  }

  async profile(username: string, tab: string | undefined): Promise<PageResult> {
    const user = await this.found(this.deps.profiles.get(username, null));
    if (!user) return this.notFound(notFoundScreen('User not found', 'There is no one here by that name.'), 'User not found');
    const tabName = tab ?? 'blogs';
    const listTab = PUBLIC_TABS[tabName];
    if (!listTab && !OWNER_TABS.has(tabName)) return this.notFound();
    const canonicalPath = tabName === 'blogs' ? profilePath(user.username) : `${profilePath(user.username)}/${tabName}`;
    if (username !== user.username) return { redirect: canonicalPath };
    const visible =
      listTab !== undefined &&
      canSeeProfileList(null, { id: user._id, showSavedBlogs: user.showSavedBlogs, showLikedBlogs: user.showLikedBlogs }, listTab);
    const list = visible
      ? await this.deps.profiles.blogs(user.username, listTab as BlogTab, null, { page: 1, limit: PROFILE_PAGE_SIZE })
      : undefined;
    const tabs = ['blogs', ...(user.showSavedBlogs ? ['saved-blogs'] : []), ...(user.showLikedBlogs ? ['liked-blogs'] : [])];
    const canonical = this.url(visible ? canonicalPath : profilePath(user.username));
    const description = truncate(user.bio?.trim() || `Posts by ${user.name} (@${user.username}) on ${SITE_NAME}.`, DESCRIPTION_LENGTH);
    const avatar = user.profilePic ? await this.avatarImage(user) : undefined;
    return {
      status: 200,
      head: {
        title: pageTitle(
          visible && tabName !== 'blogs' ? `${TAB_LABELS[tabName]} · ${user.name} (@${user.username})` : `${user.name} (@${user.username})`,
        ),
        description,
        canonical,
        ogType: 'profile',
        profileUsername: user.username,
        feeds: [{ scope: { kind: 'author', username: user.username }, title: `${user.name} on ${SITE_NAME}` }],
        image: avatar,
        noindex: !visible,
        jsonLd: [
          {
            '@type': 'ProfilePage',
            url: canonical,
            dateCreated: user.createdAt,
            mainEntity: {
              '@type': 'Person',
              name: user.name,
              alternateName: `@${user.username}`,
              url: this.url(profilePath(user.username)),
              ...(user.bio ? { description: user.bio } : {}),
              ...(avatar ? { image: avatar.url } : {}),
            },
          },
        ],
      },
      body: pageLayout(profileScreen(user, visible ? tabName : 'blogs', tabs, list?.blogs)),
    };
  }

  private async avatarImage(user: Profile): Promise<OgImage> {
    const row = await this.deps.db
      .selectFrom('uploads')
      .select(['width', 'height'])
      .where('owner_id', '=', user._id)
      .where('url', '=', user.profilePic!)
      .executeTakeFirst();
    return { url: this.url(user.profilePic!), width: row?.width, height: row?.height, alt: user.name };
  }

  async tag(raw: string): Promise<PageResult> {
    const tag = normalizeTag(raw);
    if (!tag || tag.length > MAX_TAG_LENGTH) return this.notFound();
    if (tag !== raw) return { redirect: tagPath(tag) };
    const { blogs } = await this.deps.blogs.list({ page: 1, limit: RESULTS_PAGE_SIZE, tag });
    // A tag no published post carries has no page.
    if (!blogs.length) return this.notFound(notFoundScreen('Tag not found', `No published post is tagged #${tag}.`), `#${tag}`);
    return {
      status: 200,
      head: {
        title: pageTitle(`#${tag}`),
        description: `Posts tagged #${tag} on ${SITE_NAME}: ${blogs
          .map((b) => b.title)
          .slice(0, 3)
          .join(' · ')}`.slice(0, DESCRIPTION_LENGTH),
        canonical: this.url(tagPath(tag)),
        ogType: 'website',
        image: await this.deps.cards.forSite(),
        feeds: [{ scope: { kind: 'tag', tag }, title: `#${tag} on ${SITE_NAME}` }],
        jsonLd: [{ '@type': 'CollectionPage', name: `#${tag}`, url: this.url(tagPath(tag)) }],
      },
      body: pageLayout(resultsScreen(tag, blogs)),
    };
  }

  async search(q: string): Promise<PageResult> {
    const term = q.trim().slice(0, MAX_SEARCH_LENGTH);
    const { blogs } = term ? await this.deps.blogs.list({ page: 1, limit: RESULTS_PAGE_SIZE, search: term }) : { blogs: [] };
    return {
      status: 200,
      head: {
        title: pageTitle(term ? `Results for ${term}` : 'Search'),
        description: term ? `Posts on ${SITE_NAME} matching “${truncate(term, 100)}”.` : SITE_DESCRIPTION,
        canonical: this.url(term ? `/search?q=${encodeURIComponent(term)}` : '/search'),
        ogType: 'website',
        image: await this.deps.cards.forSite(),
        // Result pages change with every post: followed, not listed.
        noindex: true,
      },
      body: pageLayout(resultsScreen(term, blogs), { search: term }),
    };
  }

  async about(): Promise<PageResult> {
    return {
      status: 200,
      head: {
        title: pageTitle('About'),
        description: 'Inkwell is a journal for developers and tech writers: a place to share what you learn while building software.',
        canonical: this.url('/about'),
        ogType: 'website',
        image: await this.deps.cards.forSite(),
      },
      body: pageLayout(aboutScreen()),
    };
  }

  /** Screens only the signed-in app shows (sign-in, editor, settings…): the shell, not for search engines. */
  appOnly(path: string): PageResult {
    return {
      status: 200,
      head: { title: pageTitle(null), description: SITE_DESCRIPTION, canonical: this.url(path), ogType: 'website', noindex: true },
      body: pageLayout(appOnlyScreen()),
      release: 'start',
    };
  }

  notFound(screen = notFoundScreen(), title = 'Page not found'): PageResult {
    return {
      status: 404,
      head: { title: pageTitle(title), description: SITE_DESCRIPTION, canonical: this.url('/'), ogType: 'website', noindex: true },
      body: pageLayout(screen),
    };
  }

  private async published(blogId: string): Promise<Blog | undefined> {
    return this.found(this.deps.blogs.get(blogId, null));
  }

  /** The value, or undefined where the API would answer 404. */
  private async found<T>(promise: Promise<T>): Promise<T | undefined> {
    try {
      return await promise;
    } catch (err) {
      if (err instanceof AppError && err.statusCode === 404) return undefined;
      throw err;
    }
  }
}
