import { useEffect, useId, useRef } from "react";
import type { ProductCard as ProductCardData } from "~/domain/catalogue/catalog.server";
import { useT } from "~/lib/i18n";
import { Icon } from "./icon";
import { ProductCard } from "./product-card";

/**
 * Carousels without a carousel library (docs/decisions/010): CSS scroll-snap does the sliding and
 * touch swiping, the server renders the first slides at their final size, and a few lines here add
 * autoplay. Autoplay pauses while the pointer is over the carousel or focus is inside it, and never
 * starts when the shopper asked for reduced motion.
 */

const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

/**
 * Calls `tick` every `delay` ms (or on every animation frame, with the elapsed ms, when delay is 0)
 * while the carousel is left alone. With `stopOnInteraction`, a tap or focus inside stops it for good.
 * Returns the clean-up for useEffect.
 */
export function autoplay(root: HTMLElement, tick: (elapsed: number) => void, delay: number, stopOnInteraction = false): () => void {
  if (reducedMotion()) return () => {};
  let hover = false;
  let focus = false;
  let stopped = false;
  const listeners: [string, (e: Event) => void][] = [
    ["pointerenter", () => (hover = true)],
    ["pointerleave", () => (hover = false)],
    [
      "focusin",
      () => {
        focus = true;
        stopped ||= stopOnInteraction;
      },
    ],
    ["focusout", (e) => (focus = root.contains((e as FocusEvent).relatedTarget as Node | null))],
    ["pointerdown", () => (stopped ||= stopOnInteraction)],
  ];
  for (const [type, listener] of listeners) root.addEventListener(type, listener);
  const idle = () => !hover && !focus && !stopped;
  let timer: ReturnType<typeof setInterval> | undefined;
  let frame = 0;
  if (delay) {
    timer = setInterval(() => idle() && tick(delay), delay);
  } else {
    let last = performance.now() + 1000; // starts after a second
    const loop = (now: number) => {
      if (now > last && idle()) tick(now - last);
      last = Math.max(last, now);
      frame = requestAnimationFrame(loop);
    };
    frame = requestAnimationFrame(loop);
  }
  return () => {
    clearInterval(timer);
    cancelAnimationFrame(frame);
    for (const [type, listener] of listeners) root.removeEventListener(type, listener);
  };
}

/** Moves a scroll-snap track by one slide, wrapping around at either end. */
function stepTrack(track: HTMLElement, direction: 1 | -1) {
  const [first, second] = track.children as unknown as HTMLElement[];
  if (!first) return;
  const slide = second ? second.offsetLeft - first.offsetLeft : first.offsetWidth;
  const end = track.scrollWidth - track.clientWidth;
  let left = track.scrollLeft + direction * slide;
  if (direction > 0 && track.scrollLeft >= end - 4) left = 0;
  if (direction < 0 && track.scrollLeft <= 4) left = end;
  track.scrollTo({ left, behavior: reducedMotion() ? "auto" : "smooth" });
}

/**
 * A titled row of product cards. `backward` scrolls it continuously to the left at about 60 px a
 * second (the Womens carousel); otherwise it moves one card every 4 s and wraps to the start.
 */
export function ProductCarousel({
  title,
  products,
  backward = false,
  headingId,
}: {
  title: string;
  products: ProductCardData[];
  backward?: boolean;
  /** the title's id, for a carousel also rendered on its own; otherwise a generated one */
  headingId?: string;
}) {
  const { t } = useT();
  const generatedId = useId();
  const id = headingId ?? generatedId;
  const root = useRef<HTMLElement>(null);
  const track = useRef<HTMLUListElement>(null);

  const count = products.length;
  useEffect(() => {
    // Nothing to move with fewer than two cards (and no element at all with none).
    const el = track.current;
    const section = root.current;
    if (!el || !section || count < 2) return;
    if (!backward) return autoplay(section, () => stepTrack(el, 1), 4000);
    let position = el.scrollLeft;
    return autoplay(
      section,
      (elapsed) => {
        // Follow the shopper's own scrolling, then drift on from there.
        if (Math.abs(el.scrollLeft - position) > 2) position = el.scrollLeft;
        position -= elapsed / 16.7;
        if (position <= 0) position = el.scrollWidth - el.clientWidth;
        el.scrollLeft = position;
      },
      0,
    );
  }, [backward, count]);

  if (count === 0) return null;
  return (
    <section ref={root} aria-roledescription="carousel" aria-labelledby={id} className="mt-12">
      <div className="mb-4 flex items-end justify-between gap-4">
        <h2 id={id} className="section-title">
          {title}
        </h2>
        {count > 1 && (
          <div className="flex gap-2">
            <button type="button" className="icon-btn border border-stone-300" aria-label={t("store.carousel.previous")} onClick={() => stepTrack(track.current!, -1)}>
              <Icon name="left" />
            </button>
            <button type="button" className="icon-btn border border-stone-300" aria-label={t("store.carousel.next")} onClick={() => stepTrack(track.current!, 1)}>
              <Icon name="right" />
            </button>
          </div>
        )}
      </div>
      <ul ref={track} className={`carousel-track ${backward ? "drift" : ""}`}>
        {products.map((product) => (
          <li key={product.id}>
            <ProductCard product={product} sizes="(min-width: 1024px) 210px, (min-width: 640px) 31vw, calc(50vw - 24px)" />
          </li>
        ))}
      </ul>
    </section>
  );
}
