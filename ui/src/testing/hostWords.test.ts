import { describe, expect, it } from "vitest";
import type {
  CallFailure,
  FileNotice,
  Unreadable,
  EraReason_Serialize as EraReason,
  GatewayProblem,
  ImportWarning,
  ServerState_Serialize as ServerState,
  Skipped,
  Trouble,
} from "../bindings";
import { gatewayProblemText } from "../agents/gateway";
import { failureText } from "../chat/failures";
import { fileNoticeText } from "../shell/fileNotices";
import { unreadableText } from "../registry/unreadable";
import { troubleText } from "../chat/trouble";
import { importWarningText, skippedText } from "../servers/imports";
import { eraText, whyText } from "../servers/reasons";
import samples from "./reasons.json";

/**
 * What the host tells the window by kind, each with the host's own English for it
 * (`src-tauri/told.rs` writes the samples): the window's English is the host's, word for
 * word. Each area's tests say it in Chinese.
 */
const told: [string, [text: string | null, said: () => string | null][]][] = [
  ["why a server is in its state", samples.servers.map(({ why, state }) => [why, () => whyText(state as ServerState)])],
  ["why its revision was chosen", samples.eras.map(({ text, reason }) => [text, () => eraText(reason as EraReason)])],
  ["why a model's tool call failed", samples.calls.map(({ text, failure }) => [text, () => failureText(failure as CallFailure)])],
  ["what an import warns of", samples.importWarnings.map(({ text, warning }) => [text, () => importWarningText(warning as ImportWarning)])],
  ["why an import skips a server", samples.skipped.map(({ text, reason }) => [text, () => skippedText(reason as Skipped)])],
  ["what went wrong with a model's provider", samples.troubles.map(({ text, trouble }) => [text, () => troubleText(trouble as Trouble)])],
  ["a registry entry that could not be read", samples.registryUnreadable.map(({ text, entry }) => [text, () => unreadableText(entry as Unreadable)])],
  ["what the host did about a file it keeps", samples.fileNotices.map(({ text, notice }) => [text, () => fileNoticeText(notice as FileNotice)])],
  ["why agents cannot reach Switchboard over HTTP", samples.gateway.map(({ text, problem }) => [text, () => gatewayProblemText(problem as GatewayProblem)])],
];

describe("the window's English for what the host tells by kind", () => {
  it.each(told)("is the host's: %s", (_, cases) => {
    for (const [text, said] of cases) expect(said()).toBe(text);
  });
});
