// The shapes the app's commands produce for the Servers and Activity views.

export type ServerState =
  | { state: "starting" }
  | {
      state: "running";
      protocol_version: string;
      server_name: string;
      /** Spoken statelessly (2026-07-28), not in a session opened by `initialize`. */
      stateless: boolean;
      /** How the revision was chosen, in words. */
      why_revision: string;
    }
  | { state: "restarting"; attempt: number; backoff_ms: number; reason: string }
  | { state: "stopped" }
  | { state: "failed"; reason: string; stderr_tail: string[] }
  /** `token_instead`: signing in cannot work here; a personal access token can. */
  | { state: "auth_required"; detail: string; token_instead?: boolean };

export type Transport = "stdio" | "http";

/** An env var or HTTP header; `secret` = stored in the OS keyring. */
export interface KeyValue {
  key: string;
  value: string;
  secret: boolean;
  /** A secret already in the keyring: its value reads as "" and an empty value keeps it. */
  stored?: boolean;
}

export interface ServerForm {
  name: string;
  transport: Transport;
  enabled: boolean;
  // stdio
  command: string;
  args: string[];
  cwd: string;
  env: KeyValue[];
  // http
  url: string;
  httpMode: "auto" | "streamable_http" | "legacy_sse";
  headers: KeyValue[];
  /** A client registered beforehand; "" for none. Its secret reads as "" once stored. */
  clientId: string;
  clientSecret: string;
  clientSecretStored: boolean;
  /** The authorization server the client was made at, the only one its secret is sent to. */
  clientIssuer: string;
  requestTimeoutSecs: number | null;
  trusted: boolean;
  /** Which era of the protocol to speak: found out by probing, or forced. */
  protocolEra: "auto" | "stateless" | "session";
}

export interface ServerSummary {
  name: string;
  enabled: boolean;
  transport: Transport;
  /** The command line or the URL. */
  target: string;
  state: ServerState | null;
  /** When the state began, epoch ms. */
  since_ms: number;
}

export interface LogEntry {
  server: string;
  at_ms: number;
  source: "stderr" | "protocol" | "server";
  /** The MCP logging level, for source "server". */
  level: string | null;
  text: string;
}

export interface AuditRow {
  id: number;
  at_ms: number;
  kind: string;
  server: string;
  subject: string;
  decision: string;
  decided_by: string;
  outcome: string;
  duration_ms: number | null;
  /** Who asked for a tool call ("the person", "model in conversation 3"); empty for what a server asked. */
  asked_by?: string;
  /** The arguments or request, as kept. */
  detail?: unknown;
  /** How a tool call's decision was given: "once", "session", "always", "rule", "own"; null if unknown. */
  given?: string | null;
}

export interface ProgressItem {
  token: string;
  server: string;
  label: string;
  progress: number;
  total: number | null;
  message: string | null;
  started_ms: number;
}
