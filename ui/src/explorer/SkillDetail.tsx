import { useId } from "react";
import type { SkillLoaded, SkillSummary } from "../bindings";
import { formatBytes } from "../content/binary";
import { SafeMarkdown } from "../content/SafeMarkdown";
import { useT } from "../i18n";
import { DetailHeader } from "./DetailHeader";
import { ErrorNote } from "./ErrorNote";
import "./explorer.css";

interface Props {
  server: string;
  skill: SkillSummary;
  /** Loads the skill: reads its files and checks them against its manifest. */
  onLoad(): void;
  /** Whether a load is under way. */
  loading: boolean;
  loaded?: SkillLoaded | null;
  error?: string | null;
  onOpenLink?(url: string): void;
}

/** A SKILL.md split into its YAML frontmatter (shown as it is written) and the markdown after it. */
export function frontmatterOf(text: string): { frontmatter: string | null; body: string } {
  const found = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  return found ? { frontmatter: found[1] ?? "", body: text.slice(found[0].length) } : { frontmatter: null, body: text };
}

/** A skill (SEP-2640): what its server lists of it, then its instructions once loaded and checked. */
export function SkillDetail(props: Props) {
  const t = useT();
  const { server, skill, onLoad, loading, loaded, error, onOpenLink } = props;
  const headingId = useId();
  const filesId = useId();
  const instructions = loaded ? frontmatterOf(loaded.instructions) : null;
  return (
    <article className="explorer-item" aria-labelledby={headingId}>
      <DetailHeader kind="skill" title={skill.name} name={skill.name} server={server} headingId={headingId} />
      <p>
        <code className="detail-uri">{skill.uri}</code>
      </p>
      {skill.description && <SafeMarkdown text={skill.description} onOpenLink={onOpenLink} />}
      <p className="muted">{skill.allowedForModels ? t("explorer.skill.allowed") : t("explorer.skill.asksFirst")}</p>
      <section className="skill-files" aria-labelledby={filesId}>
        <h3 id={filesId}>{t("explorer.skill.files")}</h3>
        {skill.files.length === 0 ? (
          <p className="muted">{t("explorer.skill.noFiles")}</p>
        ) : (
          <ul>
            {skill.files.map((file) => (
              <li key={file.uri}>
                <code className="detail-uri">{file.uri}</code> <span className="muted">{formatBytes(file.size)}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <div className="detail-actions">
        <button type="button" className="primary" onClick={onLoad} disabled={loading} aria-busy={loading ? "true" : undefined}>
          {t("explorer.skill.load")}
        </button>
      </div>
      {loading && (
        <p className="muted" role="status">
          {t("explorer.skill.loading")}
        </p>
      )}
      {error && (
        <>
          <ErrorNote error={error} />
          <p className="muted">{t("explorer.skill.refused")}</p>
        </>
      )}
      {instructions && !error && (
        // Scrolls on its own: focusable, so that the keyboard scrolls it too.
        <section className="skill-instructions" aria-label={t("explorer.skill.instructions")} tabIndex={0}>
          {instructions.frontmatter !== null && <pre className="skill-frontmatter">{instructions.frontmatter}</pre>}
          <SafeMarkdown text={instructions.body} onOpenLink={onOpenLink} />
        </section>
      )}
    </article>
  );
}
