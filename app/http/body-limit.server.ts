import type { RequestHandler } from "express";
import enCommon from "../locales/en/common.json";
import esCommon from "../locales/es/common.json";
import { MAX_IMPORT_BYTES, MAX_PHOTO_ZIP_BYTES, MAX_UPLOAD_BYTES } from "../lib/admin";
import { localeOfNodeRequest } from "./cookies.server";

/**
 * How much a request may send (docs/decisions/070). Plain code with no translation loader, so the
 * HTTP server (server.ts) and the form reader (app/http/form.server.ts) decide the same way.
 */

/** Every form the shop has, except a product photo upload, fits in far less. */
export const FORM_BODY_LIMIT = 256 * 1024;
/** Room for the other fields of a product form next to a full-size image. */
export const FORM_FIELDS_ALLOWANCE = 64 * 1024;
/** The largest body any route accepts: one product photo and the product form's other fields. */
export const UPLOAD_BODY_LIMIT = MAX_UPLOAD_BYTES + FORM_FIELDS_ALLOWANCE;

/** A catalogue CSV file (docs/decisions/110) and the import form's other fields. */
export const IMPORT_BODY_LIMIT = MAX_IMPORT_BYTES + FORM_FIELDS_ALLOWANCE;

/** A zip of product photos (docs/decisions/120) and the form's other fields. */
export const PHOTO_ZIP_BODY_LIMIT = MAX_PHOTO_ZIP_BYTES + FORM_FIELDS_ALLOWANCE;

// Photo uploads: the product form (with JavaScript it posts to /admin/products.data) and a product's
// photo gallery (docs/decisions/124).
const UPLOAD_PATH = /^\/admin\/products(\/\d{1,9}\/photos)?(\.data)?\/?$/;
// The catalogue import takes a CSV file.
const IMPORT_PATH = /^\/admin\/products\/import(\.data)?\/?$/;
// The photo import takes a zip.
const PHOTOS_PATH = /^\/admin\/products\/photos(\.data)?\/?$/;

/** The media type of a Content-Type header, lower case and without parameters ("" when there is none). */
export function mediaType(contentType: string | null | undefined): string {
  return (contentType ?? "").split(";")[0].trim().toLowerCase();
}

/** The upload limit for a multipart post to an upload route, else the form limit. */
export function bodyLimitFor(path: string, contentType: string | null | undefined): number {
  if (mediaType(contentType) !== "multipart/form-data") return FORM_BODY_LIMIT;
  if (UPLOAD_PATH.test(path)) return UPLOAD_BODY_LIMIT;
  if (IMPORT_PATH.test(path)) return IMPORT_BODY_LIMIT;
  if (PHOTOS_PATH.test(path)) return PHOTO_ZIP_BODY_LIMIT;
  return FORM_BODY_LIMIT;
}

const TOO_LARGE = { en: enCommon.error.tooLarge, es: esCommon.error.tooLarge };

/**
 * 413 at once for a declared Content-Length above the form limit, before anything reads the body (a
 * multipart post to the product form is left to its route, which says so under the image field).
 * A body without a declared length (chunked) is counted as it arrives by the form reader, which every
 * action uses.
 */
export function refuseLargeBodies(): RequestHandler {
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    const limit = bodyLimitFor(req.path, req.get("content-type"));
    // A photo upload (or a catalogue file) is answered by its route, with the message on its form.
    if (limit === UPLOAD_BODY_LIMIT || limit === IMPORT_BODY_LIMIT || limit === PHOTO_ZIP_BODY_LIMIT) return next();
    const declared = req.get("content-length");
    if (declared === undefined || (/^\d{1,15}$/.test(declared) && Number(declared) <= limit)) return next();
    res.status(413).set("Cache-Control", "no-store").type("text/plain").send(TOO_LARGE[localeOfNodeRequest(req)]);
  };
}
