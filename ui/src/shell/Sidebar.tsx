import icon from "../../../assets/icons/128x128.png";
import { useT } from "../i18n";
import { VIEWS, viewLabel, type ViewId } from "./views";

interface Props {
  current: ViewId;
  onSelect: (id: ViewId) => void;
  /** How many things wait in a view (shown when more than none). */
  badges?: Partial<Record<ViewId, number>>;
}

export function Sidebar({ current, onSelect, badges = {} }: Props) {
  const t = useT();
  return (
    <nav className="sidebar" aria-label={t("shell.nav.label")}>
      <div className="brand">
        <img src={icon} alt="" width={28} height={28} />
        <span>Switchboard</span>
      </div>
      <ul>
        {VIEWS.map((view) => (
          <li key={view.id}>
            <button
              type="button"
              data-view={view.id}
              aria-current={view.id === current ? "page" : undefined}
              onClick={() => onSelect(view.id)}
            >
              {viewLabel(view.id)}
              {(badges[view.id] ?? 0) > 0 && (
                <span className="badge" aria-label={t("shell.nav.waiting", { count: badges[view.id] })}>
                  {badges[view.id]}
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
