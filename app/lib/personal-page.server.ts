import { escapeHtml } from "./html";
import type { Translate } from "./i18n";
import { formatNaira } from "./money";
import { NOBODY, type PersonalState } from "./personal";

/**
 * Makes a cached anonymous storefront page one shopper's (docs/decisions/141). The page carries its
 * shopper's parts in places marked `data-pp` (header name and Sign out, admin links, cart badge and
 * total, hearts) and in the root loader's `personal` string; these are filled in exactly as React
 * would have rendered them for that shopper, so the browser hydrates without a difference.
 *
 * The page is cut once into fixed pieces and places (`compilePersonalTemplate`, kept with the cached
 * page; the pieces are views of its bytes, not copies); each request then only chooses or writes the
 * few bytes of each place (`fillPersonalTemplate`).
 * A page whose places are not all as expected gets no template, and is rendered in full instead.
 */

type Place =
  | { kind: "toggle"; when: "signedIn" | "admin"; original: Buffer; changed: Buffer }
  | { kind: "firstName" | "cartLines" | "cartItems" | "cartTotal" | "data" }
  | { kind: "heart"; productId: number; original: Buffer; pressed: Buffer };

export interface PersonalTemplate {
  /** fixed bytes: one more than there are places */
  pieces: Buffer[];
  places: Place[];
}

const MARK = 'data-pp="';
/** Every storefront page has the header: a page without all of these is not one this knows. */
const HEADER_PLACES = ["guest", "member", "first-name", "cart-lines", "cart-items", "cart-total"];

/** Cuts an anonymous page into pieces and places, or null when it is not the expected shape. */
export function compilePersonalTemplate(page: Buffer, t: Translate): PersonalTemplate | null {
  // One character per byte, so positions are byte offsets; text put in is converted the same way.
  const html = page.toString("latin1");
  const bytes = (text: string) => Buffer.from(text, "latin1");
  const anonymous = scriptString(JSON.stringify(NOBODY));
  const dataAt = html.lastIndexOf(anonymous);
  if (dataAt === -1 || html.indexOf(anonymous) !== dataAt) return null;
  const removeLabel = Buffer.from(escapeHtml(t("common.product.removeFromWishlist"))).toString("latin1");

  const cuts: { from: number; to: number; place: Place }[] = [];
  const seen = new Set<string>();
  for (let at = html.indexOf(MARK); at !== -1 && at < dataAt; at = html.indexOf(MARK, at + MARK.length)) {
    const kind = html.slice(at + MARK.length, html.indexOf('"', at + MARK.length));
    const tagStart = html.lastIndexOf("<", at);
    const tagEnd = html.indexOf(">", at) + 1;
    const tag = html.slice(tagStart, tagEnd);
    const contentEnd = html.indexOf("<", tagEnd);
    seen.add(kind);
    const toggle = (when: "signedIn" | "admin", changed: string) => {
      if (changed === tag) return false;
      cuts.push({ from: tagStart, to: tagEnd, place: { kind: "toggle", when, original: bytes(tag), changed: bytes(changed) } });
      return true;
    };
    const content = (kind: "firstName" | "cartLines" | "cartItems" | "cartTotal") => cuts.push({ from: tagEnd, to: contentEnd, place: { kind } });
    let ok = true;
    if (kind === "guest") ok = toggle("signedIn", tag.replace(/>$/, ' hidden="">'));
    else if (kind === "member") ok = toggle("signedIn", tag.replace(' hidden=""', ""));
    else if (kind === "admin") ok = toggle("admin", tag.replace(' hidden=""', ""));
    else if (kind === "first-name") content("firstName");
    else if (kind === "cart-lines") content("cartLines");
    else if (kind === "cart-items") content("cartItems");
    else if (kind === "cart-total") content("cartTotal");
    else if (kind === "heart") {
      // <input type="hidden" name="productId" value="ID"/><button … data-pp="heart" aria-label=… aria-pressed="false" title=…><svg … fill="none"
      const productId = Number(/value="(\d+)"\/>$/.exec(html.slice(Math.max(0, tagStart - 24), tagStart))?.[1]);
      const fillEnd = html.indexOf(' fill="none"', tagEnd) + ' fill="none"'.length;
      const svgStart = html.indexOf("<svg ", tagEnd);
      const pressedTag = tag.replace(/ aria-label="[^"]*" aria-pressed="false" title="[^"]*"/, ` aria-label="${removeLabel}" aria-pressed="true" title="${removeLabel}"`);
      ok = productId > 0 && svgStart === tagEnd && fillEnd > svgStart && pressedTag !== tag;
      if (ok) {
        const original = html.slice(tagStart, fillEnd);
        const pressed = pressedTag + html.slice(tagEnd, fillEnd).replace(/ fill="none"$/, ' fill="currentColor"');
        cuts.push({ from: tagStart, to: fillEnd, place: { kind: "heart", productId, original: bytes(original), pressed: bytes(pressed) } });
      }
    }
    if (!ok) return null;
  }
  if (HEADER_PLACES.some((kind) => !seen.has(kind))) return null;
  cuts.push({ from: dataAt, to: dataAt + anonymous.length, place: { kind: "data" } });

  const pieces: Buffer[] = [];
  let copied = 0;
  for (const cut of cuts) {
    pieces.push(page.subarray(copied, cut.from));
    copied = cut.to;
  }
  pieces.push(page.subarray(copied));
  return { pieces, places: cuts.map((c) => c.place) };
}

/** This shopper's page, as the list of byte pieces to send. */
export function fillPersonalTemplate(template: PersonalTemplate, state: PersonalState, t: Translate): Buffer[] {
  const { user, cart } = state;
  const wished = new Set(state.wishlist);
  const out: Buffer[] = [];
  template.places.forEach((place, i) => {
    out.push(template.pieces[i]);
    switch (place.kind) {
      case "toggle": {
        const on = place.when === "signedIn" ? user !== null : user?.role === "admin";
        out.push(on ? place.changed : place.original);
        break;
      }
      case "heart":
        out.push(wished.has(place.productId) ? place.pressed : place.original);
        break;
      case "firstName":
        out.push(Buffer.from(escapeHtml(user?.firstName ?? "")));
        break;
      case "cartLines":
        out.push(Buffer.from(String(cart.lines)));
        break;
      case "cartItems":
        out.push(Buffer.from(escapeHtml(` ${t("store.header.cartItems", { count: cart.lines })} `)));
        break;
      case "cartTotal":
        out.push(Buffer.from(escapeHtml(formatNaira(cart.total))));
        break;
      case "data":
        out.push(Buffer.from(scriptString(JSON.stringify(state))));
        break;
    }
  });
  out.push(template.pieces[template.pieces.length - 1]);
  return out;
}

/** How a string loader value appears in the page's data script: turbo-stream JSON, in a JS string, HTML-safe. */
function scriptString(value: string): string {
  return JSON.stringify(JSON.stringify(value))
    .slice(1, -1)
    .replace(/[&><\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
