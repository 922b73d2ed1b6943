import QRCode from "qrcode";

/**
 * A QR code as one SVG path (a square of 1x1 cells, with a 4-cell quiet zone): drawn by React as an
 * ordinary <svg>, so no markup string is injected into the page.
 */
export function qrPath(text: string): { size: number; d: string } {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
  const quiet = 4;
  const parts: string[] = [];
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (modules.get(row, col)) parts.push(`M${col + quiet} ${row + quiet}h1v1h-1z`);
    }
  }
  return { size: modules.size + quiet * 2, d: parts.join("") };
}
