import { Icon } from "~/components/icon";
import { pageContent } from "~/http/content.server";
import { seoMeta } from "~/http/seo.server";
import type { Route } from "./+types/_store.contact";

export function loader({ request, context }: Route.LoaderArgs) {
  const { locale, content } = pageContent(request);
  const { phone, whatsapp, email } = context.config.shop;
  return {
    contact: content.contact,
    shop: { phone, tel: `tel:${phone.replace(/[^\d+]/g, "")}`, whatsapp: `https://wa.me/${whatsapp}`, email },
    meta: seoMeta(context, locale, "/contact", content.meta.contact),
  };
}

// An anonymous visitor's page may be kept by nginx or a CDN (docs/decisions/216).
export const handle = { sharedCache: true };

export const meta = ({ data }: Route.MetaArgs) => data?.meta ?? [];

export default function Contact({ loaderData: { contact, shop } }: Route.ComponentProps) {
  const ways = [
    { icon: "phone", label: contact.phone, href: shop.tel, text: shop.phone },
    { icon: "chat", label: contact.whatsapp, href: shop.whatsapp, text: contact.whatsappText },
    { icon: "mail", label: contact.email, href: `mailto:${shop.email}`, text: shop.email },
  ] as const;
  return (
    <article className="prose-page">
      <h1>{contact.title}</h1>
      <p className="lead">{contact.intro}</p>
      <ul className="not-prose mt-6 grid gap-4 sm:grid-cols-3">
        {ways.map((way) => (
          <li key={way.label} className="info-box">
            <Icon name={way.icon} size={28} className="text-brand-600" />
            <span>
              <strong className="block">{way.label}</strong>
              <a href={way.href} className="break-all text-sm underline" {...(way.icon === "chat" ? { rel: "noopener noreferrer", target: "_blank" } : {})}>
                {way.text}
              </a>
            </span>
          </li>
        ))}
      </ul>
      <section>
        <h2>{contact.hoursHeading}</h2>
        <ul>
          {contact.hours.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </section>
    </article>
  );
}
