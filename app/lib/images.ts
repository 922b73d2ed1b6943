/**
 * Product images are stored once as WebP variants of a 4:5 portrait at fixed widths.
 * Their file names carry a content hash, so they are served with a one-year immutable cache.
 */
export const IMAGE_WIDTHS = [320, 640, 1024] as const;
export const IMAGE_ASPECT = 5 / 4; // height / width

export function imageHeight(width: number): number {
  return Math.round(width * IMAGE_ASPECT);
}

export function imageVariantUrl(key: string, width: number): string {
  return `/images/${key}-${width}.webp`;
}

export interface ResponsiveImage {
  src: string;
  srcSet: string;
  width: number;
  height: number;
}

/** Attributes for an <img>: a middle-sized src, every variant in srcset, and the intrinsic size. */
export function responsiveImage(key: string, displayWidth = 320): ResponsiveImage {
  return {
    src: imageVariantUrl(key, 640),
    srcSet: IMAGE_WIDTHS.map((w) => `${imageVariantUrl(key, w)} ${w}w`).join(", "),
    width: displayWidth,
    height: imageHeight(displayWidth),
  };
}
