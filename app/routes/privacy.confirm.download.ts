import { data } from "react-router";
import { downloadResponse, guestData } from "~/domain/privacy/data-rights.server";
import { privacyTexts } from "~/domain/privacy/privacy-texts.server";
import { readForm, textFields } from "~/http/form.server";
import { detectLocale } from "~/http/language.server";
import type { Route } from "./+types/privacy.confirm.download";

/** A guest's data as a JSON file, for a link that is still valid (docs/decisions/221). */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const { token } = textFields(form, ["token"]);
  const found = await guestData(context, token);
  if (!found) return data({ message: privacyTexts(detectLocale(request).locale).confirm.invalid }, { status: 404, headers: { "Cache-Control": "no-store" } });
  return downloadResponse(found);
}

export function loader() {
  throw data("Not Found", { status: 404 });
}
