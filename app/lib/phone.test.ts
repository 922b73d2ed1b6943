import { describe, expect, it } from "vitest";
import { formatPhone, parseNigerianMobile, telHref, whatsAppHref } from "./phone";

describe("Nigerian mobile numbers", () => {
  it.each([
    "08031234567",
    "0803 123 4567",
    "0803-123-4567",
    "0803.123.4567",
    "(0803) 123 4567",
    "+234 803 123 4567",
    "+2348031234567",
    "2348031234567",
    "234 803 123 4567",
    "+234 (0) 803 123 4567",
    "+234-803-123-4567",
    "002348031234567",
    "  0803 123 4567  ",
  ])("takes %j as +2348031234567", (typed) => {
    expect(parseNigerianMobile(typed)).toEqual({ ok: true, phone: "+2348031234567" });
  });

  it.each(["07012345678", "08012345678", "08112345678", "09012345678", "09112345678"])("takes every mobile prefix: %s", (typed) => {
    expect(parseNigerianMobile(typed)).toEqual({ ok: true, phone: `+234${typed.slice(1)}` });
  });

  it("asks for a number when there is none", () => {
    expect(parseNigerianMobile("")).toEqual({ ok: false, error: "address.errors.phoneRequired" });
    expect(parseNigerianMobile("   ")).toEqual({ ok: false, error: "address.errors.phoneRequired" });
  });

  it.each([
    ["too short", "0803 123 456"],
    ["too long", "0803 123 45678"],
    ["a landline (Lagos)", "01 234 5678"],
    ["a landline in full", "+234 1 234 5678"],
    ["another prefix", "0603 123 4567"],
    ["another prefix after +234", "+234 603 123 4567"],
    ["no trunk 0", "8031234567"],
    ["another country", "+44 7911 123456"],
    ["another country without a plus", "447911123456"],
    ["letters", "0803 CALL ME"],
    ["two plus signs", "++2348031234567"],
    ["a plus in the middle", "0803+1234567"],
    ["an extension", "0803 123 4567 ext 2"],
    ["markup", "<b>08031234567</b>"],
    ["a full-width digit", "０８０３１２３４５６７"],
    ["a very long text", `0803${" ".repeat(100)}1234567`],
  ])("refuses %s", (_why, typed) => {
    expect(parseNigerianMobile(typed)).toEqual({ ok: false, error: "address.errors.phone" });
  });

  it("shows, calls and opens WhatsApp for a stored number", () => {
    expect(formatPhone("+2348031234567")).toBe("+234 803 123 4567");
    expect(formatPhone("something else")).toBe("something else");
    expect(telHref("+2348031234567")).toBe("tel:+2348031234567");
    expect(whatsAppHref("+2348031234567")).toBe("https://wa.me/2348031234567");
  });
});
