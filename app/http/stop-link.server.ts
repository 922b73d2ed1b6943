import { data } from "react-router";
import { readForm } from "./form.server";
import { requestTranslator } from "./language.server";
import type { Translate } from "~/lib/i18n";

/**
 * A stop link in a marketing message (back-in-stock e-mails, WhatsApp and SMS reminders): opening it
 * only asks; the button stops (a mail or link scanner that opens the page stops nothing). Its texts are
 * written on the server under `<prefix>.title|ask|confirm|unknown|done`.
 */
export async function stopLinkPage(request: Request, prefix: string, isKnown: (token: string) => Promise<boolean>) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const t = requestTranslator(request);
  const known = await isKnown(token);
  const texts = { title: t(`${prefix}.title`), ask: t(`${prefix}.ask`), confirm: t(`${prefix}.confirm`), unknown: t(`${prefix}.unknown`) };
  return data({ token: known ? token : null, title: texts.title, texts }, { status: known ? 200 : 404, headers: { "Cache-Control": "private, no-store" } });
}

/** The button's answer: `stop` answers what it stopped (null: nothing, an unknown or used token). */
export async function stopLinkAction<T>(request: Request, prefix: string, stop: (token: string) => Promise<T | null>, done: (t: Translate, stopped: T) => string) {
  const form = await readForm(request);
  const stopped = await stop(String(form.get("token") ?? ""));
  const t = requestTranslator(request);
  return data({ message: stopped ? done(t, stopped) : t(`${prefix}.unknown`) }, { status: stopped ? 200 : 404 });
}
