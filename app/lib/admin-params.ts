/** Reading the admin screens' URL and form parameters: anything malformed reads as absent. */

export function positiveInt(value: FormDataEntryValue | string | null | undefined): number | null {
  if (typeof value !== "string" || !/^\d{1,9}$/.test(value.trim())) return null;
  const n = Number(value);
  return n > 0 ? n : null;
}

export function pageParam(value: FormDataEntryValue | string | null | undefined): number {
  return positiveInt(value) ?? 1;
}

export function searchParam(value: FormDataEntryValue | string | null | undefined): string {
  return typeof value === "string" ? value.trim().slice(0, 100) : "";
}
