import type { ReactNode } from "react";
import { useT } from "~/lib/i18n";
import { imageVariantUrl, responsiveImage } from "~/lib/images";

/**
 * The product page's photos (docs/decisions/124): a CSS scroll-snap row, one photo per snap point, so
 * phones swipe natively; the thumbnails are plain links to #photo-N: the browser scrolls the row to the
 * photo (smoothly, unless reduced motion is asked for) and brings it into view, with or without
 * JavaScript. The thumbnail of the photo in view is marked by CSS alone (`scroll-target-group`,
 * app/styles/storefront.css). No script of its own: the product page is at its JavaScript ceiling.
 * Only the first photo loads eagerly, with high priority; every photo has its width and height.
 */

export interface GalleryPhoto {
  key: string;
  alt: string | null;
}

const SIZES = "(min-width: 1152px) 560px, (min-width: 768px) 48vw, min(calc(100vw - 32px), 360px)";

export function ProductGallery({ photos, name, badge }: { photos: GalleryPhoto[]; name: string; badge?: ReactNode }) {
  const { t } = useT();
  return (
    <div className="relative">
      <div role="region" tabIndex={0} aria-label={t("product.gallery.label", { name })} className="gallery">
        {photos.map((photo, i) => (
          <img
            key={photo.key}
            id={`photo-${i + 1}`}
            {...responsiveImage(photo.key, 560)}
            sizes={SIZES}
            alt={photo.alt ?? name}
            loading={i ? "lazy" : undefined}
            fetchPriority={i ? undefined : "high"}
          />
        ))}
      </div>
      {badge}
      {photos.length > 1 && (
        <div className="gallery-thumbs">
          {photos.map((photo, i) => (
            <a key={photo.key} href={`#photo-${i + 1}`}>
              <img src={imageVariantUrl(photo.key, 320)} alt={t("product.gallery.show", { n: i + 1, count: photos.length })} width={56} height={70} loading="lazy" />
            </a>
          ))}
        </div>
      )}
    </div>
  );
}
