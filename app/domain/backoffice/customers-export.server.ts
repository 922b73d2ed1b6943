import { sql } from "kysely";
import type { Db } from "~/db/client.server";
import { nairaCell, neutraliseFormula, toCsv } from "../catalogue/catalogue-csv.server";
import { guestSummaries } from "./customers.server";
import type { StaffView } from "./staff-view.server";

/**
 * The customers as a CSV (docs/decisions/114, 217): every account, then every guest (one e-mail's
 * checkout orders without an account), marked in the `kind` column. `view` (docs/decisions/218):
 * without `contact` the e-mail and phone columns stay empty, without `prices` the amount spent does.
 */

export const CUSTOMER_EXPORT_COLUMNS = ["kind", "name", "email", "phone", "role", "since", "orders", "spent_ngn", "last_order"] as const;

/** "2026-11-23 14:05" in Lagos time. */
function lagosStamp(iso: string | null): string {
  return iso ? new Date(new Date(iso).getTime() + 60 * 60 * 1000).toISOString().slice(0, 16).replace("T", " ") : "";
}

const BATCH = 500;

export async function exportCustomersCsv(db: Db, view: StaffView): Promise<string> {
  const rows: string[][] = [[...CUSTOMER_EXPORT_COLUMNS]];
  const contact = (value: string | null) => (view.contact ? neutraliseFormula(value ?? "") : "");
  const spent = (kobo: number) => (view.prices ? nairaCell(kobo) : "");
  let afterId = 0;
  for (;;) {
    const accounts = await db
      .selectFrom("users as u")
      .leftJoin("orders as o", "o.user_id", "u.id")
      .where("u.id", ">", afterId)
      .groupBy(["u.id", "u.email", "u.first_name", "u.last_name", "u.phone", "u.role", "u.created_at"])
      .select((eb) => [
        "u.id",
        "u.email",
        "u.first_name",
        "u.last_name",
        "u.phone",
        "u.role",
        "u.created_at",
        eb.fn.count<number>("o.id").as("orders"),
        sql<number>`coalesce(sum(case when ${sql.ref("o.payment_status")} = 'paid' then ${sql.ref("o.total")} else 0 end), 0)`.as("spent"),
        eb.fn.max("o.created_at").as("last_order_at"),
      ])
      .orderBy("u.id")
      .limit(BATCH)
      .execute();
    for (const a of accounts) {
      rows.push([
        "account",
        neutraliseFormula(`${a.first_name} ${a.last_name}`.trim()),
        contact(a.email),
        contact(a.phone),
        a.role,
        lagosStamp(a.created_at),
        String(Number(a.orders)),
        spent(Number(a.spent)),
        lagosStamp(a.last_order_at ?? null),
      ]);
    }
    if (accounts.length < BATCH) break;
    afterId = accounts[accounts.length - 1].id;
  }
  let afterEmail = "";
  for (;;) {
    const emails = await db
      .selectFrom("orders")
      .select("email")
      .distinct()
      .where("user_id", "is", null)
      .where("channel", "=", "checkout")
      .where("email", "is not", null)
      .where("email", ">", afterEmail)
      .orderBy("email")
      .limit(BATCH)
      .execute();
    const batch = emails.map((e) => e.email).filter((e): e is string => e !== null);
    if (batch.length === 0) break;
    const guests = await guestSummaries(db, batch);
    for (const email of batch) {
      const g = guests.get(email);
      if (!g) continue;
      rows.push(["guest", neutraliseFormula(g.name), contact(email), contact(g.phone), "", lagosStamp(g.firstOrderAt), String(g.orders), spent(g.spent), lagosStamp(g.lastOrderAt)]);
    }
    if (batch.length < BATCH) break;
    afterEmail = batch[batch.length - 1];
  }
  return toCsv(rows);
}
