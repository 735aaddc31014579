// Loaded before the conformance suite (`node --import ./with-bearer.mjs ...`) to give its
// requests an agent's bearer token: `conformance server` has no option for a header, and
// Switchboard's gateway answers no request without a token. Every HTTP request the process
// makes to the origin of MCP_BEARER_URL (through `fetch` or undici's `request`, both on
// the global dispatcher, or through `node:http`'s `request`, which some scenarios use to
// send headers `fetch` would not) carries `Authorization: Bearer $MCP_BEARER_TOKEN`, unless it
// already has an Authorization header; nothing else changes.
import http from "node:http";
import { syncBuiltinESMExports } from "node:module";
import { Agent, setGlobalDispatcher } from "undici";

const target = new URL(process.env.MCP_BEARER_URL).origin;
const bearer = `Bearer ${process.env.MCP_BEARER_TOKEN}`;

/** The request's headers as [name, value] pairs, whichever form undici was given. */
function pairs(headers) {
  if (!headers) return [];
  if (Array.isArray(headers)) {
    if (headers.length > 0 && Array.isArray(headers[0])) return headers;
    const flat = [];
    for (let i = 0; i + 1 < headers.length; i += 2) flat.push([headers[i], headers[i + 1]]);
    return flat;
  }
  if (typeof headers[Symbol.iterator] === "function") return [...headers];
  return Object.entries(headers);
}

const withBearer = (dispatch) => (options, handler) => {
  const origin = new URL(String(options.origin)).origin;
  const headers = pairs(options.headers);
  if (origin === target && !headers.some(([name]) => String(name).toLowerCase() === "authorization")) {
    headers.push(["authorization", bearer]);
    return dispatch({ ...options, headers: headers.flat() }, handler);
  }
  return dispatch(options, handler);
};

setGlobalDispatcher(new Agent().compose(withBearer));

const plainRequest = http.request;
http.request = function request(options, ...rest) {
  const plain = options && typeof options === "object" && !(options instanceof URL);
  if (plain && options.hostname && new URL(`http://${options.hostname}:${options.port ?? 80}`).origin === target) {
    const headers = { ...(options.headers ?? {}) };
    if (!Object.keys(headers).some((name) => name.toLowerCase() === "authorization")) {
      headers.authorization = bearer;
    }
    return plainRequest.call(this, { ...options, headers }, ...rest);
  }
  return plainRequest.call(this, options, ...rest);
};
syncBuiltinESMExports();
