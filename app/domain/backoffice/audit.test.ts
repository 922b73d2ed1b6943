import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUser } from "../../../tests/support/catalogue";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { auditActors, listAudit, recordAudit } from "./audit.server";

// The audit log filtered by the person who acted (docs/decisions/218), alone or with the kind.

describe.each(ENGINES)("the audit log by person on %s", (engine) => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await freshDatabase(engine);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("lists only the chosen person's entries, and names everyone who has one", async () => {
    const owner = await addUser(t.db, "owner", "ada@example.com", "Ada");
    const packer = await addUser(t.db, "fulfilment", "pat@example.com", "Pat");
    await addUser(t.db, "support", "sam@example.com", "Sam");
    await recordAudit(t.db, { actorId: owner.id, action: "update", entity: "product", entityId: 1, summary: "Oud Royale" });
    await recordAudit(t.db, { actorId: packer.id, action: "update", entity: "order", entityId: 1, summary: "UB-1" });
    await recordAudit(t.db, { actorId: packer.id, action: "update", entity: "product", entityId: 2, summary: "Sauvage" });

    expect((await listAudit(t.db)).total).toBe(3);
    expect((await listAudit(t.db, { actorId: packer.id })).entries.map((e) => e.summary)).toEqual(["Sauvage", "UB-1"]);
    expect((await listAudit(t.db, { actorId: packer.id, entity: "product" })).entries.map((e) => e.summary)).toEqual(["Sauvage"]);
    expect((await listAudit(t.db, { actorId: owner.id })).entries.map((e) => e.summary)).toEqual(["Oud Royale"]);
    expect(await auditActors(t.db)).toEqual([
      { id: owner.id, name: "Ada Test" },
      { id: packer.id, name: "Pat Test" },
    ]);
  });
});
