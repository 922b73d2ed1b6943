import { escapeHtml } from "./html";
import type { Translate } from "./i18n";
import { keptBytes } from "./kept-bytes.server";
import { formatNaira } from "./money";
import { NOBODY, NOBODY_ON_PRODUCT, type PersonalState, type ProductPersonal, waitsForAll } from "./personal";
import { type PagePart, SplicedGzip, sharedPiece } from "./spliced-gzip.server";

/**
 * Makes a cached anonymous storefront page one shopper's (docs/decisions/141). The page carries its
 * shopper's parts in places marked `data-pp` (header name and Sign out, admin links, cart badge and
 * total, hearts) and in the root loader's `personal` string; these are filled in exactly as React
 * would have rendered them for that shopper, so the browser hydrates without a difference.
 *
 * The page is cut once into fixed pieces and places (`compilePersonalTemplate`, kept with the cached
 * page; the pieces are views of its bytes, not copies); each request then only chooses or writes the
 * few bytes of each place (`fillPersonalTemplate`), as a list of parts that alternate between the
 * two, so the page can be compressed by its parts (spliced-gzip.server.ts).
 * A page whose places are not all as expected gets no template, and is rendered in full instead.
 *
 * A product page (docs/decisions/150) also has a signed-in shopper's review and back-in-stock forms,
 * every variant marked `data-pp` and all but one `hidden`, an option per sold-out size, an empty box
 * for the recently viewed row, and the product loader's own `personal` string.
 */

/** What a toggled place depends on: whether it is switched from the anonymous page's markup. */
type Condition = "signedIn" | "admin" | "eligible" | "notDelivered" | "reviewed" | "waiting";

type Place =
  | { kind: "toggle"; when: Condition; original: Buffer; changed: Buffer }
  | { kind: "firstName" | "cartLines" | "cartItems" | "cartTotal" | "data" | "productData" | "alertWaiting" | "alertSignedIn" | "recent" }
  | { kind: "heart"; productId: number; original: Buffer; pressed: Buffer }
  | { kind: "option"; sizeId: number; original: Buffer };

export interface PersonalTemplate {
  /** fixed bytes: one more than there are places */
  pieces: Buffer[];
  places: Place[];
  /** a product page (docs/decisions/150), with its back-in-stock form's sold-out sizes (null: one size; no form: undefined) */
  product?: { soldOut?: number[] | null };
  /** the anonymous page's parts compressed once, for gzip (docs/decisions/175) */
  spliced: SplicedGzip;
}

/** A product page's shopper parts (docs/decisions/150), for the filling in. */
export interface ProductFill {
  personal: ProductPersonal;
  /** the recently viewed row's markup, in pieces (none for no row) */
  recentHtml: Buffer[];
  /** each of the row's cards as JSON, a piece of the data script (`dataScriptPiece`), in the row's order, each after the first with its comma before it */
  recentData?: Buffer[];
}

const MARK = 'data-pp="';
/** Every storefront page has the header: a page without all of these is not one this knows. */
const HEADER_PLACES = ["guest", "member", "first-name", "cart-lines", "cart-items", "cart-total"];
/** A product page has these besides (docs/decisions/150). */
const PRODUCT_PLACES = ["review-sign-in", "review-not-delivered", "review-done", "review-form", "recent"];
const ALERT_PLACES = ["alert-waiting", "alert-form", "alert-intro", "alert-signed-in", "alert-email", "alert-email-input"];

/**
 * The places that are switched: when, and how the anonymous page's tag changes then (`hidden` taken
 * away or put at its end, or `disabled` put at the end of an input, before its name as React writes it).
 */
const TOGGLES: Record<string, { when: Condition; change: "show" | "hide" | "disable" }> = {
  guest: { when: "signedIn", change: "hide" },
  member: { when: "signedIn", change: "show" },
  admin: { when: "admin", change: "show" },
  "review-sign-in": { when: "signedIn", change: "hide" },
  "review-not-delivered": { when: "notDelivered", change: "show" },
  "review-done": { when: "reviewed", change: "show" },
  "review-form": { when: "eligible", change: "show" },
  "alert-waiting": { when: "waiting", change: "show" },
  "alert-form": { when: "waiting", change: "hide" },
  "alert-intro": { when: "signedIn", change: "hide" },
  "alert-signed-in": { when: "signedIn", change: "show" },
  "alert-email": { when: "signedIn", change: "hide" },
  "alert-email-input": { when: "signedIn", change: "disable" },
};

function changedTag(tag: string, change: "show" | "hide" | "disable"): string {
  if (change === "show") return tag.replace(/ hidden=""(\/?>)$/, "$1");
  if (change === "hide") return tag.replace(/(?<!\/)>$/, ' hidden="">');
  // React writes an input's name last.
  return tag.replace(/( name="[^"]*")?\/>$/, ' disabled=""$1/>');
}

/** Cuts an anonymous page into pieces and places, or null when it is not the expected shape. */
export function compilePersonalTemplate(page: Buffer, t: Translate): PersonalTemplate | null {
  // One character per byte, so positions are byte offsets; text put in is converted the same way.
  const html = page.toString("latin1");
  const bytes = (text: string) => keptBytes(Buffer.from(text, "latin1"));
  // The anonymous page's own bytes, so a place left as it was is the same buffer as the page's.
  const view = (from: number, to: number) => page.subarray(from, to);
  const once = (text: string) => {
    const at = html.indexOf(text);
    return at !== -1 && html.indexOf(text, at + 1) === -1 ? at : at === -1 ? -1 : -2;
  };
  const anonymous = scriptString(JSON.stringify(NOBODY));
  const dataAt = once(anonymous);
  if (dataAt < 0) return null;
  const anonymousProduct = scriptString(JSON.stringify(NOBODY_ON_PRODUCT));
  const productDataAt = once(anonymousProduct);
  if (productDataAt === -2) return null;
  const markupEnd = productDataAt === -1 ? dataAt : Math.min(dataAt, productDataAt);
  const removeLabel = Buffer.from(escapeHtml(t("common.product.removeFromWishlist"))).toString("latin1");

  const cuts: { from: number; to: number; place: Place }[] = [];
  const seen = new Set<string>();
  const soldOut: number[] = [];
  for (let at = html.indexOf(MARK); at !== -1 && at < markupEnd; at = html.indexOf(MARK, at + MARK.length)) {
    const kind = html.slice(at + MARK.length, html.indexOf('"', at + MARK.length));
    const tagStart = html.lastIndexOf("<", at);
    const tagEnd = html.indexOf(">", at) + 1;
    const tag = html.slice(tagStart, tagEnd);
    const contentEnd = html.indexOf("<", tagEnd);
    // A product page's places are each there once.
    if (seen.has(kind) && (PRODUCT_PLACES.includes(kind) || kind.startsWith("alert-"))) return null;
    seen.add(kind);
    const content = (kind: "firstName" | "cartLines" | "cartItems" | "cartTotal" | "alertWaiting" | "alertSignedIn" | "recent", to = contentEnd) =>
      cuts.push({ from: tagEnd, to, place: { kind } });
    let ok = true;
    const toggle = TOGGLES[kind];
    if (toggle) {
      const changed = changedTag(tag, toggle.change);
      ok = changed !== tag;
      cuts.push({ from: tagStart, to: tagEnd, place: { kind: "toggle", when: toggle.when, original: view(tagStart, tagEnd), changed: bytes(changed) } });
      if (kind === "alert-waiting") content("alertWaiting");
      if (kind === "alert-signed-in") content("alertSignedIn");
    } else if (kind === "first-name") content("firstName");
    else if (kind === "cart-lines") content("cartLines");
    else if (kind === "cart-items") content("cartItems");
    else if (kind === "cart-total") content("cartTotal");
    // Empty on the anonymous page: the signed-in shopper's row is written into it.
    else if (kind === "recent") {
      ok = html.startsWith("</div>", tagEnd);
      content("recent", tagEnd);
    }
    else if (kind === "alert-sizes") {
      // <select …><option value="ID">label</option>…</select>: a size the shopper waits for is left out.
      let from = tagEnd;
      for (let option = /^<option value="(\d+)">[^<]*<\/option>/.exec(html.slice(from, from + 300)); option; option = /^<option value="(\d+)">[^<]*<\/option>/.exec(html.slice(from, from + 300))) {
        const sizeId = Number(option[1]);
        soldOut.push(sizeId);
        cuts.push({ from, to: from + option[0].length, place: { kind: "option", sizeId, original: view(from, from + option[0].length) } });
        from += option[0].length;
      }
      ok = soldOut.length > 0 && html.startsWith("</select>", from);
    } else if (kind === "heart") {
      // <input type="hidden" name="productId" value="ID"/><button … data-pp="heart" aria-label=… aria-pressed="false" title=…><svg … fill="none"
      const productId = Number(/value="(\d+)"\/>$/.exec(html.slice(Math.max(0, tagStart - 24), tagStart))?.[1]);
      const fillEnd = html.indexOf(' fill="none"', tagEnd) + ' fill="none"'.length;
      const svgStart = html.indexOf("<svg ", tagEnd);
      const pressedTag = tag.replace(/ aria-label="[^"]*" aria-pressed="false" title="[^"]*"/, ` aria-label="${removeLabel}" aria-pressed="true" title="${removeLabel}"`);
      ok = productId > 0 && svgStart === tagEnd && fillEnd > svgStart && pressedTag !== tag;
      if (ok) {
        const pressed = pressedTag + html.slice(tagEnd, fillEnd).replace(/ fill="none"$/, ' fill="currentColor"');
        cuts.push({ from: tagStart, to: fillEnd, place: { kind: "heart", productId, original: view(tagStart, fillEnd), pressed: bytes(pressed) } });
      }
    } else ok = false;
    if (!ok) return null;
  }
  if (HEADER_PLACES.some((kind) => !seen.has(kind))) return null;
  cuts.push({ from: dataAt, to: dataAt + anonymous.length, place: { kind: "data" } });

  let product: PersonalTemplate["product"];
  if (productDataAt !== -1) {
    // A product page: every part of a signed-in shopper's is in it, and the form for a sold-out one is whole.
    if (PRODUCT_PLACES.some((kind) => !seen.has(kind))) return null;
    const alert = ALERT_PLACES.filter((kind) => seen.has(kind)).length;
    if (alert !== 0 && alert !== ALERT_PLACES.length) return null;
    product = alert ? { soldOut: seen.has("alert-sizes") ? soldOut : null } : {};
    cuts.push({ from: productDataAt, to: productDataAt + anonymousProduct.length, place: { kind: "productData" } });
  } else if (PRODUCT_PLACES.concat(ALERT_PLACES, ["alert-sizes"]).some((kind) => seen.has(kind))) return null;
  cuts.sort((a, b) => a.from - b.from);

  const pieces: Buffer[] = [];
  const parts: Buffer[] = [];
  // A toggle's switched tag is the same for every shopper it is switched for (all those signed in).
  const alternatives: (Buffer | undefined)[] = [];
  let copied = 0;
  for (const cut of cuts) {
    if (cut.from < copied) return null;
    pieces.push(view(copied, cut.from));
    parts.push(pieces[pieces.length - 1], view(cut.from, cut.to));
    alternatives[parts.length - 1] = cut.place.kind === "toggle" ? cut.place.changed : undefined;
    copied = cut.to;
  }
  pieces.push(view(copied, page.length));
  parts.push(pieces[pieces.length - 1]);
  return { pieces, places: cuts.map((c) => c.place), ...(product ? { product } : {}), spliced: new SplicedGzip(parts, alternatives) };
}

/**
 * This shopper's page, as its parts: each fixed piece, then what its place holds for this shopper (a
 * place left out is an empty part); `product`: their parts of a product page.
 */
export function fillPersonalTemplate(template: PersonalTemplate, state: PersonalState, t: Translate, product?: ProductFill): PagePart[] {
  const { user, cart } = state;
  const wished = new Set(state.wishlist);
  const mine = product?.personal ?? NOBODY_ON_PRODUCT;
  const waited = new Set(mine.waited);
  const alert = template.product?.soldOut;
  const holds: Record<Condition, boolean> = {
    signedIn: user !== null,
    admin: user?.role === "admin",
    eligible: mine.review === "eligible",
    notDelivered: mine.review === "notDelivered",
    reviewed: mine.review === "alreadyReviewed",
    waiting: alert !== undefined && waitsForAll(user !== null, alert, mine.waited),
  };
  const email = user?.email ?? "";
  const out: PagePart[] = [];
  template.places.forEach((place, i) => {
    out.push(template.pieces[i]);
    switch (place.kind) {
      case "toggle":
        out.push(holds[place.when] ? place.changed : place.original);
        break;
      case "heart":
        out.push(wished.has(place.productId) ? place.pressed : place.original);
        break;
      case "option":
        out.push(waited.has(place.sizeId) ? NOTHING : place.original);
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
      case "alertWaiting":
        out.push(Buffer.from(escapeHtml(t("product.backInStock.waiting", { email }))));
        break;
      case "alertSignedIn":
        out.push(Buffer.from(escapeHtml(t("product.backInStock.signedIn", { email }))));
        break;
      case "recent":
        out.push(product?.recentHtml ?? NOTHING);
        break;
      case "data":
        out.push(Buffer.from(scriptString(JSON.stringify(state))));
        break;
      case "productData":
        out.push(productDataScript(mine, product?.recentData));
        break;
    }
  });
  out.push(template.pieces[template.pieces.length - 1]);
  return out;
}

const NOTHING = Buffer.alloc(0);

/** How a string loader value appears in the page's data script: turbo-stream JSON, in a JS string, HTML-safe. */
function scriptString(value: string): string {
  return `${SCRIPT_QUOTE}${dataScriptText(value)}${SCRIPT_QUOTE}`;
}

/** The quote around a string value in the data script: `"`, escaped in the script's own string. */
const SCRIPT_QUOTE = '\\"';

/**
 * A piece of a string loader value as the data script holds it, without the value's quotes. Each
 * character is escaped on its own, so a value's pieces escaped one by one and joined are the value
 * escaped whole: a piece kept (a recently viewed card) is escaped once.
 */
function dataScriptText(piece: string): string {
  return JSON.stringify(JSON.stringify(piece).slice(1, -1))
    .slice(1, -1)
    .replace(/[&><\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** `dataScriptText` as bytes, for a piece to keep. */
export function dataScriptPiece(piece: string): Buffer {
  return Buffer.from(dataScriptText(piece));
}

/**
 * The product loader's `personal` value in the data script, in pieces. With the recently viewed cards'
 * pieces given (each after the first with its comma), only the rest of the value is escaped here and
 * the cards' pieces are put in between.
 */
export function productDataScript(mine: ProductPersonal, cards: Buffer[] | undefined): Buffer[] {
  const json = cards && mine.recent?.length === cards.length ? JSON.stringify({ ...mine, recent: [] }) : null;
  // The row last in the value, as the loader writes it: its cards go between `[` and `]}`.
  if (json === null || !json.endsWith(ROW_END)) return [Buffer.from(scriptString(JSON.stringify(mine)))];
  return [Buffer.from(`${SCRIPT_QUOTE}${dataScriptText(json.slice(0, -ROW_END.length))}`), ...cards!, ROW_CLOSE];
}
const ROW_END = "]}";
const ROW_CLOSE = sharedPiece(Buffer.from(`${dataScriptText(ROW_END)}${SCRIPT_QUOTE}`));
