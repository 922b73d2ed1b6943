import { useRouteLoaderData } from "react-router";
import { useT } from "~/lib/i18n";
import type { RootData } from "~/root";
import { ShopLink } from "~/components/shop-link";

const PAGES = [
  ["/", "home"],
  ["/about", "about"],
  ["/shop", "shop"],
  ["/returns-refunds", "returnPolicy"],
  ["/cart", "cart"],
] as const;

export function StoreFooter() {
  const { t } = useT();
  const socials = (useRouteLoaderData("root") as RootData | undefined)?.shop.socials;
  const heading = "mb-3 text-xs font-semibold tracking-widest text-white";
  return (
    <footer className="mt-16 bg-ink text-sm text-stone-300">
      <div className="footer-grid">
        <div>
          <p className="font-serif text-xl text-white">{t("common.brand.tagline")}</p>
          <p className="mt-3">{t("store.footer.blurb")}</p>
        </div>
        <nav aria-label={t("store.footer.pagesLabel")}>
          <h2 id="footer-pages" className={heading}>
            {t("store.footer.pages")}
          </h2>
          <ul className="footer-links">
            {PAGES.map(([to, key]) => (
              <li key={to}>
                <ShopLink to={to}>{t(`store.footer.${key}`)}</ShopLink>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-labelledby="footer-links">
          <h2 id="footer-links" className={heading}>
            {t("store.footer.links")}
          </h2>
          <ul className="footer-links">
            <li>
              <ShopLink to="/returns-refunds">{t("store.footer.returnsRefunds")}</ShopLink>
            </li>
            <li>
              <ShopLink to="/track">{t("store.footer.track")}</ShopLink>
            </li>
            <li>
              <ShopLink to="/privacy">{t("store.footer.privacy")}</ShopLink>
            </li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-socials">
          <h2 id="footer-socials" className={heading}>
            {t("store.footer.socials")}
          </h2>
          <ul className="footer-links">
            <li>
              <a href={socials?.instagram} rel="noopener noreferrer" target="_blank">
                Instagram
              </a>
            </li>
            <li>
              <a href={socials?.tiktok} rel="noopener noreferrer" target="_blank">
                TikTok
              </a>
            </li>
          </ul>
        </nav>
      </div>
      <div className="border-t border-stone-700">
        <div className="mx-auto max-w-6xl space-y-2 px-4 py-6 text-xs">
          <p id="privacy-policy" className="scroll-mt-4">
            <strong className="text-white">{t("store.footer.privacy")}.</strong> {t("store.footer.privacyText")}
          </p>
          <p>{t("store.footer.copyright", { year: new Date().getFullYear() })}</p>
        </div>
      </div>
    </footer>
  );
}
