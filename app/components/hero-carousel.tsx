import { useEffect, useRef, useState } from "react";
import { ShopLink } from "~/components/shop-link";
import { useT } from "~/lib/i18n";
import { responsiveImage } from "~/lib/images";
import { autoplay } from "./carousel";

// The home page's hero, in a module of its own: the product page's carousels do not carry it.

export interface HeroSlide {
  title: string;
  text: string;
  image: string | null;
}

/** The home page's hero: slides that fade every 4 s, loop, and stop for good once the shopper interacts. */
export function HeroCarousel({ slides }: { slides: HeroSlide[] }) {
  const { t } = useT();
  const [index, setIndex] = useState(0);
  const root = useRef<HTMLElement>(null);
  const count = slides.length;
  useEffect(() => {
    if (!root.current || count < 2) return;
    return autoplay(root.current, () => setIndex((i) => (i + 1) % count), 4000, true);
  }, [count]);

  return (
    <section ref={root} aria-roledescription="carousel" aria-label={t("catalogue.hero.label")} className="hero">
      {slides.map((slide, i) => {
        const image = slide.image ? responsiveImage(slide.image, 240) : null;
        return (
          <div
            key={i}
            role="group"
            aria-roledescription="slide"
            aria-label={t("store.carousel.slide", { n: i + 1, total: count })}
            inert={i !== index}
            className={`hero-slide ${i === index ? "" : "opacity-0"}`}
          >
            <div className="flex flex-col items-start gap-3">
              <h2 className="font-serif text-3xl font-semibold leading-tight sm:text-5xl">{slide.title}</h2>
              <p className="max-w-md text-stone-700 sm:text-lg">{slide.text}</p>
              <ShopLink to="/shop" className="btn mt-2">
                {t("store.shopNow")}
              </ShopLink>
            </div>
            {image && (
              <img
                src={image.src}
                srcSet={image.srcSet}
                sizes="(min-width: 640px) 240px, 33vw"
                width={image.width}
                height={image.height}
                alt=""
                loading={i === 0 ? "eager" : "lazy"}
                fetchPriority={i === 0 ? "high" : "low"}
                className="w-full rounded-2xl shadow-lg"
              />
            )}
          </div>
        );
      })}
      <div className="absolute bottom-1 left-1/2 flex -translate-x-1/2">
        {slides.map((_, i) => (
          <button
            key={i}
            type="button"
            className="dot"
            aria-label={t("store.carousel.goTo", { n: i + 1 })}
            aria-current={i === index}
            onClick={() => setIndex(i)}
          />
        ))}
      </div>
    </section>
  );
}
