import { data, redirect } from "react-router";
import { ProductDetails } from "~/components/product-details";
import { requestBackInStock } from "~/domain/catalogue/back-in-stock.server";
import { parseProductId } from "~/domain/catalogue/catalog.server";
import { productPage } from "~/domain/catalogue/product-page.server";
import { consumeAttempt, TooManyAttempts } from "~/domain/operations/rate-limits.server";
import { productPersonal } from "~/domain/shopper/personal.server";
import { boughtTogether } from "~/domain/catalogue/recommendations.server";
import { productReviews, reviewInput, submitReview } from "~/domain/catalogue/reviews.server";
import { getSessionUser } from "~/http/session.server";
import { fieldErrors, passOnRetryAfter, readForm } from "~/http/form.server";
import { detectLocale, requestTranslator } from "~/http/language.server";
import { redirectWithToast } from "~/http/toast.server";
import { fill, pageContent } from "~/http/content.server";
import { formatLagosTime } from "~/lib/dates";
import { ensureMessages } from "~/lib/i18n.client";
import { imageVariantUrl } from "~/lib/images";
import { absoluteUrl, seoMeta } from "~/http/seo.server";
import { productJsonLd } from "~/domain/catalogue/product-structured-data.server";
import type { Route } from "./+types/_store.shop.$id";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const id = parseProductId(params.id);
  const { locale, content } = pageContent(request);
  const page = id === null ? null : await productPage(context.db, id, locale);
  if (!page) throw data(null, { status: 404 });
  const { product, photos } = page;
  const together = await boughtTogether(context.db, product.id, Date.now(), page.someOrders);
  // A product in the 'often bought together' row is not shown twice.
  const related = page.related.filter((p) => !together.some((t) => t.id === p.id));
  const path = `/shop/${product.id}`;
  const image = photos.length ? imageVariantUrl(photos[0].key, 1024) : null;
  // Per size (docs/decisions/121): offered for the sold-out sizes, of which a signed-in shopper may
  // already wait for some (their parts of the page).
  const soldOut = product.sizes.filter((s) => s.stock <= 0);
  const backInStock = soldOut.length === 0 ? null : { soldOut: soldOut.map((s) => ({ id: s.id, label: s.label })), choose: product.sizes.length > 1 };
  const shopper = await getSessionUser(request, context.db, context.readsOfRequest);
  const personal = await productPersonal(context.db, shopper, product.id, soldOut.length > 0);
  const reviewsPage = Number(new URL(request.url).searchParams.get("reviews") ?? "1");
  const found = await productReviews(context.db, product.id, Number.isSafeInteger(reviewsPage) ? reviewsPage : 1, product);
  // Each review's date as the page shows it, written here: the page's script needs no date formatting.
  const reviews = { ...found, reviews: found.reviews.map((review) => ({ ...review, date: formatLagosTime(review.createdAt, locale) })) };
  const t = requestTranslator(request);
  const promise = (kind: "delivery" | "service") => ({ title: t(`product.details.${kind}Title`), text: t(`product.details.${kind}Text`) });
  return {
    promises: { delivery: promise("delivery"), service: promise("service") },
    product,
    photos,
    related,
    together,
    backInStock,
    reviews,
    reviewPath: path,
    personal: JSON.stringify(personal),
    meta: seoMeta(context, locale, path, {
      title: fill(content.meta.product.title, { name: product.name }),
      description: product.description,
      image,
      type: "product",
      jsonLd: productJsonLd(product, photos, reviews, (to) => absoluteUrl(context, to), path),
    }),
  };
}

// An anonymous visitor's page may be kept by nginx or a CDN (docs/decisions/216).
export const handle = { sharedCache: true };

export const meta = ({ data }: Route.MetaArgs) => data?.meta ?? [];

/** Reached by in-app navigation: the reviews' and alerts' texts are loaded with the page's data. */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [loaded] = await Promise.all([serverLoader(), ensureMessages("product")]);
  return loaded;
}

export const headers = passOnRetryAfter;

/** 'Email me when it's back' on a sold-out product (docs/decisions/133); a review (docs/decisions/134). */
export async function action({ request, params, context }: Route.ActionArgs) {
  const t = requestTranslator(request);
  const id = parseProductId(params.id);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (id === null || (intent !== "notify" && intent !== "review")) throw data(null, { status: 400 });
  const shopper = await getSessionUser(request, context.db);
  if (intent === "review" && !shopper) return redirect(`/auth?redirectTo=${encodeURIComponent(`/shop/${id}#reviews`)}`, 303);
  try {
    if (intent === "review") await consumeAttempt(context, "reviewUser", String(shopper!.id));
    else await consumeAttempt(context, "backInStockIp", context.clientIp);
  } catch (error) {
    if (!(error instanceof TooManyAttempts)) throw error;
    const minutes = Math.max(1, Math.ceil(error.retryAfterSeconds / 60));
    const message = t(intent === "review" ? "product.reviews.errors.tooMany" : "product.backInStock.errors.tooMany", { minutes });
    return data({ error: message, reviewErrors: { form: message } }, { status: 429, headers: { "Retry-After": String(error.retryAfterSeconds) } });
  }
  if (intent === "review") return postReview(context, shopper!.id, id, form, t);
  const email = shopper?.email ?? String(form.get("email") ?? "");
  const sizeId = parseProductId(String(form.get("sizeId") ?? "") || undefined);
  const result = await requestBackInStock(context.db, { productId: id, sizeId, email, userId: shopper?.id ?? null, locale: detectLocale(request).locale });
  if (!result.ok) return data({ error: t(`product.backInStock.errors.${result.problem}`), reviewErrors: {} }, { status: result.problem === "invalidEmail" ? 400 : result.problem === "unknownProduct" ? 404 : 409 });
  return redirectWithToast(context, `/shop/${id}`, { type: "success", key: "product.backInStock.toast.saved" });
}

const REVIEW_PROBLEM_STATUS = { notBought: 403, notDelivered: 403, alreadyReviewed: 409, unknownProduct: 404, eligible: 200 } as const;

async function postReview(context: Route.ActionArgs["context"], userId: number, productId: number, form: FormData, t: ReturnType<typeof requestTranslator>) {
  const parsed = reviewInput.safeParse({ rating: form.get("rating") ?? "", body: String(form.get("body") ?? "") });
  if (!parsed.success) return data({ error: null, reviewErrors: fieldErrors(parsed.error) }, { status: 400 });
  const result = await submitReview(context.db, userId, productId, parsed.data);
  if (!result.ok) return data({ error: null, reviewErrors: { form: t(`product.reviews.errors.${result.problem}`) } }, { status: REVIEW_PROBLEM_STATUS[result.problem] });
  return redirectWithToast(context, `/shop/${productId}#reviews`, { type: "success", key: "product.reviews.thanks" });
}

export default function ProductPage({ loaderData, actionData }: Route.ComponentProps) {
  return <ProductDetails loaderData={loaderData} actionData={actionData} />;
}
