// Demo catalogue for Unboxed: real, well-known designer and niche perfumes,
// sold as unboxed bottles and priced in whole Naira. Pure data, no imports but types.
// The concentration is the one in each name; the scent family is the perfume's main family as its
// notes (in the description) place it.

import type { Concentration, Family } from "~/lib/perfume-facts";

export type DemoCategorySlug = "men" | "women" | "unisex";

export interface DemoProduct {
  name: string;
  brand: string;
  category: DemoCategorySlug;
  concentration: Concentration;
  family: Family;
  /** Selling price in whole naira. */
  priceNaira: number;
  /** Amount off (original = price + discount); null when not discounted. */
  discountNaira: number | null;
  stock: number;
  description: string;
  /**
   * A perfume sold in several sizes (docs/decisions/121): the first is the one priceNaira,
   * discountNaira and stock describe; the name then carries no size.
   */
  sizes?: DemoSize[];
}

export interface DemoSize {
  label: string;
  ml: number;
  priceNaira: number;
  discountNaira: number | null;
  stock: number;
}

export const demoCategories: { name: string; nameEs: string; slug: DemoCategorySlug }[] = [
  { name: "Men", nameEs: "Hombre", slug: "men" },
  { name: "Women", nameEs: "Mujer", slug: "women" },
  { name: "Unisex", nameEs: "Unisex", slug: "unisex" },
];

export const demoBrands: string[] = [
  "Chanel",
  "Dior",
  "Tom Ford",
  "Yves Saint Laurent",
  "Giorgio Armani",
  "Versace",
  "Creed",
  "Paco Rabanne",
  "Jean Paul Gaultier",
  "Gucci",
  "Lancôme",
  "Carolina Herrera",
  "Dolce & Gabbana",
  "Maison Francis Kurkdjian",
  "Hugo Boss",
  "Valentino",
  "Hermès",
  "Calvin Klein",
  "Le Labo",
  "Jo Malone London",
];

export const demoProducts: DemoProduct[] = [
  // ---------------------------------------------------------------- Men
  {
    name: "Bleu de Chanel Eau de Parfum 100ml",
    brand: "Chanel",
    category: "men",
    concentration: "edp",
    family: "woody",
    priceNaira: 165000,
    discountNaira: null,
    stock: 14,
    description:
      "Eau de Parfum, 100ml. Grapefruit, lemon, mint and pink pepper open onto ginger, nutmeg and jasmine, settling on incense, cedar, sandalwood and labdanum. A versatile woody-aromatic for the office, evenings and everything in between. Expect seven to nine hours on skin.",
  },
  {
    name: "Allure Homme Sport Eau de Toilette 100ml",
    brand: "Chanel",
    category: "men",
    concentration: "edt",
    family: "fresh",
    priceNaira: 135000,
    discountNaira: null,
    stock: 9,
    description:
      "Eau de Toilette, 100ml. Orange, blood mandarin, sea notes and aldehydes lead to pepper, neroli and cedar, drying down to tonka bean, vanilla, white musk and vetiver. A fresh, clean scent that suits hot afternoons and the gym bag. Lasts around five to six hours.",
  },
  {
    name: "Sauvage Eau de Parfum",
    brand: "Dior",
    category: "men",
    concentration: "edp",
    family: "aromatic",
    priceNaira: 98000,
    discountNaira: null,
    stock: 9,
    sizes: [
      { label: "60 ml", ml: 60, priceNaira: 98000, discountNaira: null, stock: 9 },
      { label: "100 ml", ml: 100, priceNaira: 150000, discountNaira: 15000, stock: 27 },
    ],
    description:
      "Eau de Parfum in 60ml or 100ml, unboxed and 100% authentic. Calabrian bergamot opens onto Sichuan pepper, lavender, star anise and nutmeg, with ambroxan and Papua New Guinea vanilla in the base. Works day or night in any season, and lasts eight hours or more.",
  },
  {
    name: "Dior Homme Intense Eau de Parfum 100ml",
    brand: "Dior",
    category: "men",
    concentration: "edp",
    family: "woody",
    priceNaira: 145000,
    discountNaira: null,
    stock: 6,
    description:
      "Eau de Parfum, 100ml. Lavender leads into a powdery heart of iris, ambrette and pear, resting on Virginia cedar and vetiver. Best for evenings, formal occasions and cooler, air-conditioned rooms. Wears close to the skin for eight hours or more.",
  },
  {
    name: "Noir Extreme Eau de Parfum 100ml",
    brand: "Tom Ford",
    category: "men",
    concentration: "edp",
    family: "amber",
    priceNaira: 195000,
    discountNaira: null,
    stock: 5,
    description:
      "Eau de Parfum, 100ml. Cardamom, nutmeg, saffron and mandarin open onto a kulfi accord with rose, orange blossom and jasmine, over vanilla, amber and sandalwood. A rich, sweet oriental for evenings and dinners. Longevity is excellent at ten hours or more.",
  },
  {
    name: "Y Eau de Parfum 100ml",
    brand: "Yves Saint Laurent",
    category: "men",
    concentration: "edp",
    family: "aromatic",
    priceNaira: 118000,
    discountNaira: 12000,
    stock: 22,
    description:
      "Eau de Parfum, 100ml. Apple, ginger and bergamot lead to sage, juniper berries and geranium, with amberwood, tonka bean, cedar, vetiver and olibanum in the base. An easy daytime and office scent that also works for a night out. Lasts seven to eight hours.",
  },
  {
    name: "La Nuit de L'Homme Eau de Toilette 100ml",
    brand: "Yves Saint Laurent",
    category: "men",
    concentration: "edt",
    family: "woody",
    priceNaira: 98000,
    discountNaira: null,
    stock: 11,
    description:
      "Eau de Toilette, 100ml, unboxed and 100% authentic. Cardamom opens onto lavender, Virginia cedar and bergamot, finishing with vetiver and caraway. A soft, spicy evening scent for dates and dinners rather than midday heat. Expect four to six hours.",
  },
  {
    name: "Acqua di Giò Eau de Toilette 100ml",
    brand: "Giorgio Armani",
    category: "men",
    concentration: "edt",
    family: "fresh",
    priceNaira: 85000,
    discountNaira: null,
    stock: 31,
    description:
      "Eau de Toilette, 100ml. Lime, lemon, bergamot and neroli meet a marine accord with jasmine, rosemary and persimmon, over white musk, cedar, oakmoss and patchouli. A classic aquatic for hot days, the office and casual wear. Lasts around five to six hours.",
  },
  {
    name: "Stronger With You Intensely Eau de Parfum 100ml",
    brand: "Giorgio Armani",
    category: "men",
    concentration: "edp",
    family: "amber",
    priceNaira: 105000,
    discountNaira: 10000,
    stock: 18,
    description:
      "Eau de Parfum, 100ml. Pink pepper, juniper and mandarin lead to toffee, cinnamon, lavender and sage, drying down to vanilla, tonka bean, amber and suede. Sweet and warm, best for evenings and cooler months. Lasts eight hours or more.",
  },
  {
    name: "Eros Eau de Toilette 100ml",
    brand: "Versace",
    category: "men",
    concentration: "edt",
    family: "aromatic",
    priceNaira: 72000,
    discountNaira: null,
    stock: 35,
    description:
      "Eau de Toilette, 100ml. Mint, green apple and lemon open onto tonka bean, ambroxan and geranium, over Madagascar vanilla, Virginian and Atlas cedar, vetiver and oakmoss. Loud and sweet, suited to parties and nights out. Lasts around seven hours.",
  },
  {
    name: "Dylan Blue Pour Homme Eau de Toilette 100ml",
    brand: "Versace",
    category: "men",
    concentration: "edt",
    family: "aromatic",
    priceNaira: 68000,
    discountNaira: null,
    stock: 24,
    description:
      "Eau de Toilette, 100ml. Calabrian bergamot, grapefruit, fig leaves and water notes lead to violet leaf, papyrus, patchouli, black pepper and ambroxan, with mineral musk, tonka bean, saffron and incense in the base. A fresh, easy everyday scent for work and weekends. Expect six to seven hours.",
  },
  {
    name: "Aventus Eau de Parfum 100ml",
    brand: "Creed",
    category: "men",
    concentration: "edp",
    family: "chypre",
    priceNaira: 420000,
    discountNaira: 30000,
    stock: 2,
    description:
      "Eau de Parfum, 100ml, unboxed and 100% authentic. Pineapple, bergamot, blackcurrant and apple open onto birch, patchouli, Moroccan jasmine and rose, over musk, oakmoss, ambergris and vanilla. A smoky, fruity chypre that suits day or evening wear. Lasts around eight hours.",
  },
  {
    name: "Green Irish Tweed Eau de Parfum 100ml",
    brand: "Creed",
    category: "men",
    concentration: "edp",
    family: "aromatic",
    priceNaira: 365000,
    discountNaira: null,
    stock: 2,
    description:
      "Eau de Parfum, 100ml. Lemon verbena and peppermint open onto iris and green violet leaf, resting on sandalwood and ambergris. A crisp, green scent for daytime, the office and warm weather. Lasts six to seven hours.",
  },
  {
    name: "1 Million Eau de Toilette 100ml",
    brand: "Paco Rabanne",
    category: "men",
    concentration: "edt",
    family: "amber",
    priceNaira: 78000,
    discountNaira: null,
    stock: 29,
    description:
      "Eau de Toilette, 100ml. Grapefruit, mint and blood mandarin lead to rose, cinnamon and spices, with leather, woody notes, amber and Indian patchouli in the base. Sweet and spicy, best for evenings and cooler nights. Lasts seven to eight hours.",
  },
  {
    name: "Invictus Eau de Toilette 100ml",
    brand: "Paco Rabanne",
    category: "men",
    concentration: "edt",
    family: "fresh",
    priceNaira: 75000,
    discountNaira: null,
    stock: 33,
    description:
      "Eau de Toilette, 100ml. Grapefruit, sea notes and mandarin open onto bay leaf and jasmine, over ambergris, guaiac wood, oakmoss and patchouli. A fresh, sporty scent for daytime and hot weather. Expect five to six hours.",
  },
  {
    name: "Le Male Eau de Toilette 125ml",
    brand: "Jean Paul Gaultier",
    category: "men",
    concentration: "edt",
    family: "aromatic",
    priceNaira: 88000,
    discountNaira: null,
    stock: 16,
    description:
      "Eau de Toilette, 125ml. Mint, lavender, cardamom, bergamot and artemisia lead to cinnamon, orange blossom and cumin, over vanilla, tonka bean, sandalwood, amber and cedar. A clean, powdery lavender-vanilla for evenings and cooler months. Lasts around seven hours.",
  },
  {
    name: "Le Male Elixir Parfum 125ml",
    brand: "Jean Paul Gaultier",
    category: "men",
    concentration: "parfum",
    family: "amber",
    priceNaira: 115000,
    discountNaira: null,
    stock: 0,
    description:
      "Parfum, 125ml. Lavender and mint open onto vanilla and benzoin, drying down to honey, tonka bean and tobacco. Dense and sweet, best kept for evenings and air-conditioned spaces. Longevity is excellent at ten hours or more.",
  },
  {
    name: "Boss Bottled Eau de Toilette 100ml",
    brand: "Hugo Boss",
    category: "men",
    concentration: "edt",
    family: "woody",
    priceNaira: 62000,
    discountNaira: 9000,
    stock: 38,
    description:
      "Eau de Toilette, 100ml. Apple, plum, lemon, bergamot, oakmoss and geranium lead to cinnamon, mahogany and carnation, over vanilla, sandalwood, cedar, vetiver and olive wood. A dependable office and everyday scent. Lasts five to six hours.",
  },
  {
    name: "Light Blue Pour Homme Eau de Toilette 125ml",
    brand: "Dolce & Gabbana",
    category: "men",
    concentration: "edt",
    family: "citrus",
    priceNaira: 70000,
    discountNaira: null,
    stock: 21,
    description:
      "Eau de Toilette, 125ml. Grapefruit, bergamot, Sicilian mandarin and juniper open onto pepper, rosemary and Brazilian rosewood, with musk, incense and oakmoss in the base. A bright citrus for hot days and casual wear. Expect four to five hours.",
  },
  {
    name: "Uomo Born in Roma Intense Eau de Parfum 100ml",
    brand: "Valentino",
    category: "men",
    concentration: "edp",
    family: "amber",
    priceNaira: 120000,
    discountNaira: null,
    stock: 12,
    description:
      "Eau de Parfum, 100ml, unboxed and 100% authentic. A short, dense pyramid of vanilla, lavender and vetiver. Warm and sweet, it suits evenings, dates and cooler months. Lasts eight hours or more.",
  },
  {
    name: "Guilty Pour Homme Eau de Toilette 90ml",
    brand: "Gucci",
    category: "men",
    concentration: "edt",
    family: "aromatic",
    priceNaira: 82000,
    discountNaira: null,
    stock: 13,
    description:
      "Eau de Toilette, 90ml. Lavender and lemon lead to orange blossom and neroli, drying down to cedar and patchouli. A light aromatic for the office and daytime. Lasts around five hours.",
  },
  {
    name: "Bad Boy Eau de Toilette 100ml",
    brand: "Carolina Herrera",
    category: "men",
    concentration: "edt",
    family: "amber",
    priceNaira: 92000,
    discountNaira: 12000,
    stock: 17,
    description:
      "Eau de Toilette, 100ml. White pepper, black pepper and bergamot open onto sage and cedar, over tonka bean, cocoa and amberwood. A sweet, spicy scent for evenings and nights out. Lasts six to seven hours.",
  },
  {
    name: "Terre d'Hermès Eau de Toilette 100ml",
    brand: "Hermès",
    category: "men",
    concentration: "edt",
    family: "woody",
    priceNaira: 128000,
    discountNaira: null,
    stock: 8,
    description:
      "Eau de Toilette, 100ml. Orange and grapefruit lead to pepper, pelargonium and a mineral flint accord, over vetiver, cedar, patchouli and benzoin. An earthy, understated scent for the office and daytime in any season. Lasts around seven hours.",
  },
  {
    name: "Eternity for Men Eau de Toilette 100ml",
    brand: "Calvin Klein",
    category: "men",
    concentration: "edt",
    family: "aromatic",
    priceNaira: 45000,
    discountNaira: null,
    stock: 40,
    description:
      "Eau de Toilette, 100ml. Lavender, lemon, bergamot and mandarin open onto sage, basil, geranium, juniper and jasmine, over sandalwood, vetiver, rosewood and amber. A clean, classic aromatic for daily wear. Expect four to five hours.",
  },

  // -------------------------------------------------------------- Women
  {
    name: "Coco Mademoiselle Eau de Parfum 100ml",
    brand: "Chanel",
    category: "women",
    concentration: "edp",
    family: "chypre",
    priceNaira: 175000,
    discountNaira: 15000,
    stock: 10,
    description:
      "Eau de Parfum, 100ml, unboxed and 100% authentic. Orange, mandarin, orange blossom and bergamot open onto Turkish rose, jasmine, mimosa and ylang-ylang, over patchouli, white musk, vanilla and vetiver. A polished chypre for work and evenings alike. Lasts eight hours or more.",
  },
  {
    name: "N°5 Eau de Parfum 100ml",
    brand: "Chanel",
    category: "women",
    concentration: "edp",
    family: "floral",
    priceNaira: 185000,
    discountNaira: null,
    stock: 7,
    description:
      "Eau de Parfum, 100ml. Aldehydes, neroli, bergamot and lemon lead to jasmine, rose, lily of the valley, iris and ylang-ylang, over sandalwood, vetiver, vanilla, amber and patchouli. A powdery floral best for evenings and formal occasions. Lasts seven to nine hours.",
  },
  {
    name: "J'adore Eau de Parfum 100ml",
    brand: "Dior",
    category: "women",
    concentration: "edp",
    family: "floral",
    priceNaira: 160000,
    discountNaira: null,
    stock: 15,
    description:
      "Eau de Parfum, 100ml. Pear, melon, mandarin and bergamot open onto jasmine, tuberose, rose, freesia and lily of the valley, resting on musk, vanilla and cedar. A luminous floral for weddings, the office and daytime. Lasts around seven hours.",
  },
  {
    name: "Miss Dior Blooming Bouquet Eau de Toilette 100ml",
    brand: "Dior",
    category: "women",
    concentration: "edt",
    family: "floral",
    priceNaira: 140000,
    discountNaira: 20000,
    stock: 19,
    description:
      "Eau de Toilette, 100ml. Sicilian mandarin leads to peony, Damask rose, apricot and peach, finishing on white musk. Soft and fresh, suited to daytime, brunch and warm weather. Expect four to five hours.",
  },
  {
    name: "Libre Eau de Parfum 90ml",
    brand: "Yves Saint Laurent",
    category: "women",
    concentration: "edp",
    family: "floral",
    priceNaira: 132000,
    discountNaira: null,
    stock: 14,
    description:
      "Eau de Parfum, 90ml. Lavender, mandarin, blackcurrant and petitgrain open onto lavender, orange blossom and jasmine, over Madagascar vanilla, musk, cedar and ambergris. A confident floral-lavender for the office and evenings. Lasts eight hours or more.",
  },
  {
    name: "Black Opium Eau de Parfum 90ml",
    brand: "Yves Saint Laurent",
    category: "women",
    concentration: "edp",
    family: "gourmand",
    priceNaira: 125000,
    discountNaira: 15000,
    stock: 26,
    description:
      "Eau de Parfum, 90ml, unboxed and 100% authentic. Pear, pink pepper and orange blossom lead to coffee, jasmine, bitter almond and liquorice, over vanilla, patchouli, cashmere wood and cedar. A sweet gourmand for nights out. Lasts eight hours or more.",
  },
  {
    name: "La Vie Est Belle Eau de Parfum 100ml",
    brand: "Lancôme",
    category: "women",
    concentration: "edp",
    family: "gourmand",
    priceNaira: 118000,
    discountNaira: null,
    stock: 23,
    description:
      "Eau de Parfum, 100ml. Blackcurrant and pear open onto iris, jasmine and orange blossom, with praline, vanilla, patchouli and tonka bean in the base. A sweet gourmand floral for evenings and cooler months. Lasts well beyond eight hours.",
  },
  {
    name: "Idôle Eau de Parfum 50ml",
    brand: "Lancôme",
    category: "women",
    concentration: "edp",
    family: "floral",
    priceNaira: 85000,
    discountNaira: null,
    stock: 3,
    description:
      "Eau de Parfum, 50ml. Pear, bergamot and pink pepper lead to rose and jasmine, over white musk, vanilla, patchouli and cedar. A clean, modern rose for the office and daytime. Expect six to seven hours.",
  },
  {
    name: "Good Girl Eau de Parfum",
    brand: "Carolina Herrera",
    category: "women",
    concentration: "edp",
    family: "amber",
    priceNaira: 82000,
    discountNaira: 7000,
    stock: 5,
    sizes: [
      { label: "50 ml", ml: 50, priceNaira: 82000, discountNaira: 7000, stock: 5 },
      { label: "80 ml", ml: 80, priceNaira: 112000, discountNaira: null, stock: 0 },
    ],
    description:
      "Eau de Parfum in 50ml or 80ml. Almond, coffee, bergamot and lemon open onto tuberose, jasmine sambac, orange blossom, orris and Bulgarian rose, over tonka bean, cacao, vanilla, praline and sandalwood. A sweet, dark floral for evenings and parties. Lasts eight hours or more.",
  },
  {
    name: "Bloom Eau de Parfum 100ml",
    brand: "Gucci",
    category: "women",
    concentration: "edp",
    family: "floral",
    priceNaira: 110000,
    discountNaira: null,
    stock: 12,
    description:
      "Eau de Parfum, 100ml. A white floral built on tuberose, jasmine and Rangoon creeper, with orris root underneath. Green and natural-smelling rather than sweet, it suits daytime, the office and spring weddings. Lasts around seven hours.",
  },
  {
    name: "Flora Gorgeous Gardenia Eau de Parfum 100ml",
    brand: "Gucci",
    category: "women",
    concentration: "edp",
    family: "floral",
    priceNaira: 115000,
    discountNaira: null,
    stock: 9,
    description:
      "Eau de Parfum, 100ml. Pear blossom and red berries open onto gardenia, jasmine and frangipani, resting on brown sugar and patchouli. A bright, sweet floral for daytime and outings. Expect six to seven hours.",
  },
  {
    name: "Donna Born in Roma Eau de Parfum 100ml",
    brand: "Valentino",
    category: "women",
    concentration: "edp",
    family: "gourmand",
    priceNaira: 122000,
    discountNaira: 12000,
    stock: 20,
    description:
      "Eau de Parfum, 100ml. Blackcurrant, pink pepper and bergamot lead to jasmine sambac and jasmine tea, over bourbon vanilla, cashmeran, guaiac wood and benzoin. A warm floral gourmand for evenings and dates. Lasts eight hours or more.",
  },
  {
    name: "Light Blue Eau de Toilette 100ml",
    brand: "Dolce & Gabbana",
    category: "women",
    concentration: "edt",
    family: "citrus",
    priceNaira: 70000,
    discountNaira: null,
    stock: 30,
    description:
      "Eau de Toilette, 100ml. Sicilian lemon, apple, cedar and bellflower open onto bamboo, jasmine and white rose, over cedar, musk and amber. A crisp citrus for hot afternoons and holidays. Expect four to five hours.",
  },
  {
    name: "The One Eau de Parfum 75ml",
    brand: "Dolce & Gabbana",
    category: "women",
    concentration: "edp",
    family: "floral",
    priceNaira: 88000,
    discountNaira: null,
    stock: 11,
    description:
      "Eau de Parfum, 75ml. Peach, mandarin, lychee and bergamot lead to lily, plum, jasmine and lily of the valley, over vanilla, amber, musk and vetiver. A soft, warm floral for evenings and cooler weather. Lasts around seven hours.",
  },
  {
    name: "Bright Crystal Eau de Toilette 90ml",
    brand: "Versace",
    category: "women",
    concentration: "edt",
    family: "floral",
    priceNaira: 65000,
    discountNaira: 6500,
    stock: 34,
    description:
      "Eau de Toilette, 90ml, unboxed and 100% authentic. Yuzu, pomegranate and an icy accord open onto peony, magnolia and lotus, over musk, mahogany and amber. A light, fresh floral for daytime and warm weather. Expect four to five hours.",
  },
  {
    name: "Lady Million Eau de Parfum 80ml",
    brand: "Paco Rabanne",
    category: "women",
    concentration: "edp",
    family: "floral",
    priceNaira: 80000,
    discountNaira: null,
    stock: 25,
    description:
      "Eau de Parfum, 80ml. Neroli, raspberry and lemon lead to orange blossom, jasmine and gardenia, with honey, patchouli and amber in the base. A bold, sweet floral for parties and evenings. Lasts seven to eight hours.",
  },
  {
    name: "Scandal Eau de Parfum 80ml",
    brand: "Jean Paul Gaultier",
    category: "women",
    concentration: "edp",
    family: "floral",
    priceNaira: 95000,
    discountNaira: null,
    stock: 13,
    description:
      "Eau de Parfum, 80ml. Blood orange and mandarin open onto honey, gardenia, orange blossom, jasmine and peach, over beeswax, caramel, patchouli and liquorice. A rich honeyed floral for evenings out. Lasts eight hours or more.",
  },
  {
    name: "Sì Eau de Parfum 100ml",
    brand: "Giorgio Armani",
    category: "women",
    concentration: "edp",
    family: "chypre",
    priceNaira: 120000,
    discountNaira: null,
    stock: 16,
    description:
      "Eau de Parfum, 100ml. Blackcurrant nectar leads to May rose and freesia, over vanilla, patchouli, ambroxan and woody notes. An elegant fruity chypre for the office and evenings. Lasts around eight hours.",
  },
  {
    name: "Boss Alive Eau de Parfum 80ml",
    brand: "Hugo Boss",
    category: "women",
    concentration: "edp",
    family: "fruity",
    priceNaira: 66000,
    discountNaira: null,
    stock: 28,
    description:
      "Eau de Parfum, 80ml. Apple, plum, blackcurrant and lemon open onto jasmine, cinnamon and thyme, over vanilla, sandalwood, cedar and olive wood. A warm, fruity everyday scent for work and weekends. Expect six to seven hours.",
  },
  {
    name: "À la rose Eau de Parfum 70ml",
    brand: "Maison Francis Kurkdjian",
    category: "women",
    concentration: "edp",
    family: "floral",
    priceNaira: 285000,
    discountNaira: null,
    stock: 1,
    description:
      "Eau de Parfum, 70ml, unboxed and 100% authentic. Californian orange and bergamot lift a heart of Damask and centifolia rose with violet, resting on cedar and musk. A fresh, transparent rose for daytime, weddings and warm weather. Lasts around six hours.",
  },

  // ------------------------------------------------------------- Unisex
  {
    name: "Oud Wood Eau de Parfum",
    brand: "Tom Ford",
    category: "unisex",
    concentration: "edp",
    family: "woody",
    priceNaira: 195000,
    discountNaira: null,
    stock: 0,
    sizes: [
      { label: "30 ml", ml: 30, priceNaira: 195000, discountNaira: null, stock: 0 },
      { label: "50 ml", ml: 50, priceNaira: 290000, discountNaira: 30000, stock: 6 },
      { label: "100 ml", ml: 100, priceNaira: 445000, discountNaira: null, stock: 2 },
    ],
    description:
      "Eau de Parfum in 30ml, 50ml or 100ml, from the Private Blend line. Oud, rosewood, cardamom and Sichuan pepper lead to sandalwood and vetiver, over tonka bean, vanilla and amber. A smooth, dry woody scent for the office and evenings. Lasts seven to eight hours.",
  },
  {
    name: "Tobacco Vanille Eau de Parfum 50ml",
    brand: "Tom Ford",
    category: "unisex",
    concentration: "edp",
    family: "amber",
    priceNaira: 295000,
    discountNaira: null,
    stock: 4,
    description:
      "Eau de Parfum, 50ml, from the Private Blend line. Tobacco leaf and spices open onto vanilla, cacao, tonka bean and tobacco blossom, over dried fruits and woody notes. Rich and heavy, best for evenings and cooler months. Lasts ten hours or more.",
  },
  {
    name: "Lost Cherry Eau de Parfum 50ml",
    brand: "Tom Ford",
    category: "unisex",
    concentration: "edp",
    family: "gourmand",
    priceNaira: 330000,
    discountNaira: null,
    stock: 0,
    description:
      "Eau de Parfum, 50ml, from the Private Blend line. Black cherry, cherry liqueur and bitter almond lead to Turkish rose and jasmine sambac, over Peru balsam, roasted tonka, sandalwood, vetiver and cedar. A boozy, sweet scent for evenings and dates. Lasts around eight hours.",
  },
  {
    name: "Black Orchid Eau de Parfum 100ml",
    brand: "Tom Ford",
    category: "unisex",
    concentration: "edp",
    family: "amber",
    priceNaira: 175000,
    discountNaira: null,
    stock: 10,
    description:
      "Eau de Parfum, 100ml. Black truffle, ylang-ylang, blackcurrant, bergamot and gardenia open onto black orchid, spices and lotus, over Mexican chocolate, patchouli, incense, vanilla and sandalwood. Dark and dense, it is an evening scent for cooler weather. Lasts ten hours or more.",
  },
  {
    name: "Ombré Leather Eau de Parfum 100ml",
    brand: "Tom Ford",
    category: "unisex",
    concentration: "edp",
    family: "leather",
    priceNaira: 190000,
    discountNaira: 20000,
    stock: 8,
    description:
      "Eau de Parfum, 100ml, unboxed and 100% authentic. Cardamom opens onto leather and jasmine sambac, over amber, moss and patchouli. A soft, smoky leather for evenings and air-conditioned offices. Lasts eight hours or more.",
  },
  {
    name: "Baccarat Rouge 540 Eau de Parfum 70ml",
    brand: "Maison Francis Kurkdjian",
    category: "unisex",
    concentration: "edp",
    family: "amber",
    priceNaira: 430000,
    discountNaira: null,
    stock: 0,
    description:
      "Eau de Parfum, 70ml. Saffron and jasmine lead to amberwood and ambergris, with fir resin and cedar in the base. An airy, sweet-mineral amber that works day or night in any season. Lasts well beyond ten hours.",
  },
  {
    name: "Grand Soir Eau de Parfum 70ml",
    brand: "Maison Francis Kurkdjian",
    category: "unisex",
    concentration: "edp",
    family: "amber",
    priceNaira: 310000,
    discountNaira: null,
    stock: 4,
    description:
      "Eau de Parfum, 70ml. Spanish labdanum leads to Siam benzoin, over amber, tonka bean and vanilla. A resinous amber for evenings and formal occasions. Lasts ten hours or more.",
  },
  {
    name: "Aqua Universalis Eau de Toilette 70ml",
    brand: "Maison Francis Kurkdjian",
    category: "unisex",
    concentration: "edt",
    family: "fresh",
    priceNaira: 260000,
    discountNaira: 35000,
    stock: 5,
    description:
      "Eau de Toilette, 70ml. Bergamot and Sicilian lemon open onto lily of the valley and white flowers, over light woods and musk. A clean, laundered scent for hot days and the office. Expect four to five hours.",
  },
  {
    name: "Gentle Fluidity Gold Eau de Parfum 70ml",
    brand: "Maison Francis Kurkdjian",
    category: "unisex",
    concentration: "edp",
    family: "amber",
    priceNaira: 270000,
    discountNaira: null,
    stock: 7,
    description:
      "Eau de Parfum, 70ml. Nutmeg, juniper berries and coriander lead to musk, over amberwood and vanilla. A warm, musky amber for evenings and cooler months. Lasts around eight hours.",
  },
  {
    name: "Silver Mountain Water Eau de Parfum 100ml",
    brand: "Creed",
    category: "unisex",
    concentration: "edp",
    family: "fresh",
    priceNaira: 360000,
    discountNaira: null,
    stock: 3,
    description:
      "Eau de Parfum, 100ml. Bergamot and mandarin open onto green tea and blackcurrant, over musk, petitgrain, sandalwood and galbanum. A cool, clean scent for hot weather and daytime wear. Lasts around six hours.",
  },
  {
    name: "Virgin Island Water Eau de Parfum 100ml",
    brand: "Creed",
    category: "unisex",
    concentration: "edp",
    family: "citrus",
    priceNaira: 375000,
    discountNaira: 40000,
    stock: 4,
    description:
      "Eau de Parfum, 100ml, unboxed and 100% authentic. Lime, bergamot and mandarin lead to coconut, ginger, hibiscus and jasmine, over white rum, sugar cane and musk. A tropical scent for beach weekends, holidays and hot days. Lasts five to six hours.",
  },
  {
    name: "Oud Ispahan Eau de Parfum 125ml",
    brand: "Dior",
    category: "unisex",
    concentration: "edp",
    family: "woody",
    priceNaira: 395000,
    discountNaira: null,
    stock: 3,
    description:
      "Eau de Parfum, 125ml, from La Collection Privée. Damask rose sits over labdanum, with oud, patchouli and sandalwood in the base. A dark, resinous rose for evenings and special occasions. Lasts ten hours or more.",
  },
  {
    name: "Armani Privé Bois d'Encens Eau de Parfum 100ml",
    brand: "Giorgio Armani",
    category: "unisex",
    concentration: "edp",
    family: "woody",
    priceNaira: 310000,
    discountNaira: null,
    stock: 5,
    description:
      "Eau de Parfum, 100ml. Black pepper opens onto a heart of incense (olibanum), over vetiver and cedar. A dry, smoky woody scent for evenings and cooler, air-conditioned spaces. Lasts around eight hours.",
  },
  {
    name: "Mémoire d'une Odeur Eau de Parfum 100ml",
    brand: "Gucci",
    category: "unisex",
    concentration: "edp",
    family: "musky",
    priceNaira: 98000,
    discountNaira: null,
    stock: 14,
    description:
      "Eau de Parfum, 100ml. Bitter almond and Roman chamomile lead to Indian coral jasmine and musk, over sandalwood, cedar and vanilla. A soft, herbal musk for daytime and relaxed weekends. Expect five to six hours.",
  },
  {
    name: "Un Jardin sur le Nil Eau de Toilette 100ml",
    brand: "Hermès",
    category: "unisex",
    concentration: "edt",
    family: "fresh",
    priceNaira: 125000,
    discountNaira: null,
    stock: 9,
    description:
      "Eau de Toilette, 100ml. Green mango, lotus, grapefruit, tomato leaf and carrot open onto sycamore wood, bulrush, hyacinth and peony, over incense, iris, musk and labdanum. A green, watery scent for hot days and the office. Expect four to five hours.",
  },
  {
    name: "Santal 33 Eau de Parfum 100ml",
    brand: "Le Labo",
    category: "unisex",
    concentration: "edp",
    family: "woody",
    priceNaira: 410000,
    discountNaira: null,
    stock: 1,
    description:
      "Eau de Parfum, 100ml, unboxed and 100% authentic. Cardamom, iris and violet lead to ambrox, Australian sandalwood and papyrus, over cedar and leather. A dry, creamy woody scent for daily wear in any season. Lasts eight hours or more.",
  },
  {
    name: "Another 13 Eau de Parfum 50ml",
    brand: "Le Labo",
    category: "unisex",
    concentration: "edp",
    family: "musky",
    priceNaira: 280000,
    discountNaira: null,
    stock: 6,
    description:
      "Eau de Parfum, 50ml. Ambroxan and ambrette seed sit with jasmine, moss and pear over a musky base. A skin-like musk for the office and layering. Lasts around eight hours, though it wears quietly.",
  },
  {
    name: "CK One Eau de Toilette 200ml",
    brand: "Calvin Klein",
    category: "unisex",
    concentration: "edt",
    family: "citrus",
    priceNaira: 48000,
    discountNaira: 6000,
    stock: 37,
    description:
      "Eau de Toilette, 200ml. Bergamot, lemon, pineapple, papaya and cardamom open onto lily of the valley, jasmine, violet, nutmeg and rose, over musk, cedar, sandalwood, oakmoss and amber. A light citrus for hot days and the gym. Expect three to four hours.",
  },
  {
    name: "Wood Sage & Sea Salt Cologne 100ml",
    brand: "Jo Malone London",
    category: "unisex",
    concentration: "edc",
    family: "aromatic",
    priceNaira: 165000,
    discountNaira: null,
    stock: 12,
    description:
      "Cologne, 100ml, which is lighter than an EDT. Ambrette seed and sea salt lead to sage and red algae, giving a mineral, woody freshness. Suited to daytime, hot weather and layering. Expect three to four hours.",
  },
  {
    name: "English Pear & Freesia Cologne 100ml",
    brand: "Jo Malone London",
    category: "unisex",
    concentration: "edc",
    family: "fruity",
    priceNaira: 150000,
    discountNaira: null,
    stock: 10,
    description:
      "Cologne, 100ml, which is lighter than an EDT. King William pear and melon open onto freesia and rose, over patchouli, rhubarb, amber and white musk. A soft, fruity floral for daytime and the office. Expect three to four hours.",
  },
];
