import icon from "../../../assets/icons/128x128.png";
import { VIEWS, type ViewId } from "../views";

interface Props {
  current: ViewId;
  onSelect: (id: ViewId) => void;
}

export function Sidebar({ current, onSelect }: Props) {
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
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
