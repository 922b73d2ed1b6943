import { describe, expect, it } from "vitest";
import { cookieIds, parseCardIds, RECENT_COOKIE } from "./recently-viewed";

describe("recently viewed ids", () => {
  it("reads a visitor's cookie leniently: ids only, latest first, each once", () => {
    expect(cookieIds(`lng=es; ${RECENT_COOKIE}=12.7.12.x.0.30; ub_cart=abc`)).toEqual([12, 7, 30]);
    expect(cookieIds("lng=es")).toEqual([]);
    expect(cookieIds(`${RECENT_COOKIE}=`)).toEqual([]);
  });

  it("takes one to eight whole-number ids for the cards endpoint and refuses anything else", () => {
    expect(parseCardIds("12,7,30")).toEqual([12, 7, 30]);
    expect(parseCardIds("5,5,9")).toEqual([5, 9]);
    expect(parseCardIds("1,2,3,4,5,6,7,8")).toHaveLength(8);
    for (const bad of [null, "", "1,2,3,4,5,6,7,8,9", "abc", "1,,2", "0", "-1", "1.5", "1e3", " 1", "2147483648", "99999999999", "1;2", Array.from({ length: 1000 }, (_, i) => i + 1).join(",")]) {
      expect(parseCardIds(bad), String(bad).slice(0, 40)).toBeNull();
    }
  });

});
