import type { NewsBlock, NewsStory } from '@sinilill/contracts';
import { Trans, useTranslation } from 'react-i18next';
import { ContentPage, contentStyles } from '../../../components/ui/content-page';
import { ErrorAlert } from '../../../components/ui/form/alert';
import { Spinner } from '../../../components/ui/spinner';
import { SOCIAL_LINKS } from '../../../lib/organisation';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useLang } from '../../../lib/use-lang';
import { useStories } from '../api/get-stories';
import { storyDate } from '../utils/story-date';
import styles from './news.module.css';

function Block({ block }: { block: NewsBlock }) {
  switch (block.type) {
    case 'heading':
      return <h3 className={styles.blockHeading}>{block.text}</h3>;
    case 'quote':
      return <blockquote className={styles.quote}>{block.text}</blockquote>;
    case 'list': {
      const items = block.items.map((item, index) => <li key={index}>{item}</li>);
      return block.ordered ? <ol>{items}</ol> : <ul>{items}</ul>;
    }
    case 'paragraph':
      return <p>{block.text}</p>;
  }
}

function Story({ story }: { story: NewsStory }) {
  const { t } = useTranslation('news');
  const lang = useLang();
  const headingId = `story-${story.id}`;
  return (
    <article className={styles.story} aria-labelledby={headingId} data-testid="news-story">
      {story.image && (
        <img
          className={styles.image}
          src={story.image.url}
          alt={story.image.alt ?? ''}
          width={story.image.width ?? undefined}
          height={story.image.height ?? undefined}
          loading="lazy"
          decoding="async"
        />
      )}
      <div className={styles.storyText}>
        <h2 id={headingId} className={styles.title}>
          {story.title}
        </h2>
        <p className={styles.date}>
          <span className="sr-only">{t('published')} </span>
          <time dateTime={story.publishedAt}>{storyDate(story.publishedAt, lang)}</time>
        </p>
        {story.body.map((block, index) => (
          <Block key={index} block={block} />
        ))}
      </div>
    </article>
  );
}

/**
 * /news (spec §2 "News"): the stories of the content service in the page's language, newest
 * first (title, DD-MMM-YYYY date, text, picture), "No updates" when there are none, an error
 * with a retry when the service failed, and the social media the quicker news live on.
 */
export function NewsPage() {
  const { t } = useTranslation('news');
  const lang = useLang();
  useDocumentTitle(t('title'));
  const { state, retry } = useStories(lang);

  return (
    <ContentPage
      title={t('title')}
      intro={
        <>
          {t('intro')}{' '}
          <Trans
            t={t}
            i18nKey="follow"
            components={{ facebook: <a href={SOCIAL_LINKS.facebook} />, instagram: <a href={SOCIAL_LINKS.instagram} /> }}
          />
        </>
      }
      testId="news-page"
    >
      {state.status === 'loading' && (
        <div className={styles.loading} data-testid="news-loading">
          <Spinner label={t('loading')} />
        </div>
      )}
      {state.status === 'error' && (
        <div className={styles.error} data-testid="news-error">
          <ErrorAlert code={state.code} />
          <button type="button" className={contentStyles.action} onClick={retry} data-testid="news-retry">
            {t('retry')}
          </button>
        </div>
      )}
      {state.status === 'ready' && state.stories.length === 0 && (
        <p className={styles.empty} data-testid="news-empty">
          {t('empty')}
        </p>
      )}
      {state.status === 'ready' && state.stories.map((story) => <Story key={story.id} story={story} />)}
    </ContentPage>
  );
}
