import { type AppLoadContext, data } from "react-router";
import { addAddress, AddressLimitError, deleteAddress, readSavedAddress, type SavedAddressErrors, updateAddress } from "~/domain/accounts/addresses.server";
import { noteRefusedObject } from "~/domain/operations/refused-objects.server";
import { bodyRefusal } from "./form.server";
import { redirectWithToast } from "./toast.server";

const ADDRESSES_TAB = "/profile?tab=addresses";

/**
 * The profile's address book (add, change, remove), posted as plain forms: success goes back to the
 * addresses tab with a toast; refused fields come back with the form (400); an address that is not
 * the shopper's is noted as a refused object.
 */
export async function addressBookAction(request: Request, context: AppLoadContext, userId: number, intent: string, form: FormData) {
  const idField = form.get("addressId");
  // An address is named by its id, as the page wrote it: anything else (empty, "abc", "-1", "1e3") was
  // not sent by the page, and is a 400 rather than a query for an id that cannot be.
  const addressId = typeof idField === "string" && /^[1-9]\d{0,9}$/.test(idField) && Number(idField) <= 2 ** 31 - 1 ? Number(idField) : null;
  if ((intent === "delete-address" || intent === "update-address") && addressId === null) throw bodyRefusal(request, "notAForm");

  if (intent === "delete-address") {
    const removed = addressId !== null && (await deleteAddress(context.db, userId, addressId));
    if (!removed && addressId !== null) await noteRefusedObject(context, request, userId, { kind: "address", id: addressId });
    return redirectWithToast(
      context,
      ADDRESSES_TAB,
      removed ? { type: "success", key: "address.toast.removed" } : { type: "error", key: "address.toast.removeFailed" },
    );
  }
  if (intent !== "add-address" && intent !== "update-address") throw bodyRefusal(request, "notAForm");

  const values = Object.fromEntries(["street", "city", "state", "country", "phone"].map((k) => [k, String(form.get(k) ?? "")]));
  const parsed = readSavedAddress(values);
  if (!parsed.ok) {
    const errors: SavedAddressErrors = parsed.errors;
    return data({ intent, addressId: intent === "update-address" ? addressId : null, errors, values }, { status: 400 });
  }

  if (intent === "add-address") {
    try {
      await addAddress(context.db, userId, parsed.address);
      return redirectWithToast(context, ADDRESSES_TAB, { type: "success", key: "address.toast.added" });
    } catch (error) {
      if (!(error instanceof AddressLimitError)) throw error;
      return redirectWithToast(context, ADDRESSES_TAB, { type: "error", key: "address.toast.addFailed" });
    }
  }
  const updated = addressId !== null && (await updateAddress(context.db, userId, addressId, parsed.address));
  if (!updated && addressId !== null) await noteRefusedObject(context, request, userId, { kind: "address", id: addressId });
  return redirectWithToast(
    context,
    ADDRESSES_TAB,
    updated ? { type: "success", key: "address.toast.updated" } : { type: "error", key: "address.toast.updateFailed" },
  );
}
