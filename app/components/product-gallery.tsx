import { type ReactNode, useRef, useState } from "react";
import { useT } from "~/lib/i18n";
import { imageVariantUrl, responsiveImage } from "~/lib/images";

/**
 * The product page's photos (docs/decisions/124): a CSS scroll-snap row, one photo per snap point, so
 * phones swipe natively; the thumbnails are links to #photo-N, which work without JavaScript. With
 * JavaScript a thumbnail scrolls the row only (not the page; smoothly by CSS, app/styles/storefront.css)
 * and the one in view is marked current.
 * Only the first photo loads eagerly, with high priority; every photo has its width and height.
 */

export interface GalleryPhoto {
  key: string;
  alt: string | null;
}

const SIZES = "(min-width: 1152px) 560px, (min-width: 768px) 48vw, min(calc(100vw - 32px), 360px)";

export function ProductGallery({ photos, name, badge }: { photos: GalleryPhoto[]; name: string; badge?: ReactNode }) {
  const { t } = useT();
  const track = useRef<HTMLDivElement>(null);
  const [current, setCurrent] = useState(0);
  const many = photos.length > 1;
  return (
    <div>
      <div className="relative">
        <div
          ref={track}
          {...(many && {
            role: "region",
            tabIndex: 0,
            "aria-label": t("product.gallery.label", { name }),
            onScroll: (e) => setCurrent(Math.round(e.currentTarget.scrollLeft / e.currentTarget.clientWidth)),
          })}
          className="gallery"
        >
          {photos.map((photo, i) => {
            const image = responsiveImage(photo.key, 560);
            return (
              <img
                key={photo.key}
                id={`photo-${i + 1}`}
                {...image}
                sizes={SIZES}
                alt={photo.alt ?? name}
                {...(i ? { loading: "lazy" } : { fetchPriority: "high" })}
              />
            );
          })}
        </div>
        {badge}
      </div>
      {many && (
        <ul className="mt-3 flex flex-wrap gap-2">
          {photos.map((photo, i) => (
            <li key={photo.key}>
              <a
                href={`#photo-${i + 1}`}
                aria-label={t("product.gallery.show", { n: i + 1, count: photos.length })}
                aria-current={i === current}
                onClick={(e) => {
                  e.preventDefault();
                  track.current!.scrollLeft = i * track.current!.clientWidth;
                }}
                className="gallery-thumb"
              >
                <img src={imageVariantUrl(photo.key, 320)} alt="" width={56} height={70} loading="lazy" />
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
