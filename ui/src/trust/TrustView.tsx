import { commands } from "../bindings";
import { useFetched } from "../host/updates";
import { TrustReview } from "./TrustReview";
import { OwnCallsSwitch } from "./OwnCallsSwitch";

/** What the person has allowed: revoking takes effect at once, and the lists are fetched again. */
export function TrustView() {
  // A rule is made or used when an approval leaves the list; folders change when servers do.
  const rules = useFetched(() => commands.standingRules(), ["approval_removed", "servers_changed", "catalog_changed"]);
  const sampling = useFetched(() => commands.samplingRules(), ["approval_removed", "servers_changed"]);
  const folders = useFetched(() => commands.sharedFolders(), ["approval_removed", "servers_changed", "status"]);
  return (
    <>
      <OwnCallsSwitch />
      <TrustReview
        rules={rules.data ?? []}
        sampling={sampling.data ?? []}
        folders={folders.data ?? []}
        onRevokeRule={(rule) =>
          void commands
            .revokeRule(rule.server, rule.tool ?? null, rule.reads, rule.agent ?? null)
            .then(rules.refresh, rules.refresh)
        }
        onRevokeSampling={(server) => void commands.revokeSamplingRule(server).then(sampling.refresh, sampling.refresh)}
        onRevokeFolders={(server) =>
          void commands.setServerRoots(server, []).then(folders.refresh, folders.refresh)
        }
      />
    </>
  );
}
