import { data, Form, Link } from "react-router";
import { PageHeader, Pagination, screenHref, secondaryButton, TableScroller } from "~/components/admin/ui";
import { Stars } from "~/components/stars";
import { latestReviews, setReviewHidden } from "~/domain/catalogue/reviews.server";
import { requirePermission } from "~/http/staff-guard.server";
import { pageParam } from "~/lib/admin-params";
import { formatLagosTime } from "~/lib/dates";
import { readForm } from "~/http/form.server";
import { useT } from "~/lib/i18n";
import { requestTranslator } from "~/http/language.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/admin.reviews";

const PATH = "/admin/reviews";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "reviews");
  const page = pageParam(new URL(request.url).searchParams.get("page"));
  const t = requestTranslator(request);
  return { ...(await latestReviews(context.db, page)), title: t("admin.meta.title", { page: t("admin.reviews.title") }) };
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.title }, { name: "robots", content: "noindex" }];
}

/** Hide a review from the shop, or show it again (docs/decisions/134). */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "reviews");
  const form = await readForm(request);
  const id = Number(form.get("id"));
  const intent = form.get("intent");
  if (!Number.isSafeInteger(id) || id <= 0 || (intent !== "hide" && intent !== "show")) throw data(null, { status: 400 });
  await setReviewHidden(context.db, admin.id, id, intent === "hide");
  const back = `${PATH}${new URL(request.url).search}`;
  return redirectWithToast(context, back, { type: "success", key: intent === "hide" ? "admin.reviews.toast.hidden" : "admin.reviews.toast.shown" });
}

export default function AdminReviews({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useT();
  const { reviews, page, pageCount } = loaderData;
  return (
    <>
      <PageHeader title={t("admin.reviews.title")} />
      <p className="mb-4 max-w-3xl text-sm text-stone-700">{t("admin.reviews.intro")}</p>
      {reviews.length === 0 ? (
        <p className="text-sm text-stone-600">{t("admin.reviews.none")}</p>
      ) : (
        <TableScroller label={t("admin.reviews.title")} className="rounded-xl border border-stone-200 bg-white shadow-sm">
          <table className="w-full text-left text-sm">
            <thead className="bg-stone-50 text-stone-600">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">{t("admin.reviews.product")}</th>
                <th scope="col" className="px-3 py-2 font-medium">{t("admin.reviews.rating")}</th>
                <th scope="col" className="px-3 py-2 font-medium">{t("admin.reviews.review")}</th>
                <th scope="col" className="px-3 py-2 font-medium">{t("admin.reviews.status")}</th>
                <th scope="col" className="px-3 py-2 font-medium"><span className="sr-only">{t("admin.reviews.hide")}</span></th>
              </tr>
            </thead>
            <tbody>
              {reviews.map((review) => (
                <tr key={review.id} className="border-t border-stone-100 align-top" data-review={review.id}>
                  <td className="px-3 py-2" data-label={t("admin.reviews.product")}>
                    <Link to={`/shop/${review.productId}`} className="underline">{review.productName}</Link>
                  </td>
                  <td className="px-3 py-2" data-label={t("admin.reviews.rating")}>
                    <Stars rating={review.rating} />
                  </td>
                  <td className="max-w-md px-3 py-2" data-label={t("admin.reviews.review")}>
                    <p className="whitespace-pre-line break-words">{review.body}</p>
                    <p className="mt-1 text-xs text-stone-600">{t("admin.reviews.author")} {review.author}, {formatLagosTime(review.createdAt, locale)}</p>
                  </td>
                  <td className="px-3 py-2" data-label={t("admin.reviews.status")}>{t(review.hidden ? "admin.reviews.hidden" : "admin.reviews.visible")}</td>
                  <td className="px-3 py-2">
                    <Form method="post">
                      <input type="hidden" name="id" value={review.id} />
                      <input type="hidden" name="intent" value={review.hidden ? "show" : "hide"} />
                      <button type="submit" className={secondaryButton}>
                        {t(review.hidden ? "admin.reviews.show" : "admin.reviews.hide")}
                      </button>
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroller>
      )}
      <Pagination page={page} pages={pageCount} href={(p) => screenHref(PATH, { page: p })} />
    </>
  );
}
