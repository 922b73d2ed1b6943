import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUser } from "../../../tests/support/catalogue";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { NIGERIAN_STATES } from "~/lib/nigeria";
import { parseDeliveryForm, saveDeliverySettings } from "./delivery-admin.server";
import { loadDeliveryTable } from "./delivery.server";

/** The admin form as the page sends it, from the saved table, with changes. */
async function formFor(db: TestDatabase["db"], change: (entries: Map<string, string>) => void = () => {}): Promise<FormData> {
  const table = await loadDeliveryTable(db);
  const entries = new Map<string, string>();
  const ids: string[] = [];
  for (const zone of table.zones) {
    ids.push(String(zone.id));
    entries.set(`zone.${zone.id}.name`, zone.name);
    entries.set(`zone.${zone.id}.fee`, String(zone.fee / 100));
    entries.set(`zone.${zone.id}.estimate`, zone.estimate);
    if (zone.payOnDelivery) entries.set(`zone.${zone.id}.pod`, "on");
  }
  for (const state of NIGERIAN_STATES) entries.set(`state.${state}`, String(table.stateZone[state]));
  entries.set("freeFrom", table.freeFrom === null ? "" : String(table.freeFrom / 100));
  if (table.pickup.enabled) entries.set("pickupEnabled", "on");
  entries.set("pickupAddress", table.pickup.address);
  entries.set("pickupEstimate", table.pickup.estimate);
  change(entries);
  const form = new FormData();
  for (const id of ids) form.append("zoneId", id);
  for (const [k, v] of entries) form.append(k, v);
  return form;
}

describe.each(ENGINES)("the owner's delivery settings on %s", (engine) => {
  let t: TestDatabase;
  let admin: { id: number };

  beforeAll(async () => {
    t = await freshDatabase(engine);
    admin = await addUser(t.db, "owner", `delivery-owner-${engine}@example.com`);
  });
  afterAll(async () => {
    await t?.drop();
  });

  const zoneId = async (name: string) => (await loadDeliveryTable(t.db)).zones.find((z) => z.name === name)!.id;

  it("changes fees, adds a zone with states, sets the threshold and pick-up, in one save with an audit entry", async () => {
    const lagos = await zoneId("Lagos");
    const form = await formFor(t.db, (e) => {
      e.set(`zone.${lagos}.fee`, "₦3,500.50");
      e.set("zone.new.name", "North");
      e.set("zone.new.fee", "9000");
      e.set("zone.new.estimate", "5-8 working days");
      e.set("state.Kano", "new");
      e.set("state.Kaduna", "new");
      e.set("freeFrom", "");
      e.delete("pickupEnabled");
    });
    const parsed = parseDeliveryForm(form);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    expect(await saveDeliverySettings(t.db, admin.id, parsed.input)).toEqual({ ok: true });
    const table = await loadDeliveryTable(t.db);
    expect(table.zones.find((z) => z.name === "Lagos")?.fee).toBe(350_050);
    const north = table.zones.find((z) => z.name === "North")!;
    expect(north).toMatchObject({ fee: 900_000, estimate: "5-8 working days", payOnDelivery: false });
    expect(table.stateZone.Kano).toBe(north.id);
    expect(table.stateZone.Kaduna).toBe(north.id);
    expect(Object.keys(table.stateZone)).toHaveLength(37);
    expect(table.freeFrom).toBeNull();
    expect(table.pickup.enabled).toBe(false);
    const audit = await t.db.selectFrom("audit_log").select(["entity", "changes"]).where("entity", "=", "delivery").execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0].changes!)).toMatchObject({ "zone Lagos fee": [300_000, 350_050], "state Kano": ["Rest of Nigeria", "North"], freeFrom: [50_000_000, null] });
  });

  it("removes an empty zone, and refuses to remove one that still has states", async () => {
    const north = await zoneId("North");
    const refused = parseDeliveryForm(await formFor(t.db, (e) => e.set(`zone.${north}.remove`, "on")));
    expect(refused).toMatchObject({ ok: false, errors: { [`zone.${north}.remove`]: "admin.delivery.errors.zoneInUse", "state.Kano": "admin.delivery.errors.stateZone" } });
    const rest = String(await zoneId("Rest of Nigeria"));
    const parsed = parseDeliveryForm(
      await formFor(t.db, (e) => {
        e.set(`zone.${north}.remove`, "on");
        e.set("state.Kano", rest);
        e.set("state.Kaduna", rest);
      }),
    );
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    expect(await saveDeliverySettings(t.db, admin.id, parsed.input)).toEqual({ ok: true });
    expect((await loadDeliveryTable(t.db)).zones.map((z) => z.name)).toEqual(["Lagos", "South-West", "Rest of Nigeria"]);
  });

  it("names every problem: empty or repeated names, fees that are not naira, states in no zone, pick-up without an address", async () => {
    const [lagos, sw] = [await zoneId("Lagos"), await zoneId("South-West")];
    const result = parseDeliveryForm(
      await formFor(t.db, (e) => {
        e.set(`zone.${lagos}.name`, "");
        e.set(`zone.${sw}.name`, "rest of nigeria");
        e.set(`zone.${sw}.fee`, "-5");
        e.set("zone.new.fee", "12.345");
        e.set("state.Oyo", "999");
        e.set("state.Ogun", "new");
        e.set("freeFrom", "lots");
        e.set("pickupEnabled", "on");
        e.set("pickupAddress", "");
      }),
    );
    if (result.ok) throw new Error("expected problems");
    const rest = await zoneId("Rest of Nigeria");
    expect(result.errors).toEqual({
      [`zone.${lagos}.name`]: "admin.delivery.errors.name",
      [`zone.${sw}.fee`]: "admin.delivery.errors.fee",
      [`zone.${rest}.name`]: "admin.delivery.errors.nameTaken",
      "zone.new.name": "admin.delivery.errors.name",
      "zone.new.fee": "admin.delivery.errors.decimals",
      "state.Oyo": "admin.delivery.errors.stateZone",
      freeFrom: "admin.delivery.errors.threshold",
      pickupAddress: "admin.delivery.errors.pickupAddress",
    });
  });
});
