import { Plus } from "lucide-react";
import { Link, useActionData, useFetcher } from "react-router";
import { useT } from "~/lib/i18n";
import {
  ConfirmDelete,
  Dialog,
  Field,
  inputClass,
  PageHeader,
  Pagination,
  primaryButton,
  RowActions,
  screenHref,
  SearchBox,
  secondaryButton,
  ListTable,
} from "./ui";

type Kind = "category" | "brand";

export interface TaxonomyScreenData {
  kind: Kind;
  q: string;
  page: number;
  pages: number;
  total: number;
  rows: { id: number; name: string; nameEs: string | null; products: number; archived: number }[];
  creating: boolean;
  renaming: { id: number; name: string; nameEs: string | null } | null;
  deleting: {
    id: number;
    name: string;
    products: number;
    archivedCount: number;
    archived: { id: number; name: string }[];
    targets: { id: number; name: string }[];
  } | null;
}

interface ActionResult {
  intent?: unknown;
  errors?: { name?: string; nameEs?: string };
  values?: { name?: string; nameEs?: string };
}

const PATHS: Record<Kind, string> = { category: "/admin/categories", brand: "/admin/brands" };
const AREA: Record<Kind, string> = { category: "admin.categories", brand: "admin.brands" };

function NameForm({
  data,
  intent,
  id,
  initial,
  initialEs = "",
  closeHref,
}: {
  data: TaxonomyScreenData;
  intent: "create" | "rename";
  id?: number;
  initial: string;
  initialEs?: string;
  closeHref: string;
}) {
  const { t } = useT();
  const area = AREA[data.kind];
  const fetcher = useFetcher<ActionResult>();
  const actionData = useActionData<ActionResult>();
  const result = fetcher.data ?? (actionData?.intent === intent ? actionData : undefined);
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" noValidate className="space-y-4" preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      {id && <input type="hidden" name="id" value={id} />}
      <input type="hidden" name="q" value={data.q} />
      <input type="hidden" name="page" value={data.page} />
      <Field label={t(`${area}.fields.name`)} error={result?.errors?.name}>
        {(props) => <input {...props} name="name" lang="en" defaultValue={result?.values?.name ?? initial} maxLength={200} className={inputClass} />}
      </Field>
      {data.kind === "category" && (
        <Field label={t("admin.categories.fields.nameEs")} hint={t("admin.categories.fields.nameEsHint")} error={result?.errors?.nameEs}>
          {(props) => <input {...props} name="nameEs" lang="es" defaultValue={result?.values?.nameEs ?? initialEs} maxLength={200} className={inputClass} />}
        </Field>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <Link to={closeHref} className={secondaryButton} preventScrollReset replace>
          {t("admin.common.cancel")}
        </Link>
        <button type="submit" className={primaryButton} disabled={busy}>
          {intent === "create" ? (busy ? t(`${area}.creating`) : t(`${area}.create`)) : busy ? t("admin.common.saving") : t("admin.common.save")}
        </button>
      </div>
    </fetcher.Form>
  );
}

/** What still holds a category or brand: products on sale block it; archived ones move on delete. */
function DeleteHolders({ deleting }: { deleting: NonNullable<TaxonomyScreenData["deleting"]> }) {
  const { t } = useT();
  if (deleting.products > 0) return <p className="mt-3 text-sm text-red-700">{t("admin.taxonomy.onSaleHolders", { count: deleting.products })}</p>;
  if (deleting.archivedCount === 0) return null;
  const more = deleting.archivedCount - deleting.archived.length;
  return (
    <div className="mt-3 space-y-3 text-sm">
      <p className="text-stone-700">{t("admin.taxonomy.archivedHolders", { count: deleting.archivedCount })}</p>
      <ul className="list-disc space-y-1 pl-5 text-stone-700">
        {deleting.archived.map((p) => (
          <li key={p.id} className="break-words">
            {p.name}
          </li>
        ))}
        {more > 0 && <li>{t("admin.taxonomy.archivedMore", { count: more })}</li>}
      </ul>
      {deleting.targets.length === 0 ? (
        <p className="text-red-700">{t("admin.taxonomy.noTarget")}</p>
      ) : (
        <Field label={t("admin.taxonomy.moveTo")}>
          {(props) => (
            <select {...props} name="moveTo" required className={inputClass}>
              {deleting.targets.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
    </div>
  );
}

/** The categories and brands screens: search, an Id/Name table, add, rename and delete. */
export function TaxonomyScreen({ data }: { data: TaxonomyScreenData }) {
  const { t } = useT();
  const area = AREA[data.kind];
  const path = PATHS[data.kind];
  const listHref = (page = data.page) => screenHref(path, { q: data.q, page });
  const closeHref = listHref();
  const remover = useFetcher({ key: `admin-${data.kind}-delete` });
  const removingId = remover.state !== "idle" ? Number(remover.formData?.get("id")) : null;
  const rows = data.rows.filter((r) => r.id !== removingId);
  return (
    <>
      <PageHeader title={t(`${area}.title`)}>
        <Link to={screenHref(path, { q: data.q, page: data.page, new: 1 })} className={primaryButton} preventScrollReset>
          <Plus aria-hidden="true" size={18} />
          {t(`${area}.add`)}
        </Link>
      </PageHeader>
      <SearchBox q={data.q} placeholder={t(`${area}.search`)} label={t(`${area}.searchLabel`)} />
      <p role="status" aria-live="polite" className="mt-3 min-h-5 text-sm text-stone-600">
        {removingId ? t("admin.common.deleting") : ""}
      </p>
      <ListTable
        label={t(`${area}.title`)}
        className="mt-2"
        tableClassName="w-full min-w-[28rem] text-left text-sm"
        columns={[
          { key: "id", label: t("admin.taxonomy.columns.id") },
          { key: "name", label: t("admin.taxonomy.columns.name") },
          ...(data.kind === "category" ? [{ key: "nameEs", label: t("admin.taxonomy.columns.nameEs") }] : []),
          { key: "products", label: t("admin.taxonomy.columns.products") },
          { key: "archived", label: t("admin.taxonomy.columns.archived") },
          { key: "action", label: t("admin.taxonomy.columns.action"), right: true },
        ]}
        empty={rows.length === 0 && (data.q ? t(`${area}.noMatch`, { q: data.q }) : t(`${area}.empty`))}
      >
        {rows.map((row) => (
          <tr key={row.id} className="border-t border-stone-100" data-row={row.id}>
            <td className="px-3 py-2 tabular-nums text-stone-500">{row.id}</td>
            <td className="px-3 py-2 font-medium text-ink">{row.name}</td>
            {data.kind === "category" && (
              <td className="px-3 py-2" lang="es">
                {row.nameEs ?? ""}
              </td>
            )}
            <td className="px-3 py-2 tabular-nums">{row.products}</td>
            <td className="px-3 py-2 tabular-nums text-stone-500">{row.archived}</td>
            <RowActions
              editHref={screenHref(path, { q: data.q, page: data.page, rename: row.id })}
              editLabel={t("admin.taxonomy.renameLabel", { name: row.name })}
              deleteHref={screenHref(path, { q: data.q, page: data.page, delete: row.id })}
              deleteLabel={t("admin.taxonomy.deleteLabel", { name: row.name })}
            />
          </tr>
        ))}
      </ListTable>
      <Pagination page={data.page} pages={data.pages} href={listHref} />

      {data.creating && (
        <Dialog title={t(`${area}.addTitle`)} closeHref={closeHref}>
          <NameForm data={data} intent="create" initial="" closeHref={closeHref} />
        </Dialog>
      )}
      {data.renaming && (
        <Dialog title={t(`${area}.renameTitle`)} closeHref={closeHref}>
          <NameForm
            key={data.renaming.id}
            data={data}
            intent="rename"
            id={data.renaming.id}
            initial={data.renaming.name}
            initialEs={data.renaming.nameEs ?? ""}
            closeHref={closeHref}
          />
        </Dialog>
      )}
      {data.deleting && data.deleting.id !== removingId && (
        <ConfirmDelete
          remover={remover}
          title={t(`${area}.deleteTitle`)}
          question={t(`${area}.deleteConfirm`, { name: data.deleting.name })}
          id={data.deleting.id}
          q={data.q}
          page={data.page}
          closeHref={closeHref}
          blocked={data.deleting.products > 0 || (data.deleting.archivedCount > 0 && data.deleting.targets.length === 0)}
          confirmLabel={data.deleting.archivedCount > 0 ? t("admin.taxonomy.moveAndDelete") : undefined}
        >
          <DeleteHolders deleting={data.deleting} />
        </ConfirmDelete>
      )}
    </>
  );
}
