/**
 * The local media store's routes (not tRPC procedures: raw bytes, no API key):
 * `PUT /v1/media/uploads/{object_key}?expires=..&signature=..` takes the bytes of an
 * upload announced by `POST /v1/media`; `GET` on the same path shows the stored image.
 */
import { type H3, type H3Event, getRouterParams } from "h3";
import { FastResponse } from "srvx";
import type { Services } from "../../core/context.ts";
import { toApiFailure } from "../../core/api_failure.ts";
import { acceptUpload, uploadedObject } from "../../core/media/accept_upload.ts";
import { failureResponse, jsonResponse } from "./responses.ts";

const ROUTE = "/v1/media/uploads/:object_key";

/** Registers the upload and object routes on `app`. */
export function mountMediaRoutes(app: H3, services: Services): void {
  app.put(ROUTE, (event) => answer(() => receive(event, services)));
  app.get(ROUTE, (event) => answer(() => serve(event, services)));
}

async function receive(event: H3Event, services: Services): Promise<Response> {
  const { searchParams } = event.url;
  const stored = await acceptUpload(services, {
    objectKey: objectKeyOf(event),
    expires: searchParams.get("expires"),
    signature: searchParams.get("signature"),
    contentType: event.req.headers.get("content-type"),
    contentLength: event.req.headers.get("content-length"),
    body: event.req.body,
  });
  return jsonResponse(200, stored, new Headers());
}

async function serve(event: H3Event, services: Services): Promise<Response> {
  const { bytes, contentType } = await uploadedObject(services, objectKeyOf(event));
  // (@types/node 20 types BodyInit without Uint8Array views; a Uint8Array body is standard.)
  return new FastResponse(bytes as unknown as BodyInit, {
    headers: {
      "Content-Type": contentType,
      "Content-Length": String(bytes.length),
      // Only checked images are served, and never as anything else.
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'",
      "Cache-Control": "public, max-age=3600",
    },
  }) as Response;
}

async function answer(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    return failureResponse(toApiFailure(error), new Headers());
  }
}

function objectKeyOf(event: H3Event): string {
  return (getRouterParams(event, { decode: true }) as { object_key?: string }).object_key ?? "";
}
