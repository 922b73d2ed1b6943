// Deterministic perfume-bottle illustrations for demo products, drawn purely in
// SVG (no external resources). Every choice derives from a hash of name+brand.

export interface BottleSeed {
  name: string;
  brand: string;
  category: "men" | "women" | "unisex";
}

/** 32-bit FNV-1a hash of a string. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Small deterministic PRNG (mulberry32) seeded from the hash. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function escapeXml(s: string): string {
  return s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

const r1 = (x: number): number => Math.round(x * 10) / 10;

function mix(a: string, b: string, t: number): string {
  const pa = parseInt(a.slice(1), 16);
  const pb = parseInt(b.slice(1), 16);
  let out = "#";
  for (const sh of [16, 8, 0]) {
    const ca = (pa >> sh) & 255;
    const cb = (pb >> sh) & 255;
    out += Math.round(ca + (cb - ca) * t)
      .toString(16)
      .padStart(2, "0");
  }
  return out;
}
const dark = (c: string, t: number): string => mix(c, "#000000", t);
const luma = (c: string): number => {
  const v = parseInt(c.slice(1), 16);
  return 0.299 * ((v >> 16) & 255) + 0.587 * ((v >> 8) & 255) + 0.114 * (v & 255);
};
const light = (c: string, t: number): string => mix(c, "#ffffff", t);

const BACKGROUNDS: Record<BottleSeed["category"], [string, string][]> = {
  men: [
    ["#2a3646", "#56677c"],
    ["#30343b", "#6e737b"],
    ["#3b2c21", "#8c6b4b"],
    ["#1f3541", "#557a8b"],
    ["#2f3b35", "#6f8174"],
    ["#c9d0d8", "#8e9bab"],
  ],
  women: [
    ["#f8e6e4", "#e2b3b6"],
    ["#f4e8f2", "#cbb2d8"],
    ["#f9efe1", "#e0c394"],
    ["#fcebe5", "#e9a898"],
    ["#f1e2ea", "#bf93ab"],
    ["#f8f1ea", "#d9c0b0"],
  ],
  unisex: [
    ["#f1e8d9", "#c8ae87"],
    ["#e0ebe7", "#7fa8a1"],
    ["#e9e8d6", "#9d9c70"],
    ["#ebe4d8", "#a7977f"],
    ["#d8e5e1", "#4f7f7a"],
    ["#eee5d2", "#b49d6f"],
  ],
};

const LIQUIDS: Record<BottleSeed["category"], string[]> = {
  men: ["#c98a2b", "#2f6fa8", "#7a5f45", "#6f8c4a", "#e0bb5e", "#1e4478", "#9fb8c9", "#a3471f"],
  women: ["#f2a7b8", "#e07a8f", "#f1d07f", "#f5b58f", "#c6a2e0", "#e8b39a", "#b3263a", "#fbe3c8"],
  unisex: ["#d79a3a", "#9a5a23", "#8ba35a", "#5fa3a0", "#efe5c8", "#c0392b", "#b98a4e", "#6d8b6a"],
};

// Cap materials: [edge, highlight, mid]
const METALS: [string, string, string][] = [
  ["#7d5a22", "#f6e3a6", "#b8913f"], // gold
  ["#6f7277", "#f4f5f7", "#a4a7ad"], // silver
  ["#0c0c0d", "#5a5a5e", "#1e1e21"], // black lacquer
  ["#b9b2a6", "#fffdf8", "#dcd6cb"], // ivory
  ["#5a3a2c", "#d9a58a", "#9a6a55"], // rose gold / bronze
];

interface Body {
  d: string;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  facets: string;
  curved: boolean;
}

const CX = 400;
const FY = 850; // floor line (bottom of bottle)

/** Polygon with rounded corners (quadratic corner curves). */
function roundedPoly(pts: [number, number][], rad: number): string {
  const n = pts.length;
  let d = "";
  for (let i = 0; i < n; i++) {
    const [px, py] = pts[(i + n - 1) % n];
    const [x, y] = pts[i];
    const [nx, ny] = pts[(i + 1) % n];
    const l1 = Math.hypot(x - px, y - py);
    const l2 = Math.hypot(nx - x, ny - y);
    const a = Math.min(rad, l1 / 2) / l1;
    const b = Math.min(rad, l2 / 2) / l2;
    const sx = x + (px - x) * a;
    const sy = y + (py - y) * a;
    const ex = x + (nx - x) * b;
    const ey = y + (ny - y) * b;
    d += `${i ? "L" : "M"}${r1(sx)} ${r1(sy)}Q${r1(x)} ${r1(y)} ${r1(ex)} ${r1(ey)}`;
  }
  return d + "Z";
}

function rectPts(x0: number, y0: number, x1: number, y1: number): [number, number][] {
  return [
    [x0, y0],
    [x1, y0],
    [x1, y1],
    [x0, y1],
  ];
}

function makeBody(kind: number, rnd: () => number): Body {
  const j = (a: number, b: number): number => a + (b - a) * rnd();
  let w: number;
  let h: number;
  let d: string;
  let facets = "";
  let curved = false;
  switch (kind) {
    case 0: {
      // tall rectangle
      w = j(250, 290);
      h = j(430, 470);
      d = roundedPoly(rectPts(CX - w / 2, FY - h, CX + w / 2, FY), j(16, 30));
      break;
    }
    case 1: {
      // square flacon with bevelled inner edge
      w = j(330, 370);
      h = w * j(0.92, 1.02);
      d = roundedPoly(rectPts(CX - w / 2, FY - h, CX + w / 2, FY), j(18, 34));
      const i = 22;
      facets = roundedPoly(rectPts(CX - w / 2 + i, FY - h + i, CX + w / 2 - i, FY - i), 10);
      break;
    }
    case 2: {
      // round / spherical
      const rx = j(190, 210);
      const ry = rx * 0.96;
      w = rx * 2;
      h = ry * 2;
      const cy = FY - ry;
      d = `M${r1(CX - rx)} ${r1(cy)}A${r1(rx)} ${r1(ry)} 0 1 1 ${r1(CX + rx)} ${r1(cy)}A${r1(rx)} ${r1(ry)} 0 1 1 ${r1(CX - rx)} ${r1(cy)}Z`;
      curved = true;
      break;
    }
    case 3: {
      // faceted octagon
      w = j(310, 350);
      h = j(380, 420);
      const c = w * 0.24;
      const oct = (x0: number, y0: number, x1: number, y1: number, k: number): [number, number][] => [
        [x0 + k, y0],
        [x1 - k, y0],
        [x1, y0 + k],
        [x1, y1 - k],
        [x1 - k, y1],
        [x0 + k, y1],
        [x0, y1 - k],
        [x0, y0 + k],
      ];
      const o = oct(CX - w / 2, FY - h, CX + w / 2, FY, c);
      const n = oct(CX - w / 2 + 34, FY - h + 34, CX + w / 2 - 34, FY - 34, c * 0.7);
      d = roundedPoly(o, 6);
      facets = n.map((p, i) => `${i ? "L" : "M"}${r1(p[0])} ${r1(p[1])}`).join("") + "Z";
      facets += o.map((p, i) => `M${r1(p[0])} ${r1(p[1])}L${r1(n[i][0])} ${r1(n[i][1])}`).join("");
      break;
    }
    case 4: {
      // slim cylinder
      w = j(165, 195);
      h = j(470, 510);
      d = roundedPoly(rectPts(CX - w / 2, FY - h, CX + w / 2, FY), w * 0.14);
      break;
    }
    case 5: {
      // trapezoid, tapering up or down
      const wide = j(320, 350);
      const narrow = wide * j(0.62, 0.72);
      h = j(390, 430);
      const up = rnd() < 0.65;
      const top = up ? narrow : wide;
      const bot = up ? wide : narrow;
      w = Math.max(top, bot);
      d = roundedPoly(
        [
          [CX - top / 2, FY - h],
          [CX + top / 2, FY - h],
          [CX + bot / 2, FY],
          [CX - bot / 2, FY],
        ],
        16,
      );
      break;
    }
    default: {
      // pebble / stone
      w = j(390, 430);
      h = j(280, 320);
      const hw = w / 2;
      const ly = FY - h * j(0.42, 0.55);
      const ry = FY - h * j(0.42, 0.55);
      const ty = FY - h;
      const k = 0.56;
      d =
        `M${r1(CX - hw)} ${r1(ly)}` +
        `C${r1(CX - hw)} ${r1(ly - (ly - ty) * k)} ${r1(CX - hw * k)} ${r1(ty)} ${CX} ${r1(ty)}` +
        `C${r1(CX + hw * k)} ${r1(ty)} ${r1(CX + hw)} ${r1(ry - (ry - ty) * k)} ${r1(CX + hw)} ${r1(ry)}` +
        `C${r1(CX + hw)} ${r1(ry + (FY - ry) * 0.8)} ${r1(CX + hw * 0.7)} ${FY} ${CX} ${FY}` +
        `C${r1(CX - hw * 0.7)} ${FY} ${r1(CX - hw)} ${r1(ly + (FY - ly) * 0.8)} ${r1(CX - hw)} ${r1(ly)}Z`;
      curved = true;
    }
  }
  return { d, x0: CX - w / 2, x1: CX + w / 2, y0: FY - h, y1: FY, facets, curved };
}

function makeCap(kind: number, bottom: number, rnd: () => number): [string, number] {
  const j = (a: number, b: number): number => a + (b - a) * rnd();
  const f = 'fill="url(#g6)"';
  const sheen = (x: number, y: number, hh: number): string =>
    `<rect x="${r1(x)}" y="${r1(y)}" width="8" height="${r1(hh)}" rx="4" fill="#fff" opacity=".35"/>`;
  switch (kind) {
    case 0: {
      const w = j(96, 124);
      const h = j(120, 165);
      const y = bottom - h;
      return [`<rect x="${r1(CX - w / 2)}" y="${r1(y)}" width="${r1(w)}" height="${r1(h)}" rx="8" ${f}/>${sheen(CX - w / 2 + w * 0.22, y + 10, h - 20)}`, y];
    }
    case 1: {
      const w = j(130, 160);
      const h = w * j(0.82, 0.95);
      const y = bottom - h;
      return [`<rect x="${r1(CX - w / 2)}" y="${r1(y)}" width="${r1(w)}" height="${r1(h)}" rx="10" ${f}/>${sheen(CX - w / 2 + w * 0.2, y + 10, h - 20)}`, y];
    }
    case 2: {
      const r = j(62, 80);
      const cy = bottom - r + 8;
      return [`<circle cx="${CX}" cy="${r1(cy)}" r="${r1(r)}" ${f}/><ellipse cx="${r1(CX - r * 0.35)}" cy="${r1(cy - r * 0.4)}" rx="${r1(r * 0.28)}" ry="${r1(r * 0.16)}" transform="rotate(-35 ${r1(CX - r * 0.35)} ${r1(cy - r * 0.4)})" fill="#fff" opacity=".45"/>`, cy - r];
    }
    case 3: {
      // collar with dome
      const w = j(110, 130);
      const y = bottom - 54;
      return [`<rect x="${r1(CX - w / 2)}" y="${r1(y)}" width="${r1(w)}" height="54" rx="6" ${f}/><path d="M${r1(CX - w / 2 + 6)} ${r1(y)}A${r1(w / 2 - 6)} ${r1(w * 0.45)} 0 0 1 ${r1(CX + w / 2 - 6)} ${r1(y)}Z" ${f}/>${sheen(CX - w * 0.3, y - w * 0.25, w * 0.25 + 44)}`, y - w * 0.45];
    }
    case 4: {
      // faceted gem cap
      const w = j(120, 150);
      const h = j(110, 140);
      const y = bottom - h;
      const p = (x: number, yy: number): string => `${r1(x)},${r1(yy)}`;
      const outer = [p(CX - w / 2, bottom), p(CX - w / 2, y + h * 0.3), p(CX - w * 0.25, y), p(CX + w * 0.25, y), p(CX + w / 2, y + h * 0.3), p(CX + w / 2, bottom)];
      return [`<polygon points="${outer.join(" ")}" ${f}/><path d="M${r1(CX - w * 0.25)} ${r1(y)}L${r1(CX - w * 0.15)} ${r1(y + h * 0.3)}L${r1(CX + w * 0.15)} ${r1(y + h * 0.3)}L${r1(CX + w * 0.25)} ${r1(y)}M${r1(CX - w / 2)} ${r1(y + h * 0.3)}H${r1(CX + w / 2)}M${r1(CX - w * 0.15)} ${r1(y + h * 0.3)}V${r1(bottom)}M${r1(CX + w * 0.15)} ${r1(y + h * 0.3)}V${r1(bottom)}" fill="none" stroke="#fff" stroke-opacity=".4" stroke-width="2"/>`, y];
    }
    default: {
      // no cap: pump actuator with sprayer nozzle
      const y = bottom - 58;
      return [`<rect x="${CX - 36}" y="${r1(y)}" width="72" height="58" rx="10" ${f}/><circle cx="${CX - 22}" cy="${r1(y + 22)}" r="6" fill="#1a1a1a"/><circle cx="${CX - 23}" cy="${r1(y + 21)}" r="2" fill="#fff" opacity=".5"/>${sheen(CX + 10, y + 8, 42)}`, y];
    }
  }
}

function labelLines(brand: string): string[] {
  const up = brand.toUpperCase();
  if (up.length <= 13 || !up.includes(" ")) return [up];
  // split at the space nearest the middle
  let best = 0;
  for (let i = 0; i < up.length; i++) {
    if (up[i] === " " && Math.abs(i - up.length / 2) < Math.abs(best - up.length / 2)) best = i;
  }
  return [up.slice(0, best), up.slice(best + 1)];
}

function concentration(name: string): string {
  const n = name.toLowerCase();
  if (n.includes("eau de parfum")) return "EAU DE PARFUM";
  if (n.includes("eau de toilette")) return "EAU DE TOILETTE";
  if (n.includes("extrait")) return "EXTRAIT DE PARFUM";
  if (n.includes("cologne")) return "COLOGNE";
  if (n.includes("parfum")) return "PARFUM";
  return "";
}

/** Returns a complete, self-contained SVG document (800x1000) for a product. */
export function bottleSvg(seed: BottleSeed): string {
  const rnd = prng(fnv1a(`${seed.name}|${seed.brand}`));
  const pick = <T>(arr: readonly T[]): T => arr[Math.floor(rnd() * arr.length)];

  const [bgA, bgB] = pick(BACKGROUNDS[seed.category]);
  const liquid = pick(LIQUIDS[seed.category]);
  const metal = pick(METALS);
  const body = makeBody(Math.floor(rnd() * 7), rnd);
  const capKind = Math.floor(rnd() * 6);
  const labelStyle = Math.floor(rnd() * 4);
  const fill = 0.55 + rnd() * 0.33;

  const { x0, x1, y0, y1 } = body;
  const w = x1 - x0;
  const h = y1 - y0;
  const bcy = (y0 + y1) / 2;
  const fillY = y1 - h * fill;
  const darkBg = parseInt(bgA.slice(1, 3), 16) < 128;

  // neck and collar
  const nw = Math.min(78, w * 0.36);
  const neckTop = y0 - 24;
  const cw = nw + 22;
  const collarTop = neckTop - 22;
  const [capSvg, capTop] = makeCap(capKind, collarTop + 2, rnd);
  // scale the whole bottle up so it fills the frame, anchored on the floor
  const sc = r1(Math.min(1.3, 640 / (FY - capTop), 560 / w) * 100) / 100;

  // label plate
  const pw = Math.min(w < 220 ? w * 0.8 : w * 0.64, 250);
  const ph = body.curved ? 78 : 84;
  const py = body.curved ? bcy - ph / 2 + h * 0.06 : y0 + h * 0.5 - ph / 2;
  const lines = labelLines(seed.brand);
  const maxLen = Math.max(...lines.map((l) => l.length));
  const ls = maxLen > 10 ? 1.2 : 2.5;
  const fs = Math.max(11, Math.min(28, (pw - 30 - maxLen * ls) / (maxLen * 0.66), (ph - 26) / (lines.length * 1.1)));
  const plates: [string, number, string, string][] = [
    ["#fbf7ef", 0.92, "#2b2622", metal[2]],
    ["#141416", 0.92, "#e2c77f", "#c9a75a"],
    ["#ffffff", 0.3, "#26231f", "#ffffff"],
    [mix(metal[1], metal[2], 0.5), 0.92, luma(metal[2]) < 110 ? "#f1e6c8" : "#1d1a16", metal[0]],
  ];
  const [plateFill, plateOp, textFill, lineCol] = plates[labelStyle];
  const conc = concentration(seed.name);
  const lineH = fs * 1.1;
  const textTop = py + ph / 2 - ((lines.length - 1) * lineH) / 2 + fs * 0.35 - (conc ? 6 : 0);
  const text = lines
    .map(
      (l, i) =>
        `<text x="${CX}" y="${r1(textTop + i * lineH)}" font-size="${r1(fs)}">${escapeXml(l)}</text>`,
    )
    .join("");
  const concText = conc
    ? `<text x="${CX}" y="${r1(py + ph - 11)}" font-size="9" letter-spacing="2.5">${conc}</text>`
    : "";

  const stops = (id: string, attrs: string, s: [number, string, number][]): string =>
    `<linearGradient id="${id}" ${attrs}>${s.map(([o, c, a]) => `<stop offset="${o}" stop-color="${c}"${a < 1 ? ` stop-opacity="${a}"` : ""}/>`).join("")}</linearGradient>`;

  const defs =
    stops("g0", 'x1="0" y1="0" x2="0" y2="1"', [[0, bgA, 1], [1, bgB, 1]]) +
    `<radialGradient id="g1" cx=".5" cy=".42" r=".5"><stop offset="0" stop-color="#fff" stop-opacity="${darkBg ? 0.22 : 0.55}"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>` +
    stops("g2", 'x1="0" y1="0" x2="0" y2="1"', [[0, dark(bgB, 0.08), 1], [1, dark(bgB, 0.3), 1]]) +
    `<radialGradient id="g3"><stop offset="0" stop-color="#000" stop-opacity=".45"/><stop offset="1" stop-color="#000" stop-opacity="0"/></radialGradient>` +
    stops("g4", "", [[0, "#fff", 0.45], [0.18, "#fff", 0.12], [0.6, "#fff", 0.06], [1, "#fff", 0.38]]) +
    stops("g5", 'x1="0" y1="0" x2="0" y2="1"', [[0, light(liquid, 0.25), 0.9], [1, dark(liquid, 0.25), 0.95]]) +
    stops("g6", "", [[0, metal[0], 1], [0.3, metal[1], 1], [0.6, metal[2], 1], [1, metal[0], 1]]) +
    stops("g7", 'x1="0" y1="0" x2="0" y2="1"', [[0, "#fff", 0.75], [1, "#fff", 0.05]]) +
    stops("g8", "", [[0, "#000", 0.28], [0.2, "#000", 0], [0.8, "#000", 0], [1, "#000", 0.3]]) +
    `<path id="b" d="${body.d}"/>` +
    `<clipPath id="c0"><use href="#b"/></clipPath>` +
    `<clipPath id="c1"><use href="#b" transform="translate(${CX} ${r1(bcy)}) scale(.92) translate(${-CX} ${r1(-bcy)})"/></clipPath>`;

  const curvedHl = body.curved
    ? `<ellipse cx="${r1(x0 + w * 0.3)}" cy="${r1(y0 + h * 0.22)}" rx="${r1(w * 0.13)}" ry="${r1(h * 0.06)}" transform="rotate(-38 ${r1(x0 + w * 0.3)} ${r1(y0 + h * 0.22)})" fill="#fff" opacity=".5"/>`
    : "";

  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="1000" viewBox="0 0 800 1000">` +
    `<defs>${defs}</defs>` +
    `<rect width="800" height="1000" fill="url(#g0)"/>` +
    `<rect width="800" height="1000" fill="url(#g1)"/>` +
    `<rect y="${FY - 50}" width="800" height="${1000 - FY + 50}" fill="url(#g2)" opacity=".55"/>` +
    `<g transform="translate(${CX} ${FY + 20}) scale(${sc}) translate(${-CX} ${-FY})">` +
    `<ellipse cx="${CX + 14}" cy="${FY + 6}" rx="${r1(w * 0.7)}" ry="30" fill="url(#g3)"/>` +
    `<ellipse cx="${CX}" cy="${FY}" rx="${r1(w * 0.44)}" ry="7" fill="#000" opacity=".3"/>` +
    // neck
    `<rect x="${r1(CX - nw / 2)}" y="${r1(neckTop)}" width="${r1(nw)}" height="30" fill="url(#g4)" stroke="#fff" stroke-opacity=".5" stroke-width="2"/>` +
    `<rect x="${r1(CX - cw / 2)}" y="${r1(collarTop)}" width="${r1(cw)}" height="24" rx="3" fill="url(#g6)"/>` +
    capSvg +
    // glass body
    `<use href="#b" fill="${light(bgB, darkBg ? 0.1 : 0.3)}" fill-opacity=".35"/>` +
    `<g clip-path="url(#c1)"><rect x="${r1(x0)}" y="${r1(fillY)}" width="${r1(w)}" height="${r1(y1 - fillY)}" fill="url(#g5)"/>` +
    `<rect x="${r1(x0)}" y="${r1(fillY - 2)}" width="${r1(w)}" height="5" fill="${light(liquid, 0.55)}" opacity=".8"/></g>` +
    `<g clip-path="url(#c0)"><rect x="${r1(x0)}" y="${r1(y0)}" width="${r1(w)}" height="${r1(h)}" fill="url(#g8)"/>` +
    `<line x1="${CX}" y1="${r1(y0 - 4)}" x2="${CX}" y2="${r1(y1 - h * 0.07)}" stroke="#fff" stroke-opacity=".35" stroke-width="3"/>` +
    `<rect x="${r1(x0 + w * 0.1)}" y="${r1(y0 + h * 0.06)}" width="${r1(w * 0.06)}" height="${r1(h * 0.84)}" rx="${r1(w * 0.03)}" fill="url(#g7)"/>` +
    `<rect x="${r1(x1 - w * 0.13)}" y="${r1(y0 + h * 0.1)}" width="${r1(w * 0.025)}" height="${r1(h * 0.7)}" rx="4" fill="url(#g7)" opacity=".6"/>` +
    curvedHl +
    `</g>` +
    `<use href="#b" fill="url(#g4)" stroke="#fff" stroke-opacity=".7" stroke-width="4"/>` +
    `<use href="#b" fill="none" stroke="#000" stroke-opacity=".18" stroke-width="1.5"/>` +
    (body.facets ? `<path d="${body.facets}" fill="none" stroke="#fff" stroke-opacity=".45" stroke-width="2"/>` : "") +
    // label
    `<rect x="${r1(CX - pw / 2)}" y="${r1(py)}" width="${r1(pw)}" height="${ph}" rx="4" fill="${plateFill}" fill-opacity="${plateOp}" stroke="${lineCol}" stroke-opacity=".8" stroke-width="1.5"/>` +
    `<rect x="${r1(CX - pw / 2 + 6)}" y="${r1(py + 6)}" width="${r1(pw - 12)}" height="${ph - 12}" rx="2" fill="none" stroke="${lineCol}" stroke-opacity=".55"/>` +
    `<g font-family="DejaVu Serif, Liberation Serif, serif" text-anchor="middle" fill="${textFill}" letter-spacing="${ls}">${text}${concText}</g>` +
    `</g></svg>`;
  return svg;
}
