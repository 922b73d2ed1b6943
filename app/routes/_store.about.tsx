import { Link } from "react-router";
import { pageContent } from "~/http/content.server";
import { useT } from "~/lib/i18n";
import { seoMeta } from "~/http/seo.server";
import type { Route } from "./+types/_store.about";

export function loader({ request, context }: Route.LoaderArgs) {
  const { locale, content } = pageContent(request);
  return { about: content.about, meta: seoMeta(context, locale, "/about", content.meta.about) };
}

// An anonymous visitor's page may be kept by nginx or a CDN (docs/decisions/216).
export const handle = { sharedCache: true };

export const meta = ({ data }: Route.MetaArgs) => data?.meta ?? [];

export default function About({ loaderData: { about } }: Route.ComponentProps) {
  const { t } = useT();
  return (
    <article className="prose-page">
      <h1>{about.title}</h1>
      <p className="lead">{about.lead}</p>
      {about.sections.map((section) => (
        <section key={section.heading}>
          <h2>{section.heading}</h2>
          {section.paragraphs.map((text) => (
            <p key={text}>{text}</p>
          ))}
        </section>
      ))}
      <p className="lead">{about.closing}</p>
      <Link to="/shop" className="btn not-prose">
        {t("store.shopNow")}
      </Link>
    </article>
  );
}
