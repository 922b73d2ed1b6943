import { deflateSync } from "node:zlib";
import sharp from "sharp";

/** Real image files for upload tests, made at test time. */

export function solidImage(format: "png" | "jpeg" | "webp" | "avif" | "gif", width = 600, height = 750, colour = "#b08a57"): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .toFormat(format)
    .toBuffer();
}

/** Left half red, right half blue, tagged as needing a quarter turn clockwise, with camera EXIF. */
export async function orientedPhoto(): Promise<Buffer> {
  const half = (colour: string) => sharp({ create: { width: 400, height: 400, channels: 3, background: colour } }).png().toBuffer();
  const [red, blue] = await Promise.all([half("#ff0000"), half("#0000ff")]);
  return sharp({ create: { width: 800, height: 400, channels: 3, background: "#ffffff" } })
    .composite([
      { input: red, left: 0, top: 0 },
      { input: blue, left: 400, top: 0 },
    ])
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExif({ IFD0: { Make: "TestCam", Model: "Secret Model", Copyright: "GPS 6.5244N 3.3792E" } })
    .toBuffer();
}

let crcTable: number[] | null = null;
function crc32(bytes: Buffer): number {
  crcTable ??= Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let crc = 0xffffffff;
  for (const b of bytes) crc = crcTable[(crc ^ b) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A complete, valid black-and-white PNG of width x height: one bit a pixel, all zeros, so 20,000 x
 * 20,000 compresses to about 50 KB and is made in a fraction of a second.
 */
export function hugePng(width = 20_000, height = 20_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc((1 + Math.ceil(width / 8)) * height);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

export const SVG_IMAGE = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="500"><rect width="400" height="500" fill="#b08a57"/><script>alert(1)</script></svg>',
);

export const TEXT_NAMED_JPG = Buffer.from("This is not a photo, just text pretending to be photo.jpg\n".repeat(20));
