import { type Kysely, sql } from "kysely";
import { isPostgres } from "../client.server";

// Delivery fees by Nigerian state, grouped into zones the owner names, with an optional free-delivery
// threshold and pick-up at the shop; and, on every order, how it is delivered and paid. The defaults
// suit a shop in Lagos; the owner changes them at /admin/delivery.

const SOUTH_WEST = ["Ekiti", "Ogun", "Ondo", "Osun", "Oyo"];
const ALL_STATES = [
  "Abia", "Adamawa", "Akwa Ibom", "Anambra", "Bauchi", "Bayelsa", "Benue", "Borno", "Cross River", "Delta",
  "Ebonyi", "Edo", "Ekiti", "Enugu", "Federal Capital Territory", "Gombe", "Imo", "Jigawa", "Kaduna", "Kano",
  "Katsina", "Kebbi", "Kogi", "Kwara", "Lagos", "Nasarawa", "Niger", "Ogun", "Ondo", "Osun", "Oyo", "Plateau",
  "Rivers", "Sokoto", "Taraba", "Yobe", "Zamfara",
];

const DEFAULT_ZONES = [
  { name: "Lagos", fee: 300_000, estimate: "1-2 working days", payOnDelivery: 1, states: ["Lagos"] },
  { name: "South-West", fee: 500_000, estimate: "2-4 working days", payOnDelivery: 0, states: SOUTH_WEST },
  {
    name: "Rest of Nigeria",
    fee: 750_000,
    estimate: "3-7 working days",
    payOnDelivery: 0,
    states: ALL_STATES.filter((s) => s !== "Lagos" && !SOUTH_WEST.includes(s)),
  },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  const id = isPostgres(db) ? sql`serial primary key` : sql`integer primary key autoincrement`;
  await sql`create table delivery_zones (
    id ${id},
    name text not null unique,
    fee bigint not null check (fee >= 0),
    estimate text not null default '',
    pay_on_delivery integer not null default 0 check (pay_on_delivery in (0, 1)),
    position integer not null default 0,
    created_at text not null,
    updated_at text not null
  )`.execute(db);
  await sql`create table delivery_states (
    state text primary key,
    zone_id integer not null references delivery_zones (id) on delete restrict
  )`.execute(db);
  await db.schema.createIndex("delivery_states_zone_idx").on("delivery_states").column("zone_id").execute();
  await sql`create table delivery_settings (
    id integer primary key check (id = 1),
    free_from bigint check (free_from is null or free_from >= 0),
    pickup_enabled integer not null default 0 check (pickup_enabled in (0, 1)),
    pickup_address text not null default '',
    pickup_estimate text not null default '',
    updated_at text not null
  )`.execute(db);

  const at = new Date().toISOString();
  for (const [position, zone] of DEFAULT_ZONES.entries()) {
    const { rows } = await sql<{ id: number }>`insert into delivery_zones (name, fee, estimate, pay_on_delivery, position, created_at, updated_at)
      values (${zone.name}, ${zone.fee}, ${zone.estimate}, ${zone.payOnDelivery}, ${position}, ${at}, ${at}) returning id`.execute(db);
    for (const state of zone.states) await sql`insert into delivery_states (state, zone_id) values (${state}, ${rows[0].id})`.execute(db);
  }
  await sql`insert into delivery_settings (id, free_from, pickup_enabled, pickup_address, pickup_estimate, updated_at)
    values (1, ${50_000_000}, 1, ${"Unboxed, 12 Admiralty Way, Lekki Phase 1, Lagos"}, ${"Ready the next working day"}, ${at})`.execute(db);

  // How the order is delivered (snapshotted: editing the zones later does not rewrite orders) and paid.
  await db.schema.alterTable("orders").addColumn("delivery_method", "text").execute();
  await db.schema.alterTable("orders").addColumn("delivery_zone", "text").execute();
  await db.schema.alterTable("orders").addColumn("delivery_estimate", "text").execute();
  await db.schema.alterTable("orders").addColumn("payment_method", "text").execute();
  await db.schema
    .alterTable("orders")
    .addColumn("payment_status", "text", (c) => c.notNull().defaultTo("unpaid").check(sql`payment_status in ('unpaid', 'paid', 'refunded')`))
    .execute();
  await db.schema.alterTable("orders").addColumn("paid_at", "text").execute();
  await db.schema.alterTable("orders").addColumn("refunded_at", "text").execute();
  await db.schema.alterTable("orders").addColumn("payment_reference", "text").execute();
  await db.schema.alterTable("orders").addColumn("payment_channel", "text").execute();
  await db.schema.createIndex("orders_payment_status_idx").on("orders").columns(["payment_status", "created_at"]).execute();
  await db.schema.createIndex("orders_paid_at_idx").on("orders").column("paid_at").execute();
}

export async function down(): Promise<void> {
  throw new Error("0030_delivery_and_payment_status cannot be rolled back: it would drop payment records");
}
