import { Download } from "lucide-react";
import { useT } from "~/lib/i18n";
import { OrderFilterFields, type OrderFilterValues } from "./order-filter-fields";
import { inputClass, secondaryButton } from "./ui";

/**
 * The accountant's download: a plain GET form, so the browser saves the file with or without JavaScript.
 * It starts from the filters the orders list shows.
 */
export function OrderExportForm({ values }: { values: OrderFilterValues }) {
  const { t } = useT();
  return (
    <details className="mb-4 rounded-xl border border-stone-200 bg-white px-4 py-3 shadow-sm" data-order-export>
      <summary className="flex min-h-11 cursor-pointer items-center gap-2 text-sm font-medium text-ink">
        <Download aria-hidden="true" size={16} />
        {t("admin.orders.export.title")}
      </summary>
      <form method="get" action="/admin/orders/export" className="mt-3 flex flex-wrap items-end gap-3">
        <label className="text-sm">
          <span className="block text-stone-600">{t("admin.orders.export.from")}</span>
          <input type="date" name="from" className={inputClass} />
        </label>
        <label className="text-sm">
          <span className="block text-stone-600">{t("admin.orders.export.to")}</span>
          <input type="date" name="to" className={inputClass} />
        </label>
        <OrderFilterFields values={values} idPrefix="export" />
        <button type="submit" className={secondaryButton}>
          {t("admin.orders.export.download")}
        </button>
        <p className="basis-full text-xs text-stone-500">{t("admin.orders.export.hint")}</p>
      </form>
    </details>
  );
}
