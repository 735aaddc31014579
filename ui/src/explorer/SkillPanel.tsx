import { commands, type SkillLoaded, type SkillSummary } from "../bindings";
import { SkillDetail } from "./SkillDetail";
import { useHostCall } from "./useHostCall";
import { useKept } from "./kept";

/** A skill: loaded (its files read and checked) only when the person asks. */
export function SkillPanel({ server, skill }: { server: string; skill: SkillSummary }) {
  const key = `skill:${server}/${skill.uri}`;
  const load = useHostCall<SkillLoaded>(key);
  const [loading, setLoading] = useKept(`${key}:loading`, false);
  const onLoad = () => {
    setLoading(true);
    void load.run(commands.loadSkill(server, skill.uri)).finally(() => setLoading(false));
  };
  return <SkillDetail server={server} skill={skill} onLoad={onLoad} loading={loading} loaded={load.result} error={load.error} />;
}
