import { fill, pageContent } from "~/http/content.server";
import { seoMeta } from "~/http/seo.server";
import type { Route } from "./+types/_store.returns-refunds";

export function loader({ request, context }: Route.LoaderArgs) {
  const { locale, content } = pageContent(request);
  const { phone, whatsapp, email } = context.config.shop;
  const returns = content.returns;
  return {
    returns,
    whatsapp: { href: `https://wa.me/${whatsapp}`, label: fill(returns.whatsapp, { phone }) },
    email: { href: `mailto:${email}`, label: fill(returns.email, { email }) },
    meta: seoMeta(context, locale, "/returns-refunds", content.meta.returns),
  };
}

// An anonymous visitor's page may be kept by nginx or a CDN (docs/decisions/216).
export const handle = { sharedCache: true };

export const meta = ({ data }: Route.MetaArgs) => data?.meta ?? [];

export default function ReturnsRefunds({ loaderData: { returns, whatsapp, email } }: Route.ComponentProps) {
  return (
    <article className="prose-page">
      <h1>{returns.title}</h1>
      <p className="lead">{returns.intro}</p>
      {returns.sections.map((section) => (
        <section key={section.heading}>
          <h2>{section.heading}</h2>
          <ul>
            {section.items.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </section>
      ))}
      <section>
        <h2>{returns.contactHeading}</h2>
        <p>{returns.contactText}</p>
        <ul>
          <li>
            <a href={whatsapp.href} rel="noopener noreferrer" target="_blank">
              {whatsapp.label}
            </a>
          </li>
          <li>
            <a href={email.href}>{email.label}</a>
          </li>
        </ul>
      </section>
    </article>
  );
}
