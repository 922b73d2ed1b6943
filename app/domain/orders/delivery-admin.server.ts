import type { Db } from "~/db/client.server";
import { NIGERIAN_STATES } from "~/lib/nigeria";
import { recordAudit } from "../backoffice/audit.server";
import { loadDeliveryTable } from "./delivery.server";

/**
 * The owner's delivery settings (/admin/delivery): zones with their fee, estimate and whether pay on
 * delivery is offered, which zone each state is in, the free-delivery threshold and pick-up at the
 * shop. One form, saved in one transaction with its audit entry; every state always stays in a zone.
 */

export const MAX_ZONE_NAME = 60;
export const MAX_ESTIMATE = 60;
export const MAX_PICKUP_ADDRESS = 200;
export const MAX_FEE_NAIRA = 1_000_000;
export const MAX_THRESHOLD_NAIRA = 100_000_000;
const E = "admin.delivery.errors.";

export interface ZoneInput {
  /** null for the new zone */
  id: number | null;
  name: string;
  fee: number;
  estimate: string;
  payOnDelivery: boolean;
  remove: boolean;
}

export interface DeliverySettingsInput {
  zones: ZoneInput[];
  /** state -> zone id, or "new" for the zone being added */
  states: Record<string, number | "new">;
  freeFrom: number | null;
  pickup: { enabled: boolean; address: string; estimate: string };
}

/** field name -> translation key of its problem */
export type DeliveryErrors = Record<string, string>;

const DECIMAL = /^(\d+(\.\d*)?|\.\d+)$/;

/** Naira as typed ("7,500", "₦7500.50") to kobo; null when it is not an amount in range. */
export function nairaText(text: string, maxNaira: number): number | null | "decimals" {
  const cleaned = text.trim().replace(/^₦/, "").replace(/[,\s]/g, "");
  if (!DECIMAL.test(cleaned)) return null;
  const naira = Number(cleaned);
  if (!Number.isFinite(naira) || naira < 0 || naira > maxNaira) return null;
  const kobo = Math.round(naira * 100);
  if (Math.abs(naira * 100 - kobo) > 1e-6) return "decimals";
  return kobo;
}

const clean = (v: FormDataEntryValue | null, max = 1000) => (typeof v === "string" ? v.replace(/\s+/g, " ").trim().slice(0, max + 1) : "");

/** Reads the form; every problem is named by field. Zone ids are checked against the database on save. */
export function parseDeliveryForm(form: FormData): { ok: true; input: DeliverySettingsInput } | { ok: false; errors: DeliveryErrors } {
  const errors: DeliveryErrors = {};
  const zones: ZoneInput[] = [];
  const ids = form
    .getAll("zoneId")
    .map((v) => String(v))
    .filter((v) => /^\d{1,9}$/.test(v))
    .map(Number);
  const readZone = (key: string, id: number | null): ZoneInput | null => {
    const name = clean(form.get(`zone.${key}.name`));
    const feeText = clean(form.get(`zone.${key}.fee`));
    const estimate = clean(form.get(`zone.${key}.estimate`));
    if (id === null && name === "" && feeText === "" && estimate === "") return null;
    if (name === "") errors[`zone.${key}.name`] = E + "name";
    else if (name.length > MAX_ZONE_NAME) errors[`zone.${key}.name`] = E + "nameTooLong";
    const fee = nairaText(feeText, MAX_FEE_NAIRA);
    if (fee === null) errors[`zone.${key}.fee`] = E + "fee";
    else if (fee === "decimals") errors[`zone.${key}.fee`] = E + "decimals";
    if (estimate.length > MAX_ESTIMATE) errors[`zone.${key}.estimate`] = E + "estimateTooLong";
    return {
      id,
      name,
      fee: typeof fee === "number" ? fee : 0,
      estimate,
      payOnDelivery: form.get(`zone.${key}.pod`) === "on",
      remove: id !== null && form.get(`zone.${key}.remove`) === "on",
    };
  };
  for (const id of [...new Set(ids)]) {
    const zone = readZone(String(id), id);
    if (zone) zones.push(zone);
  }
  const added = readZone("new", null);
  if (added) zones.push(added);

  const names = new Map<string, string>();
  for (const zone of zones) {
    if (zone.remove || !zone.name) continue;
    const key = zone.name.toLowerCase();
    const field = `zone.${zone.id ?? "new"}.name`;
    if (names.has(key)) errors[field] ??= E + "nameTaken";
    names.set(key, field);
  }

  const kept = new Set(zones.filter((z) => !z.remove).map((z) => (z.id === null ? "new" : String(z.id))));
  const states: Record<string, number | "new"> = {};
  for (const state of NIGERIAN_STATES) {
    const chosen = clean(form.get(`state.${state}`));
    if (!kept.has(chosen)) {
      errors[`state.${state}`] = E + "stateZone";
      continue;
    }
    states[state] = chosen === "new" ? "new" : Number(chosen);
  }
  for (const zone of zones) {
    if (!zone.remove) continue;
    if (NIGERIAN_STATES.some((state) => clean(form.get(`state.${state}`)) === String(zone.id))) errors[`zone.${zone.id}.remove`] = E + "zoneInUse";
  }
  if (zones.filter((z) => !z.remove).length === 0) errors["zone.new.name"] = E + "name";

  const thresholdText = clean(form.get("freeFrom"));
  let freeFrom: number | null = null;
  if (thresholdText !== "") {
    const value = nairaText(thresholdText, MAX_THRESHOLD_NAIRA);
    if (value === null) errors.freeFrom = E + "threshold";
    else if (value === "decimals") errors.freeFrom = E + "decimals";
    else freeFrom = value;
  }
  const pickup = { enabled: form.get("pickupEnabled") === "on", address: clean(form.get("pickupAddress")), estimate: clean(form.get("pickupEstimate")) };
  if (pickup.enabled && pickup.address === "") errors.pickupAddress = E + "pickupAddress";
  if (pickup.address.length > MAX_PICKUP_ADDRESS) errors.pickupAddress = E + "pickupAddressTooLong";
  if (pickup.estimate.length > MAX_ESTIMATE) errors.pickupEstimate = E + "estimateTooLong";

  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, input: { zones, states, freeFrom, pickup } };
}

export type SaveDeliveryResult = { ok: true } | { ok: false; errors: DeliveryErrors };

/** Saves the whole form in one transaction, with one audit entry listing what changed. */
export async function saveDeliverySettings(db: Db, actorId: number, input: DeliverySettingsInput): Promise<SaveDeliveryResult> {
  return db.transaction().execute(async (trx) => {
    const before = await loadDeliveryTable(trx);
    const known = new Map(before.zones.map((z) => [z.id, z]));
    const errors: DeliveryErrors = {};
    for (const zone of input.zones) if (zone.id !== null && !known.has(zone.id)) errors[`zone.${zone.id}.name`] = E + "zoneGone";
    // Names must stay unique against zones the form did not mention (another admin's new zone).
    const formIds = new Set(input.zones.map((z) => z.id));
    for (const zone of input.zones) {
      if (zone.remove) continue;
      const clash = before.zones.find((z) => !formIds.has(z.id) && z.name.toLowerCase() === zone.name.toLowerCase());
      if (clash) errors[`zone.${zone.id ?? "new"}.name`] = E + "nameTaken";
    }
    if (Object.keys(errors).length) return { ok: false as const, errors };

    const at = new Date().toISOString();
    const changes: Record<string, [unknown, unknown]> = {};
    // Free the names first, so two zones can swap names in one save.
    for (const zone of input.zones) {
      if (zone.id !== null) await trx.updateTable("delivery_zones").set({ name: `~${zone.id}~${at}` }).where("id", "=", zone.id).execute();
    }
    let newId: number | null = null;
    let position = 0;
    for (const zone of input.zones) {
      if (zone.remove) continue;
      const values = { name: zone.name, fee: zone.fee, estimate: zone.estimate, pay_on_delivery: zone.payOnDelivery ? 1 : 0, position: position++, updated_at: at };
      if (zone.id === null) {
        newId = (await trx.insertInto("delivery_zones").values({ ...values, created_at: at }).returning("id").executeTakeFirstOrThrow()).id;
        changes[`zone ${zone.name}`] = [null, zone.fee];
      } else {
        await trx.updateTable("delivery_zones").set(values).where("id", "=", zone.id).execute();
        const old = known.get(zone.id)!;
        if (old.name !== zone.name) changes[`zone ${old.name} name`] = [old.name, zone.name];
        if (old.fee !== zone.fee) changes[`zone ${zone.name} fee`] = [old.fee, zone.fee];
        if (old.estimate !== zone.estimate) changes[`zone ${zone.name} estimate`] = [old.estimate, zone.estimate];
        if (old.payOnDelivery !== zone.payOnDelivery) changes[`zone ${zone.name} pay on delivery`] = [old.payOnDelivery, zone.payOnDelivery];
      }
    }
    for (const [state, chosen] of Object.entries(input.states)) {
      const zoneId = chosen === "new" ? newId! : chosen;
      if (before.stateZone[state] === zoneId) continue;
      await trx
        .insertInto("delivery_states")
        .values({ state, zone_id: zoneId })
        .onConflict((oc) => oc.column("state").doUpdateSet({ zone_id: zoneId }))
        .execute();
      changes[`state ${state}`] = [known.get(before.stateZone[state])?.name ?? null, input.zones.find((z) => (z.id ?? newId) === zoneId)?.name ?? null];
    }
    for (const zone of input.zones) {
      if (!zone.remove || zone.id === null) continue;
      await trx.deleteFrom("delivery_zones").where("id", "=", zone.id).execute();
      changes[`zone ${known.get(zone.id)!.name}`] = [known.get(zone.id)!.fee, null];
    }
    await trx
      .insertInto("delivery_settings")
      .values({ id: 1, free_from: input.freeFrom, pickup_enabled: input.pickup.enabled ? 1 : 0, pickup_address: input.pickup.address, pickup_estimate: input.pickup.estimate, updated_at: at })
      .onConflict((oc) =>
        oc.column("id").doUpdateSet({ free_from: input.freeFrom, pickup_enabled: input.pickup.enabled ? 1 : 0, pickup_address: input.pickup.address, pickup_estimate: input.pickup.estimate, updated_at: at }),
      )
      .execute();
    if (before.freeFrom !== input.freeFrom) changes.freeFrom = [before.freeFrom, input.freeFrom];
    if (before.pickup.enabled !== input.pickup.enabled) changes.pickup = [before.pickup.enabled, input.pickup.enabled];
    if (before.pickup.address !== input.pickup.address) changes.pickupAddress = [before.pickup.address, input.pickup.address];
    await recordAudit(trx, { actorId, action: "update", entity: "delivery", entityId: null, summary: "delivery", changes });
    return { ok: true as const };
  });
}
