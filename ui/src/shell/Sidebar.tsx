import icon from "../../../assets/icons/128x128.png";
import { VIEWS, type ViewId } from "./views";

interface Props {
  current: ViewId;
  onSelect: (id: ViewId) => void;
  /** How many things wait in a view (shown when more than none). */
  badges?: Partial<Record<ViewId, number>>;
}

export function Sidebar({ current, onSelect, badges = {} }: Props) {
  return (
    <nav className="sidebar" aria-label="Main">
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
              {view.label}
              {(badges[view.id] ?? 0) > 0 && (
                <span className="badge" aria-label={`${badges[view.id]} waiting`}>
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
