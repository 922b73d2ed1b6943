import { pageContent } from "~/http/content.server";
import { seoMeta } from "~/http/seo.server";
import type { Route } from "./+types/_store.faq";

export function loader({ request, context }: Route.LoaderArgs) {
  const { locale, content } = pageContent(request);
  const faq = content.faq;
  return {
    faq,
    meta: seoMeta(context, locale, "/faq", {
      ...content.meta.faq,
      jsonLd: {
        "@context": "https://schema.org",
        "@type": "FAQPage",
        mainEntity: faq.items.map((item) => ({ "@type": "Question", name: item.q, acceptedAnswer: { "@type": "Answer", text: item.a } })),
      },
    }),
  };
}

// An anonymous visitor's page may be kept by nginx or a CDN (docs/decisions/216).
export const handle = { sharedCache: true };

export const meta = ({ data }: Route.MetaArgs) => data?.meta ?? [];

export default function Faq({ loaderData: { faq } }: Route.ComponentProps) {
  return (
    <article className="prose-page">
      <h1>{faq.title}</h1>
      <p className="lead">{faq.intro}</p>
      <div className="not-prose mt-6 divide-y divide-stone-200 rounded-2xl bg-white">
        {faq.items.map((item) => (
          <details key={item.q} className="faq group px-5">
            <summary className="flex min-h-14 cursor-pointer items-center justify-between gap-4 py-3 font-medium">
              {item.q}
              <span aria-hidden="true" className="text-xl transition-transform group-open:rotate-45">
                +
              </span>
            </summary>
            <p className="pb-4 text-stone-700">{item.a}</p>
          </details>
        ))}
      </div>
    </article>
  );
}
