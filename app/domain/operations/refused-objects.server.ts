import type { AppLoadContext } from "react-router";
import type { Db } from "~/db/client.server";
import { logSecurityEvent } from "~/platform/security-log.server";
import { isOrderNumber } from "../orders/orders.server";

/**
 * Object-level refusals as security events (docs/decisions/212). A shopper's pages look an object up
 * by its id *and* their own account, and answer 404 when there is no such object of theirs, whether it
 * does not exist or is someone else's: the answer tells a prober nothing. Afterwards, off the answer's
 * path, this asks which it was, and writes an `object_refused` event when the object exists and
 * belongs to another account (or to none, like an order placed on WhatsApp). Only ids go in the line:
 * the asker's account id, the kind of object and its id or number, the method, path and address. Never
 * an e-mail or a name.
 */

export type RefusedObject = { kind: "order" | "invoice" | "payment"; number: string } | { kind: "address"; id: number };

async function ownerOf(db: Db, object: RefusedObject): Promise<{ owner: number | null } | null> {
  if (object.kind === "address") {
    if (!Number.isSafeInteger(object.id) || object.id <= 0 || object.id > 2 ** 31 - 1) return null;
    const row = await db.selectFrom("addresses").select("user_id").where("id", "=", object.id).executeTakeFirst();
    return row ? { owner: row.user_id } : null;
  }
  if (!isOrderNumber(object.number)) return null;
  const row = await db.selectFrom("orders").select("user_id").where("number", "=", object.number).executeTakeFirst();
  return row ? { owner: row.user_id } : null;
}

/** Logs the refusal of `object` to `userId` when the object exists and is not theirs; never throws. */
export async function noteRefusedObject(
  context: Pick<AppLoadContext, "db"> & { clientIp?: string },
  request: Request,
  userId: number,
  object: RefusedObject,
): Promise<void> {
  try {
    const found = await ownerOf(context.db, object);
    if (!found || found.owner === userId) return;
    logSecurityEvent("object_refused", {
      userId,
      object: object.kind,
      objectId: object.kind === "address" ? object.id : object.number,
      method: request.method,
      path: new URL(request.url).pathname,
      ip: context.clientIp,
    });
  } catch {
    // The refusal stands whatever happens here; the log is the operator's extra.
  }
}
